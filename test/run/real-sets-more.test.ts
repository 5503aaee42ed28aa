// More real manifest sets nobody here wrote (test/fixtures/real/<set>/, each with its SOURCE.md naming
// the repository, path, commit and licence), run as a new user would run them:
// - each loads, on three roomy nodes and on one small node they do not all fit on;
// - every pod runs (Running and Ready at t=0) or is Pending with kube-scheduler's own reason
//   (FailedScheduling's "0/N nodes are available: <reasons>.", schedule_one.go FitError.Error);
// - every workload has the pods its spec asks for (a DaemonSet one per node);
// - simulate (a node losing power) and audit both run to the end, with exit 0 and nothing on stderr.

import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { parseScenario, readManifestEntry } from "../../src/load/index.ts";
import { formatJson } from "../../src/report/json.ts";
import { simulate } from "../../src/run/simulate.ts";
import type { Scenario } from "../../src/scenario/types.ts";
import type { InitialState } from "../../src/trace/result.ts";
import { cli } from "../cli/helpers.ts";

const ROOT = "test/fixtures/real";
const NEW_SETS = ["bookinfo", "sock-shop", "guestbook", "emojivoto", "ingress-nginx", "kube-state-metrics"];

const CLUSTERS = {
  "three nodes": "{count: 3, zones: [a, b, c]}",
  "one small node": '[{name: small, zone: a, capacity: {cpu: "1", memory: 2Gi, pods: 110}}]',
};

function load(dir: string, nodes: string, tail = ""): Scenario {
  const yaml = `name: real\nduration: 1m\nstart: running\nnodes: ${nodes}\nmanifests: [${dir}/]\n${tail}`;
  return parseScenario(yaml, `${ROOT}/scenario.yaml`, (entry) => readManifestEntry(ROOT, entry));
}

function manifestFiles(d: string): string[] {
  return readdirSync(d)
    .sort()
    .flatMap((f) => {
      const p = join(d, f);
      return statSync(p).isDirectory() ? manifestFiles(p) : /\.ya?ml$/.test(p) ? [p] : [];
    });
}

/** The workloads of a set as written: `Kind/namespace/name` and the replicas its spec asks for. */
function workloads(dir: string): { id: string; kind: string; replicas: number }[] {
  return manifestFiles(join(ROOT, dir)).flatMap((f) =>
    parseAllDocuments(readFileSync(f, "utf8"))
      .map(
        (d) =>
          d.toJS() as {
            kind?: string;
            metadata?: { name: string; namespace?: string };
            spec?: { replicas?: number };
          } | null,
      )
      .filter(
        (v) => v !== null && ["Deployment", "StatefulSet", "DaemonSet", "ReplicaSet"].includes(v.kind ?? ""),
      )
      .map((v) => ({
        id: `${v!.kind}/${v!.metadata!.namespace ?? "default"}/${v!.metadata!.name}`,
        kind: v!.kind!,
        replicas: v!.spec?.replicas ?? 1,
      })),
  );
}

function initial(s: Scenario): InitialState {
  return (
    JSON.parse(formatJson(simulate({ ...s, duration: 0, timeline: [] }), s)) as { initial: InitialState }
  ).initial;
}

describe.each(NEW_SETS)("%s", (dir) => {
  it.each(Object.entries(CLUSTERS))(
    "on %s, every pod runs or carries kube-scheduler's own reason",
    (_, nodes) => {
      const init = initial(load(dir, nodes));
      const n = init.nodes.length;
      const ws = workloads(dir);
      expect(ws.length).toBeGreaterThan(0);
      for (const w of ws)
        expect(
          init.pods.filter((p) => p.owner === w.id),
          w.id,
        ).toHaveLength(w.kind === "DaemonSet" ? n : w.replicas);
      for (const p of init.pods) {
        if (p.phase === "Running" && p.ready) continue;
        expect(p, p.pod).toMatchObject({
          node: null,
          phase: "Pending",
          ready: false,
          reason: "Unschedulable",
        });
        expect(p.message, p.pod).toMatch(new RegExp(`^0/${n} nodes are available: .+\\.`));
      }
    },
  );

  it("three roomy nodes run every pod", () => {
    const init = initial(load(dir, CLUSTERS["three nodes"]));
    expect(init.pods.filter((p) => !(p.phase === "Running" && p.ready))).toEqual([]);
  });

  it("simulate (worker-1 loses power) and audit run to the end", async () => {
    const s = load(dir, CLUSTERS["three nodes"], "timeline: [{at: 10s, do: power-off, node: worker-1}]\n");
    const r = simulate({ ...s, duration: 600 });
    expect(r.summary.duration).toBe(600);
    expect(r.summary.nodes.find((n) => n.name === "worker-1")?.status).not.toBe("Ready");
    const a = await cli(["audit", resolve(ROOT, dir), "--faults", "power-off", "--jobs", "1"]);
    expect(a.err).toBe("");
    expect(a.out).toMatch(/^faultline audit · /);
    expect(a.out).toMatch(/\nFindings: /);
  }, 120_000);
});
