// The process's streams and files, with the real command line: a closed stdout
// ends it quietly with 141, a full disk is one line and exit 2; --report paths that cannot be
// written are one located line and exit 2; a real internal error is one short paragraph.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { reportInternalError } from "../../src/cli/errors.ts";
import { cli, FAULTLINE, oneLine, shell } from "./helpers.ts";

const SPAWN = 120_000;

describe("a closed or full standard output", () => {
  it(
    "`simulate --json | head -1` ends quietly: no stack, exit 141 (128 + SIGPIPE)",
    async () => {
      const r = await shell(
        // Output well past a pipe's 64 KiB buffer, so that writes go on after head has gone.
        `${FAULTLINE} simulate examples/probes-seed.yaml --json --all-leases | head -1; exit \${PIPESTATUS[0]}`,
      );
      // The first line: the format's and faultline's versions, the run's identity and its state at
      // t=0, up to the events (one per line).
      expect(r.out).toMatch(
        /^\{"formatVersion":1,"faultlineVersion":"[^"]+","scenario":"probes-seed",.*"events":\[\n$/,
      );
      expect(r.err).toBe("");
      expect(r.code).toBe(141);
    },
    SPAWN,
  );

  it(
    "`> /dev/full`: one line naming ENOSPC, exit 2",
    async () => {
      const r = await shell(`${FAULTLINE} simulate examples/node-power-loss.yaml --json > /dev/full`);
      expect(r.code).toBe(2);
      expect(oneLine(r.err)).toBe(true);
      expect(r.err).toContain("ENOSPC");
    },
    SPAWN,
  );
});

describe("--report paths that cannot be written: one located line, exit 2, before the run", () => {
  const dir = mkdtempSync(join(tmpdir(), "faultline-report-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const cases: [string, string, RegExp][] = [
    ["a missing folder", join(dir, "missing", "r.html"), /no folder .*missing/],
    ["a folder", dir, /is a folder/],
    ["the scenario itself", "examples/node-power-loss.yaml", /the scenario file itself/],
    [
      "a manifest it reads",
      "examples/manifests/web.yaml",
      /examples\/manifests\/web.yaml, a file this run reads/,
    ],
  ];
  for (const [what, path, why] of cases)
    it(what, async () => {
      const r = await cli(["simulate", "examples/node-power-loss.yaml", "--report", path]);
      expect(r.code).toBe(2);
      expect(r.out).toBe("");
      expect(oneLine(r.err)).toBe(true);
      expect(r.err).toContain(`--report ${path}`);
      expect(r.err).toMatch(why);
      expect(r.err).not.toContain("internal error");
    });

  // Found only when the page is written (root may open both): the same one line, after the output.
  it.each([
    ["a device that fills up (/dev/full)", "/dev/full", /ENOSPC/],
    ["a file nobody may write (/proc/version)", "/proc/version", /cannot write/],
  ])(
    "%s",
    async (_what, path, why) => {
      const r = await cli(["simulate", "examples/node-power-loss.yaml", "--report", path]);
      expect(r.code).toBe(2);
      expect(r.err.trim().split("\n")).toHaveLength(1);
      expect(r.err).toMatch(new RegExp(`^faultline: --report ${path}: cannot write: `));
      expect(r.err).toMatch(why);
    },
    SPAWN,
  );
});

describe("a real internal error", () => {
  const paragraph = (env: NodeJS.ProcessEnv) => {
    const err: string[] = [];
    const code = reportInternalError(
      new TypeError("x is undefined"),
      { out: () => {}, err: (s) => err.push(s) },
      env,
    );
    return { code, err: err.join("") };
  };

  it("is exit 1 and one short paragraph saying how to report it, without a stack", () => {
    const { code, err } = paragraph({});
    expect(code).toBe(1);
    expect(err).toMatch(/^faultline: internal error: TypeError: x is undefined\n/);
    expect(err).toContain("FAULTLINE_DEBUG=1");
    expect(err).toMatch(/report it/);
    expect(err).not.toMatch(/^\s+at /m);
    expect(err.trim().split("\n").length).toBeLessThanOrEqual(5);
  });

  it("prints the stack with FAULTLINE_DEBUG=1", () => {
    expect(paragraph({ FAULTLINE_DEBUG: "1" }).err).toMatch(/^\s+at /m);
  });
});
