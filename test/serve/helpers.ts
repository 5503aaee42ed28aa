// Test helpers for `faultline serve`: an example served in this process on a free port of
// 127.0.0.1, a kubeconfig and a private kubectl cache for it, the real kubectl run against it, and
// plain HTTP requests.

import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadScenarioFile } from "../../src/load/index.ts";
import { kubeconfig, type Serving, startServe } from "../../src/serve/index.ts";

/**
 * The project's machines and Debian's kubernetes-client put kubectl here; FAULTLINE_KUBECTL names
 * another one (the tests pass with 1.32 and with Debian bookworm's 1.20).
 */
export const KUBECTL = process.env.FAULTLINE_KUBECTL ?? "/usr/bin/kubectl";
export const HAS_KUBECTL = existsSync(KUBECTL);

export interface Served {
  serving: Serving;
  dir: string;
  env: NodeJS.ProcessEnv;
  kubectl(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  /** kubectl as a long-running child (for -w), its output collected. */
  spawnKubectl(...args: string[]): { child: ChildProcess; output: () => string };
  stop(): Promise<void>;
}

export async function serveExample(file: string, at: number, speed?: number): Promise<Served> {
  const scenario = loadScenarioFile(`examples/${file}`);
  const serving = trust(
    await startServe(scenario, { at, port: 0, ...(speed !== undefined ? { speed } : {}) }),
  );
  const dir = mkdtempSync(join(tmpdir(), "faultline-serve-test-"));
  const config = join(dir, "kubeconfig");
  writeFileSync(config, kubeconfig(scenario.name, serving.url, serving.ca, serving.token));
  // A private HOME and discovery cache: nothing of the user's kubectl set-up is read or written.
  const env = { ...process.env, KUBECONFIG: config, KUBECACHEDIR: join(dir, "cache"), HOME: dir };
  const children: ChildProcess[] = [];
  return {
    serving,
    dir,
    env,
    kubectl: (...args) =>
      new Promise((resolve) => {
        execFile(KUBECTL, args, { env, timeout: 90_000 }, (error, stdout, stderr) => {
          const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
          resolve({ code, stdout, stderr });
        });
      }),
    spawnKubectl: (...args) => {
      const child = spawn(KUBECTL, args, { env, stdio: ["ignore", "pipe", "pipe"] });
      children.push(child);
      let out = "";
      child.stdout.on("data", (d) => {
        out += d;
      });
      child.stderr.on("data", (d) => {
        out += d;
      });
      return { child, output: () => out };
    },
    async stop() {
      for (const c of children) if (c.exitCode === null) c.kill("SIGTERM");
      await serving.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Wait (bounded) until `ok()`; generous, as the machine is shared and slow. */
export async function waitFor(ok: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface HttpAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  // biome-ignore lint/suspicious/noExplicitAny: parsed JSON, read freely by tests
  json(): any;
}

/** The bearer tokens of the servers the tests started, by host:port; `request` sends them. */
const TOKENS = new Map<string, string>();

/** Remember a started server's token, so that `request` to it carries it (as kubectl does). */
export function trust<S extends { url: string; token?: string }>(serving: S): S {
  if (serving.token) TOKENS.set(new URL(serving.url).host, serving.token);
  return serving;
}

/**
 * A request; to a server `trust`ed, with its bearer token unless the options give an
 * Authorization header or `noAuth`.
 */
export function request(
  url: string,
  options: https.RequestOptions & { noAuth?: boolean; body?: string | Uint8Array } = {},
): Promise<HttpAnswer> {
  const { noAuth, body: sent, ...rest } = options;
  const token = noAuth ? undefined : TOKENS.get(new URL(url).host);
  const given = Object.keys(rest.headers ?? {}).some((h) => h.toLowerCase() === "authorization");
  const opts =
    token && !given ? { ...rest, headers: { ...rest.headers, authorization: `Bearer ${token}` } } : rest;
  return new Promise((resolve, reject) => {
    const req = (url.startsWith("https:") ? https : http).request(url, opts, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d) => {
        body += d;
      });
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json: () => JSON.parse(body) }),
      );
    });
    req.on("error", reject);
    req.end(sent);
  });
}

/** The rows of kubectl's table output, each split on runs of two or more spaces. */
export function rows(stdout: string): string[][] {
  return stdout
    .trimEnd()
    .split("\n")
    .map((l) => l.trim().split(/\s{2,}/));
}
