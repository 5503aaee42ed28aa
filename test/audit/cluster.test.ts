// `faultline audit --cluster DUMP`: a live cluster from its dump (test/fixtures/cluster/shop-dump.yaml,
// 12 EKS nodes in three zones, one cordoned, one tainted for batch work). Its nodes are the dump's, its
// workloads the dump's objects (a pod or ReplicaSet with a controller is that controller's), its pods
// start where they run, findings point into the dump; the hand-written twin of the dump
// (test/fixtures/cluster/shop.yaml) gives the same figures, and a fix on a dump's workload is measured
// as on its manifests. Manifests named with it are added to its objects; one it already holds is refused.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { prepare } from "../../src/audit/inputs.ts";
import { formatAudit } from "../../src/audit/text.ts";
import type { RunMeasure } from "../../src/audit/types.ts";
import { readManifestEntry } from "../../src/load/index.ts";
import { dumpAt, formatDump } from "../../src/serve/dump.ts";
import { cli, FAULTLINE, shell } from "../cli/helpers.ts";
import {
  type Audited,
  auditJson,
  findingsOf,
  measured,
  readmeBlock,
  unprinted,
  writtenTo,
} from "./helpers.ts";

const DUMP = "test/fixtures/cluster/shop-dump.yaml";
const TWIN = "test/fixtures/cluster/shop.yaml";
const ZONES = ["eu-west-1a", "eu-west-1b", "eu-west-1c"];
const STATEFUL = [
  "StatefulSet/monitoring/prometheus",
  "StatefulSet/shop/kafka",
  "StatefulSet/shop/postgres",
  "StatefulSet/shop/redis",
];
/** A smaller sweep for the tests that compare whole outputs. */
const SMALL = ["--cluster", DUMP, "--faults", "power-off,zone", "--duration", "8m"];

const dir = mkdtempSync(join(tmpdir(), "faultline-audit-cluster-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let dump: Audited;
let twin: Audited;
beforeAll(async () => {
  dump = await auditJson(["--cluster", DUMP]);
  twin = await auditJson(["--scenario", TWIN]);
}, 300_000);

/** The 1-based line of the first line of the dump, after `after`, that contains `text`. */
function lineOf(text: string, after: string): number {
  const lines = readFileSync(DUMP, "utf8").split("\n");
  const from = lines.findIndex((l) => l.includes(after));
  return lines.findIndex((l, i) => i > from && l.includes(text)) + 1;
}

describe("faultline audit --cluster shop-dump.yaml", () => {
  it("runs on the dump's nodes as they are, and says so", () => {
    const a = dump.result.audit;
    expect(a.assumed).toBeNull();
    expect(a.inputs).toEqual([DUMP]);
    expect(a.kubernetesVersion).toBe("1.31");
    expect(a.nodes).toHaveLength(12);
    expect(new Set(a.nodes.map((n) => n.zone))).toEqual(new Set(ZONES));
    // status.capacity of an m5.xlarge as EKS reports it (4 vCPU, 58 pods with the VPC CNI)
    expect(a.nodes[0]).toMatchObject({
      name: "ip-10-0-1-11.eu-west-1.compute.internal",
      cpu: 4,
      pods: 58,
    });
    // The cordoned node and the one tainted for batch work, as the dump has them.
    expect(a.nodes.filter((n) => n.unschedulable || n.taints)).toEqual([
      {
        name: "ip-10-0-1-14.eu-west-1.compute.internal",
        zone: "eu-west-1a",
        cpu: 4,
        memory: expect.any(Number),
        pods: 58,
        unschedulable: true,
        taints: ["node.kubernetes.io/unschedulable:NoSchedule"],
      },
      {
        name: "ip-10-0-2-24.eu-west-1.compute.internal",
        zone: "eu-west-1b",
        cpu: 4,
        memory: expect.any(Number),
        pods: 58,
        taints: ["dedicated=batch:NoSchedule"],
      },
    ]);
    expect(a.notes).toContain(
      `the cluster from the dump ${DUMP}: 12 nodes (1 cordoned, 1 tainted) as they are, 152 pods starting where they run`,
    );
  });

  it("takes the workloads from the controllers, not from the pods and ReplicaSets they own", () => {
    const w = dump.result.audit.workloads;
    expect(w).toContain("Deployment/shop/cart");
    expect(w).toContain("StatefulSet/shop/redis");
    expect(w.filter((x) => x.startsWith("ReplicaSet/"))).toEqual([]);
    // Only the dump's bare pods (no ownerReference) are their own workloads.
    expect(w.filter((x) => x.startsWith("Pod/"))).toEqual([
      "Pod/default/debug-shell",
      "Pod/shop/gpu-smoke-test",
      "Pod/shop/netshoot",
    ]);
    // Without a fault every Service keeps its endpoints: desired counts the controllers' replicas once.
    const none = dump.result.runs.find((r) => r.id === "none")!;
    for (const [s, f] of Object.entries(none.services)) expect([s, f.degraded]).toEqual([s, 0]);
  });

  it("powers off and drains every dump node and loses every zone of it", () => {
    const ids = dump.result.runs.map((r) => r.id).filter((id) => !id.startsWith("x/"));
    const names = dump.result.audit.nodes.map((n) => n.name);
    expect(ids).toEqual([
      "none",
      ...names.map((n) => `power-off/${n}`),
      ...ZONES.map((z) => `zone/${z}`),
      ...names.map((n) => `drain/${n}`),
    ]);
    const zone = dump.result.runs.find((r) => r.id === "zone/eu-west-1b")!;
    expect(zone.fault.nodes).toEqual(names.filter((n) => n.startsWith("ip-10-0-2-")));
  });

  it("finds the StatefulSets a node loss leaves for a person, pointing at their claims in the dump", () => {
    const found = findingsOf(dump.result, "FL003");
    expect(found.map((f) => f.object)).toEqual(STATEFUL);
    for (const f of found) {
      const name = f.object.split("/")[2]!;
      expect(f.location).toEqual({
        file: DUMP,
        // the volumeClaimTemplates list of that StatefulSet's object in the dump
        line: lineOf("- apiVersion: v1", `    serviceName: ${name}`),
        col: 5,
        path: "spec.volumeClaimTemplates",
      });
      expect(f.consequence.figures.recovered).toBeNull();
      expect(f.consequence.text).toMatch(/stuck Terminating on ip-10-0-/);
      expect(measured(dump.result, f)).toBeDefined();
    }
    expect(dump.code).toBe(1);
  });

  it("prints what docs/audit.md shows", () => {
    const block = readmeBlock(/\$ npx faultline audit --cluster [^\n]*\n([\s\S]*?)\n *```/, "docs/audit.md");
    expect(unprinted(block, formatAudit(dump.result))).toEqual([]);
  });

  it("gives the figures of the dump's hand-written twin: same runs, same measures, same findings", () => {
    // The pods the runs create are named with random suffixes (apiserver's names.SimpleNameGenerator)
    // drawn in another order from the twin's: the figures are the same, the names masked.
    const masked = (x: unknown) =>
      JSON.parse(JSON.stringify(x).replace(/-[bcdfghjklmnpqrstvwxz2456789]{5}\b/g, "-*"));
    const byId = (runs: RunMeasure[]) => new Map(runs.map((r) => [r.id, r]));
    const twinRuns = byId(twin.result.runs);
    expect(dump.result.runs.map((r) => r.id)).toEqual(twin.result.runs.map((r) => r.id));
    for (const r of dump.result.runs) {
      const t = twinRuns.get(r.id)!;
      expect(masked([r.id, r.services, r.workloads])).toEqual(masked([r.id, t.services, t.workloads]));
    }
    const what = (a: Audited) =>
      masked(a.result.findings.map((f) => [f.rule, f.object, f.consequence.text, f.fix.effect]));
    expect(what(dump)).toEqual(what(twin));
  });
});

/** A duration as the audit prints it: 5m54s, 41s, 0s. */
const DURATION = /\b(?:(\d+)m)?(\d+)s\b/g;
function secondsIn(text: string): number[] {
  return [...text.matchAll(DURATION)].map((m) => Number(m[1] ?? 0) * 60 + Number(m[2]));
}

describe("a fix on a dump's workload", () => {
  it("is measured as on its manifests, as if rolled out before the dump: examples/audit/ dumped at t=0 gives the same findings", async () => {
    const files = readManifestEntry(".", "examples/audit/")!;
    const { scenario } = prepare({ entries: [{ entry: "examples/audit/", files }], cluster: {} });
    const file = writtenTo(dir, "examples-audit-dump.yaml", formatDump(dumpAt(scenario, 0)));
    const args = ["--faults", "power-off,drain", "--duration", "8m"];
    const manifests = await auditJson(["examples/audit/", ...args]);
    const dumped = await auditJson(["--cluster", file, ...args]);
    const what = (a: Audited) =>
      a.result.findings.map((f) => [f.rule, f.object, f.consequence.text, f.fix.text, f.fix.effect]);
    // FL001's replicas reach the ReplicaSet that runs the pod, FL006's probe its pods: no second
    // ReplicaSet, no rollout measured in place of the fix.
    expect(what(dumped).map(([rule]) => rule)).toEqual(["FL001", "FL003", "FL004", "FL006"]);
    // The same words, each figure within one readiness period (search's 10s) of the manifests' own:
    // a young probe worker's first probe waits out a random part of its period (prober/worker.go run),
    // drawn in another order in the dump's run than in the manifests', so the phase of the stalled
    // pod's readiness checks, and with it when it is marked not ready, may differ by up to a period.
    const words = (x: unknown) => JSON.stringify(x).replace(DURATION, "D");
    expect(words(what(dumped))).toEqual(words(what(manifests)));
    const a = secondsIn(JSON.stringify(what(dumped)));
    const b = secondsIn(JSON.stringify(what(manifests)));
    expect(a.length).toBe(b.length);
    for (const [i, x] of a.entries())
      expect(Math.abs(x - b[i]!), `figure ${i}: ${x}s vs ${b[i]}s`).toBeLessThanOrEqual(10);
    expect(dumped.result.findings.every((f) => f.location.file === file)).toBe(true);
  }, 300_000);
});

describe("manifests named with --cluster", () => {
  const quotes = `apiVersion: apps/v1
kind: Deployment
metadata: {name: quotes, namespace: shop}
spec:
  replicas: 1
  selector: {matchLabels: {app: quotes}}
  template:
    metadata: {labels: {app: quotes}}
    spec:
      containers:
        - name: quotes
          image: quotes:1
          resources: {requests: {cpu: 50m, memory: 64Mi}}
          readinessProbe: {httpGet: {path: /, port: 8080}}
---
apiVersion: v1
kind: Service
metadata: {name: quotes, namespace: shop}
spec:
  selector: {app: quotes}
  ports: [{port: 80, targetPort: 8080}]
`;

  it("are added to the dump's objects: a new single-replica service is found, in its own file", async () => {
    const file = writtenTo(dir, "quotes.yaml", quotes);
    const r = await auditJson(["--cluster", DUMP, file, "--faults", "power-off", "--duration", "8m"]);
    expect(r.result.audit.inputs).toEqual([DUMP, file]);
    const [f, ...rest] = findingsOf(r.result, "FL001");
    expect(rest).toEqual([]);
    expect(f).toMatchObject({ object: "Deployment/shop/quotes", location: { file, line: 5, col: 13 } });
    // The replica's node loses power: no endpoint until the replacement is Ready (~5m50s later).
    expect(f!.consequence.figures.outage).toBeGreaterThan(300);
    expect(f!.fix.figures!.outage).toBe(0);
    expect(measured(r.result, f!)).toBeDefined();
    // The dump's own objects are still there, with their findings.
    expect(findingsOf(r.result, "FL003").map((x) => x.object)).toEqual(STATEFUL);
  }, 120_000);

  it("may not hold an object the dump already holds: one line with both places, exit 2", async () => {
    const file = writtenTo(
      dir,
      "cart.yaml",
      "apiVersion: v1\nkind: Service\nmetadata: {name: cart, namespace: shop}\nspec:\n  selector: {app: cart}\n  ports: [{port: 80}]\n",
    );
    const r = await cli(["audit", "--cluster", DUMP, file]);
    expect(r.code).toBe(2);
    expect(r.out).toBe("");
    expect(r.err).toMatch(
      new RegExp(
        `^${file}:3:18: metadata\\.name: duplicate object: Service "shop/cart" is already defined at ${DUMP}:\\d+:3\\n$`,
      ),
    );
  }, 60_000);
});

describe("--cluster on the command line", () => {
  it("refuses --nodes and --zones, a dump that is not there, and stdin twice (exit 2, one line)", async () => {
    const cases: [string[], RegExp][] = [
      [
        ["--cluster", DUMP, "--nodes", "3"],
        /--cluster brings the dump's nodes: leave out --nodes and --zones/,
      ],
      [["--cluster", DUMP, "--zones", "a,b"], /--cluster brings the dump's nodes/],
      [["--cluster", "no-such-dump.yaml"], /^no-such-dump\.yaml: --cluster: no such file or folder\n$/],
      [["--cluster", "-", "-"], /- \(standard input\) given twice/],
    ];
    for (const [args, message] of cases) {
      const r = await cli(["audit", ...args]);
      expect([args, r.code]).toEqual([args, 2]);
      expect(r.err).toMatch(message);
    }
  });

  it("--jobs 1 and --jobs 2 print the same JSON, and two shards merge into it", async () => {
    const one = await cli(["audit", ...SMALL, "--json", "--jobs", "1"]);
    const two = await cli(["audit", ...SMALL, "--json", "--jobs", "2"]);
    expect(one.err).toBe("");
    expect(two.out).toBe(one.out);
    const files: string[] = [];
    for (const i of [1, 0]) {
      const r = await cli(["audit", ...SMALL, "--shard", `${i}/2`, "--jobs", "1"]);
      expect(r.code).toBe(0);
      files.push(join(dir, `shard-${i}.json`));
      writeFileSync(files.at(-1)!, r.out);
    }
    const merged = await cli(["audit", "merge", ...files, "--json", "--jobs", "2"]);
    expect(merged.out).toBe(one.out);
    expect(merged.code).toBe(one.code);
  }, 300_000);

  it("with --scenario: the scenario's settings, the dump's nodes and objects (its own manifests unread)", async () => {
    const r = await auditJson([
      "--scenario",
      TWIN,
      "--cluster",
      DUMP,
      "--faults",
      "zone",
      "--duration",
      "8m",
    ]);
    expect(r.result.audit.inputs).toEqual([DUMP]);
    expect(r.result.audit.nodes).toEqual(dump.result.audit.nodes);
    expect(r.result.audit.notes).toContain(
      `${TWIN}: its timeline is left out: the audit runs each fault of the sweep instead`,
    );
    expect(findingsOf(r.result, "FL003").map((f) => [f.object, f.location.file])).toEqual(
      STATEFUL.map((s) => [s, DUMP]),
    );
  }, 120_000);

  it("reads the dump from standard input (kubectl get … -o yaml | faultline audit --cluster -)", async () => {
    const r = await shell(
      `cat ${DUMP} | ${FAULTLINE} audit --cluster - --faults power-off --duration 8m --json --jobs 1`,
    );
    expect(r.err).toBe("");
    const result = JSON.parse(r.out);
    expect(result.audit.inputs).toEqual(["<stdin>"]);
    expect(result.findings[0]).toMatchObject({ rule: "FL003", location: { file: "<stdin>" } });
  }, 120_000);

  it("--emit-job carries the dump in the ConfigMap and --cluster in the shards' arguments", async () => {
    const r = await cli(["audit", "--cluster", DUMP, "--faults", "drain", "--emit-job", "3"]);
    expect(r.code).toBe(0);
    const [cm, job] = parseAllDocuments(r.out).map((d) => d.toJS());
    expect(cm.data["test_fixtures_cluster_shop-dump.yaml"]).toBe(readFileSync(DUMP, "utf8"));
    expect(job.spec.template.spec.containers[0].args).toEqual([
      `--cluster=${DUMP}`,
      "--faults=drain",
      "--shard=$(JOB_COMPLETION_INDEX)/3",
    ]);
    // With --scenario: its file, not the manifests the dump replaces.
    const both = await cli(["audit", "--scenario", TWIN, "--cluster", DUMP, "--emit-job", "2"]);
    expect(Object.keys(parseAllDocuments(both.out)[0]!.toJS().data).sort()).toEqual([
      "test_fixtures_cluster_shop-dump.yaml",
      "test_fixtures_cluster_shop.yaml",
    ]);
  }, 60_000);

  it("a drain of any dump node keeps every Service up: the only findings are the two pods kube-scheduler could not place before any fault (FL013, errors: --fail-on error exits 1)", async () => {
    const r = await auditJson(["--cluster", DUMP, "--faults", "drain", "--duration", "8m"]);
    expect(r.result.findings.map((f) => `${f.rule} ${f.severity} ${f.object}`)).toEqual([
      "FL013 error Deployment/shop/ml-trainer",
      "FL013 error Pod/shop/gpu-smoke-test",
    ]);
    expect(r.code).toBe(1);
  }, 120_000);
});
