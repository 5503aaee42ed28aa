// What the command prints and how it ends: SARIF that Microsoft's SARIF Multitool validates, exit
// codes 0, 1 and 2, standard input, the same JSON whatever --jobs, shards that merge into exactly
// the unsharded result, and an Indexed Job that loads.

import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Log } from "sarif";
import { afterAll, describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { cli, FAULTLINE, oneLine, shell } from "../cli/helpers.ts";
import { writtenTo } from "./helpers.ts";

const dir = mkdtempSync(join(tmpdir(), "faultline-audit-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A smaller sweep of the shop for the tests that compare whole outputs. */
const SMALL = ["examples/audit/", "--faults", "power-off,drain", "--duration", "8m"];

describe("--sarif", () => {
  it("is SARIF 2.1.0 that the SARIF Multitool validates without a warning", async () => {
    const r = await cli(["audit", "examples/audit/", "--sarif", "--jobs", "1"]);
    expect(r.code).toBe(1);
    const log = JSON.parse(r.out) as Log;
    expect(log.version).toBe("2.1.0");
    const results = log.runs[0]!.results!;
    expect(results.map((x) => x.ruleId).sort()).toEqual(["FL001", "FL003", "FL004", "FL006"]);
    const fl001 = results.find((x) => x.ruleId === "FL001")!;
    expect(fl001.locations![0]!.physicalLocation).toMatchObject({
      artifactLocation: { uri: "examples/audit/checkout.yaml" },
      region: { startLine: 9, startColumn: 13 },
    });
    expect(fl001.message.text).toContain("shop/checkout has no ready endpoint for 5m54s");
    const file = join(dir, "shop.sarif");
    writeFileSync(file, r.out);
    const out = join(dir, "validation.sarif");
    const tool = createRequire(import.meta.url)("@microsoft/sarif-multitool") as string;
    const run = spawnSync(tool, ["validate", file, "--output", out], { encoding: "utf8" });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    const validation = JSON.parse(readFileSync(out, "utf8")) as Log;
    expect(validation.runs[0]!.results ?? []).toEqual([]);
  }, 120_000);
});

describe("exit codes", () => {
  it("0 when nothing reaches --fail-on, 1 when something does", async () => {
    const search = [
      "audit",
      "examples/audit/search.yaml",
      "--faults",
      "drain",
      "--duration",
      "2m",
      "--jobs",
      "1",
    ];
    const quiet = await cli(search);
    expect(quiet.out).toContain("warning FL006");
    expect(quiet.code).toBe(0);
    expect((await cli([...search, "--fail-on", "warning"])).code).toBe(1);
    expect((await cli([...search, "--fail-on", "note"])).code).toBe(1);
  }, 120_000);

  it("2 with one line for bad input", async () => {
    const bad = writtenTo(
      dir,
      "bad.yaml",
      "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: many\n",
    );
    const cases: [string[], RegExp][] = [
      [[bad], /bad\.yaml:5:13: spec\.replicas: /],
      [["no/such/folder"], /no\/such\/folder: no such file or folder/],
      [
        ["examples/audit/", "--faults", "power-off,meteor"],
        /--faults: "meteor" is not one of power-off, zone, drain, kubelet-stop, partition/,
      ],
      [["examples/audit/", "--shard", "3/3"], /--shard: "3\/3" is not I\/N/],
      [["examples/audit/", "--json", "--sarif"], /--json and --sarif: choose one/],
      [["examples/audit/", "--duration", "5s"], /--duration: 5s ends before the fault at 10s/],
      [["examples/audit/", "--traffic", "rate=fast"], /--traffic: rate=fast is not a number/],
      [
        ["examples/audit/", "--scenario", "examples/node-power-loss.yaml", "--nodes", "4"],
        /leave out --nodes/,
      ],
      [
        ["examples/audit/", "--max-sweep-events", "1000"],
        /over the audit's budget of 1,000\. .*--max-sweep-events \d+/,
      ],
      [[], /name manifest files or folders/],
    ];
    for (const [args, message] of cases) {
      const r = await cli(["audit", ...args, "--jobs", "1"]);
      expect(r.code, args.join(" ")).toBe(2);
      expect(oneLine(r.err), r.err).toBe(true);
      expect(r.err).toMatch(message);
    }
  }, 120_000);
});

describe("progress", () => {
  it("shows one line on a terminal (rewritten, then cleared), nothing otherwise", async () => {
    const lines: (string | undefined)[] = [];
    const args = [
      "audit",
      "examples/audit/search.yaml",
      "--faults",
      "drain",
      "--duration",
      "2m",
      "--jobs",
      "1",
    ];
    const r = await cli(args, (line) => lines.push(line));
    // Runs done of the phase's, and of the whole audit's: before the findings, the sweep and the
    // fixes' bound (at most one per rule and workload it can fix); then the fixes found.
    const first = /^faultline audit: sweep: 0 of (\d+) runs; 0 of at most (\d+) with the fixes$/.exec(
      lines[0]!,
    );
    expect(first, lines[0]).not.toBeNull();
    const sweep = Number(first![1]);
    expect(Number(first![2])).toBeGreaterThanOrEqual(sweep + 1);
    expect(lines).toContain(
      `faultline audit: fixes: 1 of 1 runs; ${sweep + 1} of ${sweep + 1} with the fixes`,
    );
    expect(lines.at(-1)).toBeUndefined();
    // Then one line of what it cost: the runs of each phase, wall and CPU time.
    expect(r.err).toMatch(
      /^faultline audit: \d+ runs of the sweep and 1 run of the fixes in \d+\.\d s wall, \d+\.\d s CPU\n$/,
    );
    // Off a terminal, neither.
    const plain = await cli(args);
    expect(plain.err).toBe("");
  }, 60_000);
});

describe("input", () => {
  it("reads manifests from standard input (helm template … | faultline audit -)", async () => {
    const r = await shell(
      `cat examples/audit/checkout.yaml | ${FAULTLINE} audit - --faults drain --duration 1m --json --jobs 1`,
    );
    expect(r.err).toBe("");
    const result = JSON.parse(r.out);
    expect(result.audit.inputs).toEqual(["<stdin>"]);
    expect(result.findings[0]).toMatchObject({ rule: "FL001", location: { file: "<stdin>", line: 9 } });
  }, 120_000);

  it("audits on a scenario's nodes and settings, its timeline left out", async () => {
    const r = await cli([
      "audit",
      "--scenario",
      "examples/node-power-loss.yaml",
      "--faults",
      "drain",
      "--json",
      "--jobs",
      "1",
    ]);
    const result = JSON.parse(r.out);
    expect(result.audit.kubernetesVersion).toBe("1.32");
    expect(result.audit.assumed).toBeNull();
    expect(result.audit.notes).toContain(
      "examples/node-power-loss.yaml: its timeline is left out: the audit runs each fault of the sweep instead",
    );
    expect(result.audit.workloads).toContain("StatefulSet/default/db");
  }, 120_000);
});

describe("the same result however it runs", () => {
  it("--jobs 1 and --jobs 2 print the same JSON", async () => {
    const one = await cli(["audit", ...SMALL, "--json", "--jobs", "1"]);
    const two = await cli(["audit", ...SMALL, "--json", "--jobs", "2"]);
    expect(one.err).toBe("");
    expect(two.err).toBe("");
    expect(two.out).toBe(one.out);
  }, 300_000);

  it("three shards merged are exactly the unsharded result", async () => {
    const whole = await cli(["audit", ...SMALL, "--json", "--jobs", "1"]);
    const files: string[] = [];
    for (const i of [2, 0, 1]) {
      const r = await cli(["audit", ...SMALL, "--shard", `${i}/3`, "--jobs", "1"]);
      expect(r.code).toBe(0);
      const shard = JSON.parse(r.out);
      expect(shard.shard).toEqual({ index: i, count: 3 });
      files.push(join(dir, `shard-${i}.json`));
      writeFileSync(files.at(-1)!, r.out);
    }
    const merged = await cli(["audit", "merge", ...files, "--json", "--jobs", "1"]);
    expect(merged.err).toBe("");
    expect(merged.out).toBe(whole.out);
    expect(merged.code).toBe(whole.code);
    const missing = await cli(["audit", "merge", files[0]!, files[1]!]);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/shard 1\/3 missing/);
    const other = await cli([
      "audit",
      "examples/audit/",
      "--faults",
      "drain",
      "--duration",
      "8m",
      "--shard",
      "1/3",
      "--jobs",
      "1",
    ]);
    writeFileSync(join(dir, "other.json"), other.out);
    const mixed = await cli(["audit", "merge", files[0]!, join(dir, "other.json"), files[2]!]);
    expect(mixed.code).toBe(2);
    expect(mixed.err).toMatch(/a shard of another audit/);
  }, 300_000);
});

describe("the audit's budget", () => {
  it("is the whole sweep's, or a shard's slice: --shard is a way to stay within it", async () => {
    const over = await cli(["audit", ...SMALL, "--max-sweep-events", "1000", "--jobs", "1"]);
    const total = Number(/is about ([\d,]+) engine events/.exec(over.err)![1]!.replace(/,/g, ""));
    const budget = String(Math.ceil(total * 0.6));
    const whole = await cli(["audit", ...SMALL, "--max-sweep-events", budget, "--jobs", "1"]);
    expect(whole.code).toBe(2);
    expect(whole.err).toMatch(/the sweep is about .* split it with --shard I\/N/);
    const shard = await cli([
      "audit",
      ...SMALL,
      "--max-sweep-events",
      budget,
      "--shard",
      "0/2",
      "--jobs",
      "1",
    ]);
    expect(shard.err).toBe("");
    expect(shard.code).toBe(0);
  }, 120_000);
});

describe("--emit-job", () => {
  it("prints a ConfigMap with the inputs and an Indexed Job running one shard per index", async () => {
    const r = await cli(["audit", "examples/audit/", "--faults", "power-off,zone", "--emit-job", "4"]);
    expect(r.code).toBe(0);
    const docs = parseAllDocuments(r.out).map((d) => d.toJS());
    expect(docs.map((d) => d.kind)).toEqual(["ConfigMap", "Job"]);
    const [cm, job] = docs;
    expect(Object.keys(cm.data).sort()).toEqual([
      "examples_audit_cart.yaml",
      "examples_audit_checkout.yaml",
      "examples_audit_orders-db.yaml",
      "examples_audit_search.yaml",
      "examples_audit_storefront.yaml",
    ]);
    expect(cm.data["examples_audit_cart.yaml"]).toBe(readFileSync("examples/audit/cart.yaml", "utf8"));
    expect(job.spec).toMatchObject({ completionMode: "Indexed", completions: 4, parallelism: 4 });
    const c = job.spec.template.spec.containers[0];
    expect(c.args).toEqual([
      "examples/audit/",
      "--faults=power-off,zone",
      "--shard=$(JOB_COMPLETION_INDEX)/4",
    ]);
    expect(job.spec.template.spec.volumes[0].configMap.items).toContainEqual({
      key: "examples_audit_cart.yaml",
      path: "examples/audit/cart.yaml",
    });
    if (existsSync("/usr/bin/kubectl")) {
      // `kubectl create --dry-run=client` asks an API server for its kinds (discovery) and there is
      // none here; `--local` reads the objects offline, as kubectl decodes them.
      const out = execFileSync(
        "/usr/bin/kubectl",
        ["label", "--local", "-f", "-", "checked=yes", "-o", "name"],
        {
          input: r.out,
          encoding: "utf8",
        },
      );
      expect(out.trim().split("\n")).toEqual([
        "configmap/faultline-audit-inputs",
        "job.batch/faultline-audit",
      ]);
    }
  }, 60_000);
});
