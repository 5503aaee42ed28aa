// The output contracts: the committed schemas (schemas/, shipped in the package) are the ones
// scripts/schemas.ts generates from the types; every example's JSON output (simulate --json, audit
// --json, probes --json, a shard, simulate --vary --json) validates against its schema and carries
// formatVersion and faultline's version; the scenario schema accepts every example and rejects the
// shape mistakes of test/fixtures/bad-scenarios/ (which the loader rejects too, each with its
// located line).

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv, type ValidateFunction } from "ajv";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { SCHEMAS, schemaText } from "../../scripts/schemas.ts";
import { SCENARIO_FIELDS } from "../../src/load/scenario/parse.ts";
import { CONTROL_PLANE_FIELDS } from "../../src/load/scenario/settings.ts";
import { cli } from "../cli/helpers.ts";

const VERSION = (JSON.parse(readFileSync("package.json", "utf8")) as { version: string }).version;
const ajv = new Ajv({ strict: false, allErrors: true });
const validators = new Map<string, ValidateFunction>();
function validator(name: string): ValidateFunction {
  let v = validators.get(name);
  if (!v) {
    v = ajv.compile(JSON.parse(readFileSync(`schemas/${name}.schema.json`, "utf8")));
    validators.set(name, v);
  }
  return v;
}
function expectValid(name: string, value: unknown, what: string): void {
  const v = validator(name);
  expect(v(value), `${what}: ${JSON.stringify(v.errors?.slice(0, 3), null, 1)}`).toBe(true);
}
function expectVersioned(value: { formatVersion?: unknown; faultlineVersion?: unknown }): void {
  expect(value.formatVersion).toBe(1);
  expect(value.faultlineVersion).toBe(VERSION);
}

const examples = readdirSync("examples")
  .filter((f) => f.endsWith(".yaml"))
  .sort();

describe("the schemas", () => {
  it("are the ones generated from the types (npm run schemas)", () => {
    for (const s of SCHEMAS)
      expect(readFileSync(`schemas/${s.file}.schema.json`, "utf8"), s.file).toBe(schemaText(s));
  }, 120_000);

  it("are shipped in the package", () => {
    const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { files: string[] };
    expect(pkg.files).toContain("schemas");
  });
});

describe("the scenario schema", () => {
  it("names every field the loader reads, at the top and under controlPlane", () => {
    const schema = JSON.parse(readFileSync("schemas/scenario.schema.json", "utf8")) as {
      properties: Record<string, unknown>;
      definitions: Record<string, { properties?: Record<string, unknown> }>;
    };
    expect(Object.keys(schema.properties).sort()).toEqual([...SCENARIO_FIELDS].sort());
    const controlPlane = schema.definitions.ControlPlaneFile?.properties ?? {};
    expect(Object.keys(controlPlane).sort()).toEqual(Object.keys(CONTROL_PLANE_FIELDS).sort());
  });

  it("accepts every example", () => {
    for (const f of examples) expectValid("scenario", parse(readFileSync(`examples/${f}`, "utf8")), f);
    // examples/platforms/ holds scenarios beside the manifests they name (db.yaml).
    for (const f of readdirSync("examples/platforms").sort()) {
      const doc = parse(readFileSync(`examples/platforms/${f}`, "utf8")) as Record<string, unknown>;
      if ("duration" in doc) expectValid("scenario", doc, `platforms/${f}`);
    }
  });

  it("is the one an example's yaml-language-server modeline names", () => {
    const text = readFileSync("examples/node-power-loss.yaml", "utf8");
    const line = text.split("\n")[0]!;
    expect(line).toBe("# yaml-language-server: $schema=../schemas/scenario.schema.json");
    expect(existsSync(join("examples", line.split("=")[1]!))).toBe(true);
  });

  it("rejects the shape mistakes the loader rejects", async () => {
    const dir = "test/fixtures/bad-scenarios";
    const bad = readdirSync(dir).filter((f) => f.endsWith(".yaml"));
    expect(bad.length).toBeGreaterThanOrEqual(6);
    for (const f of bad) {
      const doc = parse(readFileSync(`${dir}/${f}`, "utf8"));
      expect(validator("scenario")(doc), f).toBe(false);
      const r = await cli(["simulate", `${dir}/${f}`]);
      expect([r.code, r.err.startsWith(`${dir}/${f}:`)], f).toEqual([2, true]);
    }
  }, 60_000);

  it("leaves to the loader what only it can see (a missing file, an empty folder)", () => {
    // test/fixtures/bad/: right shape, wrong files: the schema cannot know the file system.
    for (const f of ["missing-manifest.yaml", "empty-folder.yaml"])
      expectValid("scenario", parse(readFileSync(`test/fixtures/bad/${f}`, "utf8")), f);
  });
});

describe("every example's JSON output validates against its schema", () => {
  it("simulate --json", async () => {
    for (const f of examples) {
      const r = await cli(["simulate", `examples/${f}`, "--json"]);
      expect(r.code, `${f}: ${r.err}`).toBe(0);
      const json = JSON.parse(r.out);
      expectVersioned(json);
      expectValid("simulate", json, f);
    }
  }, 300_000);

  it("simulate --vary --json, with callers (traffic) and without (milestones)", async () => {
    const cases = [
      ["examples/traffic-doks-power-off.yaml", "externalTrafficPolicy=Local,Cluster", "traffic"],
      ["examples/node-power-loss.yaml", "controlPlane.nodeMonitorGracePeriod=20s,50s", "milestones"],
    ] as const;
    for (const [file, vary, compares] of cases) {
      const r = await cli(["simulate", file, "--vary", vary, "--json"]);
      expect(r.code, `${file}: ${r.err}`).toBe(0);
      const json = JSON.parse(r.out);
      expectVersioned(json);
      expect(Object.keys(json).slice(0, 2)).toEqual(["formatVersion", "faultlineVersion"]);
      expectValid("vary", json, `${file} --vary ${vary}`);
      const [key, values] = vary.split("=") as [string, string];
      expect(json.vary).toEqual({ key, values: values.split(",") });
      expect(json.compares).toBe(compares);
      for (const v of json.variants) expect(v[compares], `${file}: ${v.variant}`).toBeDefined();
    }
  }, 300_000);

  it("audit --json and a shard", async () => {
    const quick = ["--faults", "power-off,drain", "--duration", "8m", "--jobs", "1"];
    const r = await cli(["audit", "examples/audit/", ...quick, "--json"]);
    const json = JSON.parse(r.out);
    expectVersioned(json);
    expectValid("audit", json, "audit examples/audit/");
    const shard = await cli(["audit", "examples/audit/", ...quick, "--shard", "0/2"]);
    expectValid("shard", JSON.parse(shard.out), "audit --shard 0/2");
  }, 120_000);

  it("probes --json, with and without a run", async () => {
    for (const args of [[], ["--boot", "70s"]]) {
      const r = await cli(["probes", "examples/manifests-probes/", "--json", ...args]);
      expect(r.code, r.err).toBe(0);
      const json = JSON.parse(r.out);
      expectVersioned(json);
      expectValid("probes", json, `probes ${args.join(" ")}`);
    }
  }, 120_000);
});
