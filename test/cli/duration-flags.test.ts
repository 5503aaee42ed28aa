// One rule for a duration on every command line (src/cli/duration-flag.ts): Go's time.ParseDuration, a
// unit required, a bare number other than 0 refused (Go: "missing unit in duration"); scenario files
// read bare numbers as seconds, flags never do.

import { describe, expect, it } from "vitest";
import { durationFlag } from "../../src/cli/duration-flag.ts";
import { cli } from "./helpers.ts";

describe("durationFlag", () => {
  it.each([
    ["70s", 70],
    ["1m30s", 90],
    ["500ms", 0.5],
    ["0", 0],
    [" 2h ", 7200],
  ])("%j is %d seconds", (text, seconds) => {
    expect(durationFlag("--x", text)).toBe(seconds);
  });

  it.each(["70", "1.5", "-3", ".5"])("a bare %j needs a unit", (text) => {
    expect(() => durationFlag("--x", text)).toThrow(`--x: "${text}" needs a unit (e.g. 1s, 500ms)`);
  });

  it("what is no duration says why, with the flag", () => {
    expect(() => durationFlag("--x", "2d")).toThrow(/^--x: "2d" is not a duration: unknown unit "d"$/);
  });
});

describe("every command's duration flags refuse a bare number alike (exit 2, one line)", () => {
  it.each([
    [["simulate", "examples/node-power-loss.yaml", "--dump-at", "60"], "--dump-at"],
    [["serve", "examples/node-power-loss.yaml", "--at", "70"], "--at"],
    [["probes", "examples/manifests-probes/app.yaml", "--boot", "70"], "--boot"],
    [["probes", "examples/manifests-probes/app.yaml", "--boot", "70s", "--for", "160"], "--for"],
    [["audit", "examples/audit/", "--duration", "900"], "--duration"],
    [["detector", "phi", "--silence", "6000"], "--silence"],
  ])("%j", async (argv, flag) => {
    const r = await cli(argv);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`faultline: ${flag}: "${argv.at(-1)}" needs a unit (e.g. 1s, 500ms)\n`);
  });
});
