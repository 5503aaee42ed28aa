// Small refusals, each one line and exit 2: `--report -` (the text already goes to standard output,
// and `-` means standard input elsewhere), `--report` naming standard output itself (/dev/stdout, or
// the file it is redirected to); the eviction rates outside what kube-controller-manager's float32
// flags hold; and `--vary` with a value written twice, which runs it once.

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cli, FAULTLINE, oneLine, shell } from "./helpers.ts";

const dir = mkdtempSync(join(tmpdir(), "faultline-small-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const EXAMPLE = "examples/node-power-loss.yaml";

function refused(r: { code: number; err: string; out: string }, text: string) {
  expect(r.code).toBe(2);
  expect(r.out).toBe("");
  expect(oneLine(r.err), r.err).toBe(true);
  expect(r.err).toContain(text);
}

describe("--report", () => {
  it.each([
    ["simulate", [EXAMPLE]],
    ["detector compare", ["--phi", "8", "--timeout", "5s"]],
    ["audit", ["examples/audit/", "--jobs", "1"]],
  ])("- is refused by %s: standard output carries the text", async (command, args) => {
    const r = await cli([...command.split(" "), ...args, "--report", "-"]);
    refused(r, "--report -: standard output already carries the text; give the page a file name");
  });

  it("naming standard output (/dev/stdout, or the file it is redirected to) is refused", async () => {
    const piped = await shell(`set -o pipefail; ${FAULTLINE} simulate ${EXAMPLE} --report /dev/stdout | cat`);
    refused(piped, "--report /dev/stdout: is standard output, where the text goes");
    const file = join(dir, "out.txt");
    const redirected = await shell(`${FAULTLINE} simulate ${EXAMPLE} --report ${file} > ${file}`);
    expect(redirected.code).toBe(2);
    expect(redirected.err).toContain(`--report ${file}: is standard output, where the text goes`);
    expect(readFileSync(file, "utf8")).toBe("");
    // Another file is written as before.
    const page = join(dir, "page.html");
    const ok = await shell(`${FAULTLINE} simulate ${EXAMPLE} --report ${page} > ${file}`);
    expect(ok.code, ok.err).toBe(0);
    expect(readFileSync(page, "utf8")).toMatch(/^<!doctype html>/i);
  }, 120_000);
});

describe("controlPlane.nodeEvictionRate and secondaryNodeEvictionRate (float32 flags)", () => {
  it.each([
    ["nodeEvictionRate", "1e308", "1e+308 is too large: must be at most 3.4028234663852886e+38"],
    ["secondaryNodeEvictionRate", "1e39", "1e+39 is too large: must be at most 3.4028234663852886e+38"],
    ["nodeEvictionRate", "1e-300", "1e-300 nodes per second is below 1.4e-45 (the smallest float32 above 0)"],
    ["nodeEvictionRate", "-0.1", "-0.1 is too small"],
  ])("%s=%s is refused", async (field, value, text) => {
    const r = await cli(["simulate", EXAMPLE, "--vary", `controlPlane.${field}=${value}`]);
    refused(r, `--vary controlPlane.${field}=${value}: ${text}`);
  });

  it("0 (no eviction) and the largest float32 are accepted", async () => {
    const r = await cli([
      "simulate",
      EXAMPLE,
      "--vary",
      "controlPlane.nodeEvictionRate=0,3.4028234663852886e38,1.401298464324817e-45",
      "--json",
    ]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect((JSON.parse(r.out) as { variants: unknown[] }).variants.length).toBe(3);
  }, 120_000);
});

describe("--vary", () => {
  it("runs a value written twice once, in the order first given", async () => {
    const r = await cli([
      "simulate",
      EXAMPLE,
      "--vary",
      "controlPlane.nodeMonitorGracePeriod=40s,40s,20s,40s",
      "--json",
    ]);
    expect(r.err).toBe("");
    const json = JSON.parse(r.out) as { vary: { values: string[] }; variants: { variant: string }[] };
    expect(json.vary.values).toEqual(["40s", "20s"]);
    const variants = json.variants.map((v) => v.variant);
    expect(variants).toEqual([
      "controlPlane.nodeMonitorGracePeriod=40s",
      "controlPlane.nodeMonitorGracePeriod=20s",
    ]);
  }, 120_000);
});
