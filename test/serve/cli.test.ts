// `faultline serve` on the command line: bad input is one line and exit code 2; a running server
// prints its kubeconfig, answers, and stops cleanly on SIGINT (removing the kubeconfig it made).

import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import net from "node:net";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { main } from "../../src/cli/main.ts";
import { request, waitFor } from "./helpers.ts";

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (s) => out.push(s), err: (s) => err.push(s) });
  return { code, out: out.join(""), err: err.join("") };
}

describe("faultline serve: bad input", () => {
  it.each([
    [["serve", "examples/missing.yaml"], /^examples\/missing\.yaml: /],
    [
      ["serve", "examples/node-power-loss.yaml", "--at", "soon"],
      /^faultline: --at: "soon" is not a duration/,
    ],
    [
      ["serve", "examples/node-power-loss.yaml", "--at", "20m"],
      /^faultline: --at: 20m is outside the run \(0 to its duration, 15m\)/,
    ],
    [
      ["serve", "examples/node-power-loss.yaml", "--speed", "0"],
      /^faultline: --speed: "0" is not a positive number/,
    ],
    [
      ["serve", "examples/node-power-loss.yaml", "--port", "99999"],
      /^faultline: --port: "99999" is not a port number/,
    ],
    [
      ["serve", "examples/node-power-loss.yaml", "--epoch", "yesterday"],
      /^faultline: --epoch: "yesterday" is not an RFC 3339 time/,
    ],
    [
      ["serve", "examples/node-power-loss.yaml", "--max-events", "10"],
      /^faultline: examples\/node-power-loss\.yaml: about .* engine events per run, over the budget of 10/,
    ],
  ])("%j: one line, exit code 2", async (argv, message) => {
    const { code, out, err } = await cli(argv);
    expect(code).toBe(2);
    expect(out).toBe("");
    expect(err).toMatch(message);
    expect(err.trimEnd().split("\n")).toHaveLength(1);
  });
});

describe("faultline serve: what it cannot do", () => {
  it("a port in use: one line, exit code 2", async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const { code, err } = await cli([
        "serve",
        "examples/node-power-loss.yaml",
        "--at",
        "70s",
        "--port",
        String(port),
      ]);
      expect(code).toBe(2);
      expect(err).toBe(`faultline: --port: cannot listen on 127.0.0.1:${port} (EADDRINUSE)\n`);
    } finally {
      blocker.close();
    }
  });

  it("a kubeconfig it cannot write: one line, exit code 2, and the server stopped", async () => {
    const { code, err } = await cli([
      "serve",
      "examples/node-power-loss.yaml",
      "--kubeconfig-out",
      "/nonexistent/dir/kc",
    ]);
    expect(code).toBe(2);
    expect(err).toBe("faultline: --kubeconfig-out: cannot write /nonexistent/dir/kc (ENOENT)\n");
  });
});

describe("faultline serve: a process", () => {
  it("prints the kubeconfig and the https address on 127.0.0.1, answers with the kubeconfig's CA verified, puts t=0 at now less --at, and stops cleanly on SIGINT", async () => {
    const before = Date.now();
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "test/serve/cli-entry.ts",
        "serve",
        "examples/node-power-loss.yaml",
        "--at",
        "70s",
        "--port",
        "0",
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => {
      out += d;
    });
    child.stderr.on("data", (d) => {
      err += d;
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    try {
      await waitFor(() => /on (https:\/\/127\.0\.0\.1:\d+)\n/.test(out), "the server to start", 90_000);
      const url = /on (https:\/\/127\.0\.0\.1:\d+)\n/.exec(out)![1]!;
      const kubeconfig = /^kubeconfig: (.+)$/m.exec(out)![1]!;
      expect(out).toContain(`export KUBECONFIG=${kubeconfig}`);
      // t=0 on the wall is the wall clock's now less --at 70s (to the second), so that the ages
      // kubectl describe counts from the wall clock are the simulated ones: no "699d".
      const t0 = Date.parse(/^virtual t=0 is (\S+);/m.exec(out)![1]!);
      expect(t0).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 - 70_000);
      expect(t0).toBeLessThanOrEqual(Date.now() - 70_000);
      const described = spawnSync(
        "/usr/bin/kubectl",
        ["--kubeconfig", kubeconfig, "describe", "node", "worker-2"],
        {
          encoding: "utf8",
        },
      );
      expect(described.status, described.stderr).toBe(0);
      expect(described.stdout).toMatch(/^Events:/m);
      expect(described.stdout).not.toMatch(/\s\d+d(\d+h)?\s/);
      expect(out).toMatch(
        /^faultline serve · node-power-loss · Kubernetes 1\.32 · t\+1m10s of 15m \(frozen\)$/m,
      );
      expect(existsSync(kubeconfig)).toBe(true);
      // The serving certificate made at start is the kubeconfig's certificate authority: verified, not skipped.
      const written = parse(readFileSync(kubeconfig, "utf8"));
      const caData = written.clusters[0].cluster["certificate-authority-data"];
      const ca = Buffer.from(caData, "base64").toString("utf8");
      // The bearer token made at start is the kubeconfig user's, required, and the file is the owner's only.
      const token: string = written.users[0].user.token;
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(statSync(kubeconfig).mode & 0o777).toBe(0o600);
      expect(out).toContain(
        "T=$(kubectl config view --raw -o jsonpath='{.users[0].user.token}')  # the token serve requires",
      );
      expect(out).toContain(`curl -k -H "Authorization: Bearer $T" ${url}/faultline/v1/clock`);
      expect((await request(`${url}/version`, { ca })).status).toBe(401);
      const authorization = `Bearer ${token}`;
      expect((await request(`${url}/version`, { ca, headers: { authorization } })).json().gitVersion).toBe(
        "v1.32.0",
      );
      await expect(request(`${url}/version`)).rejects.toThrow(/self[- ]signed/i);
      child.kill("SIGINT");
      expect(await exited).toBe(0);
      expect(err).toBe("faultline serve: stopped\n");
      expect(existsSync(kubeconfig)).toBe(false);
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  }, 120_000);
});
