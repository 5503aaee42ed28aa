// SARIF that code scanning places: from a file, a folder and standard input, every location is a
// path relative to the repository root under %SRCROOT%, the same whatever the working directory;
// the fingerprints are the same across runs and folders; the log is valid against the SARIF 2.1.0
// JSON schema (OASIS, test/fixtures/sarif/) and keeps GitHub's documented upload rules and limits
// ("SARIF support for code scanning" and "SARIF results exceed limits", docs.github.com, read
// 2026-12); the Multitool's SARIF and GitHub rules find nothing; each rule has its help page.

import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { Log, Result } from "sarif";
import { afterAll, describe, expect, it } from "vitest";
import { RULES } from "../../src/audit/rules/index.ts";
import { cli, FAULTLINE, shell } from "../cli/helpers.ts";

const dir = mkdtempSync(join(tmpdir(), "faultline-sarif-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const QUICK = ["--faults", "power-off", "--duration", "8m", "--jobs", "1", "--sarif"];
const ROOT = process.cwd();

function logOf(out: string): Log {
  return JSON.parse(out) as Log;
}
function results(log: Log): Result[] {
  return log.runs[0]!.results ?? [];
}
function places(log: Log) {
  return results(log).map((r) => ({
    artifact: r.locations![0]!.physicalLocation!.artifactLocation,
    fingerprint: r.partialFingerprints,
  }));
}

describe("SARIF locations", () => {
  it("a file, a folder and standard input: repository-relative under %SRCROOT%", async () => {
    const file = logOf((await cli(["audit", "examples/audit/checkout.yaml", ...QUICK])).out);
    expect(places(file)[0]!.artifact).toEqual({
      uri: "examples/audit/checkout.yaml",
      uriBaseId: "%SRCROOT%",
    });
    const run = file.runs[0]!;
    expect(run.invocations?.[0]).toEqual({
      executionSuccessful: true,
      workingDirectory: { uri: `${pathToFileURL(ROOT).href}/` },
    });
    expect(run.originalUriBaseIds?.["%SRCROOT%"]?.uri).toBe(`${pathToFileURL(ROOT).href}/`);

    const folder = logOf((await cli(["audit", "examples/audit/", ...QUICK])).out);
    const uris = new Set(places(folder).map((p) => p.artifact?.uri));
    expect([...uris].every((u) => /^examples\/audit\/[a-z-]+\.yaml$/.test(u!))).toBe(true);

    const piped = await shell(
      `cat examples/audit/checkout.yaml | ${FAULTLINE} audit - --stdin-filename examples/audit/checkout.yaml ${QUICK.join(" ")}`,
    );
    expect(piped.err).toBe("");
    expect(places(logOf(piped.out))).toEqual(places(file));
  }, 120_000);

  it("are the same from a subfolder, and the fingerprints the same across runs and folders", async () => {
    const here = await shell(`${FAULTLINE} audit examples/audit/ ${QUICK.join(" ")}`);
    const sub = await shell(
      `cd examples && node --import tsx ../test/cli/bin.ts audit audit/ ${QUICK.join(" ")}`,
    );
    expect(places(logOf(sub.out))).toEqual(places(logOf(here.out)));
    expect(logOf(sub.out).runs[0]!.invocations![0]!.workingDirectory!.uri).toBe(
      `${pathToFileURL(join(ROOT, "examples")).href}/`,
    );
    // --sarif-root makes the paths relative to another folder.
    const rooted = logOf((await cli(["audit", "examples/audit/", ...QUICK, "--sarif-root", "examples"])).out);
    expect(places(rooted)[0]!.artifact?.uri).toMatch(/^audit\/[a-z-]+\.yaml$/);
    expect(places(rooted).map((p) => p.fingerprint)).toEqual(
      places(logOf(here.out)).map((p) => p.fingerprint),
    );
  }, 120_000);

  it("standard input without a name is said on stderr; the options are checked", async () => {
    const piped = await shell(`cat examples/audit/checkout.yaml | ${FAULTLINE} audit - ${QUICK.join(" ")}`);
    expect(piped.err).toMatch(/standard input has no file name.*--stdin-filename/);
    expect(places(logOf(piped.out))[0]!.artifact).toEqual({ uri: "stdin" });
    const bad = await cli(["audit", "examples/audit/", "--stdin-filename", "x.yaml"]);
    expect([bad.code, bad.err]).toEqual([2, expect.stringMatching(/--stdin-filename names standard input/)]);
    const root = await cli(["audit", "examples/audit/", "--sarif-root", "."]);
    expect(root.err).toMatch(/--sarif-root goes with --sarif/);
    const missing = await cli(["audit", "examples/audit/", "--sarif", "--sarif-root", "no/such"]);
    expect(missing.err).toMatch(/--sarif-root: "no\/such" is not a folder/);
  }, 120_000);
});

describe("SARIF validity", () => {
  let log: Log;
  let text: string;
  it("is valid against the SARIF 2.1.0 JSON schema", async () => {
    text = (await cli(["audit", "examples/audit/", ...QUICK])).out;
    log = logOf(text);
    const schema = JSON.parse(readFileSync("test/fixtures/sarif/sarif-schema-2.1.0.json", "utf8"));
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addFormat("uri", /^[a-z][a-z0-9+.-]*:/i);
    ajv.addFormat("uri-reference", () => true);
    ajv.addFormat("date-time", (s: string) => !Number.isNaN(Date.parse(s)));
    ajv.addFormat("uuid", /^[0-9a-f]{8}-([0-9a-f]{4}-){3}[0-9a-f]{12}$/i);
    const validate = ajv.compile(schema);
    expect(validate(log), JSON.stringify(validate.errors, null, 2)).toBe(true);
  }, 120_000);

  it("keeps GitHub's upload rules and limits", () => {
    expect(log.version).toBe("2.1.0");
    expect(log.runs.length).toBeLessThanOrEqual(20); // runs per file
    const run = log.runs[0]!;
    const rules = run.tool.driver.rules!;
    expect(run.tool.driver.name).toBe("faultline");
    expect(rules.length).toBeLessThanOrEqual(25_000); // rules per run
    expect(results(log).length).toBeGreaterThan(0);
    expect(results(log).length).toBeLessThanOrEqual(25_000); // results per run
    for (const r of results(log)) {
      expect(rules[r.ruleIndex!]!.id).toBe(r.ruleId);
      expect(r.message.text).toBeTruthy();
      expect(r.locations!.length).toBeGreaterThanOrEqual(1);
      expect(r.locations!.length).toBeLessThanOrEqual(1000); // locations per result
      const p = r.locations![0]!.physicalLocation!;
      expect(p.artifactLocation!.uri).not.toMatch(/^[a-z]+:|^\//); // relative to the checkout
      expect(p.artifactLocation!.uriBaseId).toBe("%SRCROOT%");
      expect(p.region!.startLine).toBeGreaterThanOrEqual(1);
      expect(Object.keys(r.partialFingerprints!)).toEqual(["faultline/v1"]);
    }
    for (const rule of rules) expect((rule.properties?.tags ?? []).length).toBeLessThanOrEqual(20);
    // The upload's limit: 10 MB gzipped (this is far below it uncompressed).
    expect(Buffer.byteLength(text)).toBeLessThan(10 * 2 ** 20);
  });

  it("the Multitool's SARIF and GitHub rules find no error or warning", () => {
    const file = join(dir, "shop.sarif");
    writeFileSync(file, text);
    const out = join(dir, "validation.sarif");
    const tool = createRequire(import.meta.url)("@microsoft/sarif-multitool") as string;
    const args = ["validate", file, "--output", out, "--rule-kind", "Sarif;Gh", "--level", "Error;Warning"];
    const run = spawnSync(tool, args, { encoding: "utf8" });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(logOf(readFileSync(out, "utf8")).runs[0]!.results ?? []).toEqual([]);
  }, 120_000);

  it("each rule has a helpUri to its docs/rules.md anchor and help in Markdown", () => {
    const anchors = new Set(
      [...readFileSync("docs/rules.md", "utf8").matchAll(/^## (FL\d{3})$/gm)].map((m) => m[1]!.toLowerCase()),
    );
    const rules = log.runs[0]!.tool.driver.rules!;
    expect(rules.map((r) => r.id)).toEqual(RULES.map((r) => r.id));
    for (const r of rules) {
      expect(anchors.has(r.id.toLowerCase()), r.id).toBe(true);
      expect(r.helpUri).toMatch(new RegExp(`^https://.+/docs/rules\\.md#${r.id.toLowerCase()}$`));
      expect(r.help!.markdown).toContain("_Why:_");
      expect(r.help!.markdown).not.toMatch(/\]\(#/); // in-page links made absolute
    }
  });
});
