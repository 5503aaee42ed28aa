// Four more real manifest sets (test/fixtures/real/<set>/, each with its SOURCE.md), chosen for what
// kube-scheduler refuses in them (issue 23): MinIO's distributed StatefulSet (hostPort 9000 on four
// replicas: the NodePorts filter, node_ports.go, "node(s) didn't have free ports for the requested
// pod ports"), NVIDIA's GPU notebook (nvidia.com/gpu in its limits, which set the request: the
// NodeResourcesFit filter, fit.go, "Insufficient nvidia.com/gpu"), metrics-server's high-availability
// install (required pod anti-affinity per hostname) and the MySQL tutorial's StatefulSet. Each pod
// runs, or is Pending with FailedScheduling's own message (schedule_one.go FitError.Error).

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseScenario, readManifestEntry } from "../../src/load/index.ts";
import { formatJson } from "../../src/report/json.ts";
import { simulate } from "../../src/run/simulate.ts";
import type { InitialState } from "../../src/trace/result.ts";

const ROOT = resolve("test/fixtures/real");
const THREE = "{count: 3, zones: [a, b, c]}";

// kind's and minikube's default class is named "standard", the class MinIO's claims name.
const tmp = mkdtempSync(join(tmpdir(), "faultline-real-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const STANDARD = join(tmp, "standard-class.yaml");
writeFileSync(
  STANDARD,
  "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: standard}\nprovisioner: rancher.io/local-path\nvolumeBindingMode: WaitForFirstConsumer\n",
);

/** The state at t=0 of a set on `nodes`, with more manifest entries. */
function initial(set: string, nodes = THREE, more: string[] = []): InitialState {
  const entries = [join(ROOT, set), ...more].map((e) => JSON.stringify(e)).join(", ");
  const s = parseScenario(
    `name: ${set}\nduration: 1m\nstart: running\nnodes: ${nodes}\nmanifests: [${entries}]\n`,
    join(ROOT, "scenario.yaml"),
    (entry) => readManifestEntry(ROOT, entry),
  );
  return (
    JSON.parse(formatJson(simulate({ ...s, duration: 0, timeline: [] }), s)) as { initial: InitialState }
  ).initial;
}

const running = (i: InitialState) => i.pods.filter((p) => p.phase === "Running" && p.ready);
const pending = (i: InitialState) => i.pods.filter((p) => !(p.phase === "Running" && p.ready));

/** Every pod not running is Pending on no node with kube-scheduler's FitError for all `n` nodes. */
function runsOrCarriesTheReason(i: InitialState): void {
  for (const p of pending(i)) {
    expect(p, p.pod).toMatchObject({ node: null, phase: "Pending", ready: false, reason: "Unschedulable" });
    expect(p.message, p.pod).toMatch(new RegExp(`^0/${i.nodes.length} nodes are available: .+\\.`));
  }
}

describe("MinIO's distributed StatefulSet (hostPort 9000, four replicas)", () => {
  it("as published, on a cluster without its StorageClass: its first pod waits for its claim", () => {
    const i = initial("minio");
    runsOrCarriesTheReason(i);
    expect(pending(i).map((p) => [p.pod, p.message])).toEqual([
      [
        "default/minio-0",
        "0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
      ],
    ]);
  });

  it("with the class it names: three run on three nodes, the fourth finds no free port", () => {
    const i = initial("minio", THREE, [STANDARD]);
    runsOrCarriesTheReason(i);
    const nodes = running(i).map((p) => p.node);
    expect(running(i).map((p) => p.pod)).toEqual(["default/minio-0", "default/minio-1", "default/minio-2"]);
    expect(new Set(nodes).size).toBe(3);
    const [fourth, ...others] = pending(i);
    expect(others).toEqual([]);
    expect(fourth!.pod).toBe("default/minio-3");
    expect(fourth!.message).toMatch(
      /^0\/3 nodes are available: 3 node\(s\) didn't have free ports for the requested pod ports\./,
    );
  });
});

describe("NVIDIA's GPU notebook (nvidia.com/gpu: 1 in its limits)", () => {
  it("on CPU-only nodes: Pending with Insufficient nvidia.com/gpu", () => {
    const i = initial("nvidia-gpu");
    runsOrCarriesTheReason(i);
    expect(running(i)).toEqual([]);
    expect(pending(i)).toHaveLength(1);
    expect(pending(i)[0]!.message).toMatch(/^0\/3 nodes are available: 3 Insufficient nvidia\.com\/gpu\./);
  });

  it("runs on the one node that has a GPU", () => {
    const i = initial(
      "nvidia-gpu",
      '[{name: cpu-1, zone: a}, {name: gpu-1, zone: a, capacity: {cpu: "8", memory: 32Gi, pods: 110, nvidia.com/gpu: "1"}}]',
    );
    expect(running(i).map((p) => p.node)).toEqual(["gpu-1"]);
  });
});

describe("metrics-server's high-availability install (required anti-affinity per hostname)", () => {
  it("two replicas on two of three nodes", () => {
    const i = initial("metrics-server-ha");
    runsOrCarriesTheReason(i);
    expect(running(i)).toHaveLength(2);
    expect(new Set(running(i).map((p) => p.node)).size).toBe(2);
  });

  it("on one node, the second replica is refused by the anti-affinity rule", () => {
    const i = initial("metrics-server-ha", "[{name: only, zone: a}]");
    runsOrCarriesTheReason(i);
    expect(running(i)).toHaveLength(1);
    expect(pending(i)).toHaveLength(1);
    expect(pending(i)[0]!.message).toMatch(
      /^0\/1 nodes are available: 1 node\(s\) didn't match pod anti-affinity rules\./,
    );
  });
});

describe("the MySQL tutorial's replicated StatefulSet", () => {
  it("three members run, one per node", () => {
    const i = initial("mysql");
    runsOrCarriesTheReason(i);
    expect(running(i).map((p) => p.pod)).toEqual(["default/mysql-0", "default/mysql-1", "default/mysql-2"]);
  });

  it("on one small node, the members that do not fit wait with the scheduler's reason", () => {
    const i = initial("mysql", '[{name: small, zone: a, capacity: {cpu: "1", memory: 2Gi, pods: 110}}]');
    runsOrCarriesTheReason(i);
    expect(running(i).length).toBeGreaterThan(0);
    expect(pending(i).length).toBeGreaterThan(0);
    for (const p of pending(i)) expect(p.message).toMatch(/Insufficient (cpu|memory)/);
  });
});
