// A dump of a live cluster as the starting state: test/fixtures/cluster/shop-dump.yaml is
// what `kubectl get nodes,pods,… -A -o yaml` prints for the cluster test/fixtures/cluster/shop.yaml
// describes (scripts/cluster-dump-fixture.ts wrote it, managedFields and all). Run from the dump, a
// node's power-off plays as the hand-written scenario plays it: the same steps at the same instants,
// with the pods where the dump has them, nothing created at t=0.

import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { Store } from "../../src/cluster/store.ts";
import { LABEL_ZONE } from "../../src/kubernetes/labels.ts";
import type { Node, Pod } from "../../src/kubernetes/objects.ts";
import { loadScenarioFile } from "../../src/load/index.ts";
import { parseYamlFile } from "../../src/load/source.ts";
import { formatTimeline } from "../../src/report/text.ts";
import { createSimulation, type SimulationResult, simulate } from "../../src/run/simulate.ts";
import type { Scenario } from "../../src/scenario/types.ts";
import { dumpAt } from "../../src/serve/dump.ts";

const HAND = "test/fixtures/cluster/shop.yaml";
const DUMP = "test/fixtures/cluster/shop-dump.yaml";
const LOST = "ip-10-0-2-21.eu-west-1.compute.internal";

let hand: Scenario;
let fromDump: Scenario;
let dumped: Record<string, unknown>[];

beforeAll(() => {
  hand = loadScenarioFile(HAND);
  fromDump = loadScenarioFile(HAND, { cluster: DUMP });
  const [doc] = parseYamlFile(readFileSync(DUMP, "utf8"), DUMP, 64 * 1024 * 1024);
  dumped = (doc!.value as { items: Record<string, unknown>[] }).items;
}, 60_000);

type Obj = {
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    ownerReferences?: unknown[];
    managedFields?: unknown[];
  };
  // biome-ignore lint/suspicious/noExplicitAny: the dump's objects as parsed, read field by field
  spec?: any;
  // biome-ignore lint/suspicious/noExplicitAny: the dump's objects as parsed, read field by field
  status?: any;
};
const items = (kind: string) => (dumped as unknown as Obj[]).filter((o) => o.kind === kind);

describe("the fixture is a realistic dump", () => {
  it("has 12+ nodes in 3 zones with region labels, one cordoned, one tainted; 150+ pods; StatefulSets with zonal volumes, DaemonSets, bare and Pending pods, PDBs", () => {
    const nodes = items("Node");
    expect(nodes.length).toBeGreaterThanOrEqual(12);
    const labels = nodes.map((n) => n.metadata.labels ?? {});
    expect(new Set(labels.map((l) => l[LABEL_ZONE])).size).toBe(3);
    expect(labels.every((l) => l["topology.kubernetes.io/region"] === "eu-west-1")).toBe(true);
    expect(nodes.filter((n) => n.spec.unschedulable).length).toBe(1);
    expect(
      nodes.filter((n) => n.spec.taints?.some((t: { key: string }) => t.key === "dedicated")).length,
    ).toBe(1);
    const pods = items("Pod");
    expect(pods.length).toBeGreaterThanOrEqual(150);
    expect(items("StatefulSet").length).toBeGreaterThan(0);
    expect(items("DaemonSet").length).toBeGreaterThan(0);
    expect(items("PodDisruptionBudget").length).toBeGreaterThan(0);
    expect(items("PersistentVolume").every((pv) => pv.spec.nodeAffinity)).toBe(true);
    expect(pods.filter((p) => !p.metadata.ownerReferences).length).toBeGreaterThanOrEqual(2);
    expect(pods.filter((p) => p.status.phase === "Pending").length).toBeGreaterThanOrEqual(2);
    // kubectl's own form: what the API server adds is there.
    expect(pods.every((p) => p.metadata.managedFields?.length)).toBe(true);
  });
});

describe("starting from the dump", () => {
  it("gets its nodes, version and objects from the dump", () => {
    expect(fromDump.nodes.map((n) => n.name)).toEqual(hand.nodes.map((n) => n.name));
    expect(fromDump.kubernetesVersion).toBe("1.31");
    expect(fromDump.nodes.find((n) => n.unschedulable)?.name).toBe("ip-10-0-1-14.eu-west-1.compute.internal");
    expect(fromDump.cluster?.rebuilt).toEqual({ EndpointSlice: items("EndpointSlice").length });
  });

  it("keeps every pod's node, name, IP and restart counts, and creates none at t=0", () => {
    const sim = createSimulation(fromDump);
    const want = items("Pod").map((p) => ({
      name: `${p.metadata.namespace}/${p.metadata.name}`,
      node: p.spec.nodeName ?? null,
      ip: p.status.podIP ?? null,
      restarts: (p.status.containerStatuses ?? []).map((c: { restartCount: number }) => c.restartCount),
    }));
    const got = sim.store.list("Pod").map((p: Pod) => ({
      name: `${p.metadata.namespace}/${p.metadata.name}`,
      node: p.spec.nodeName ?? null,
      ip: p.status.podIP ?? null,
      restarts: p.spec.nodeName ? p.status.containerStatuses.map((c) => c.restartCount) : [],
    }));
    expect(got).toEqual(want);
    expect(want.some((p) => p.restarts.some((r: number) => r > 0))).toBe(true);
  });

  it("leaves a Pending pod Pending with the reason the dump records", () => {
    const result = simulate({ ...fromDump, timeline: [] });
    const pending = items("Pod").filter((x) => x.status.phase === "Pending");
    // Not vacuous: the fixture has Pending pods to look at.
    expect(pending.length).toBeGreaterThan(0);
    for (const p of pending) {
      const recorded = p.status.conditions.find((c: { type: string }) => c.type === "PodScheduled");
      const initial = result.initial.pods.find((i) => i.pod === `${p.metadata.namespace}/${p.metadata.name}`);
      expect(initial).toMatchObject({
        phase: "Pending",
        node: null,
        reason: recorded.reason,
        message: recorded.message,
      });
    }
  });
});

describe("the dump's volumes in use", () => {
  it("registers each Node with the claims its running pods mount, as its kubelet has them at t=0", () => {
    const mounted = new Map<string, string[]>();
    for (const p of items("Pod")) {
      if (p.status.phase !== "Running" || !p.spec.nodeName) continue;
      const claims = (p.spec.volumes ?? [])
        .filter((v: { persistentVolumeClaim?: unknown }) => v.persistentVolumeClaim)
        .map(
          (v: { persistentVolumeClaim: { claimName: string } }) =>
            `${p.metadata.namespace}/${v.persistentVolumeClaim.claimName}`,
        );
      if (claims.length > 0)
        mounted.set(p.spec.nodeName, [...(mounted.get(p.spec.nodeName) ?? []), ...claims].sort());
    }
    // Not vacuous: the StatefulSets' pods mount their claims on several nodes.
    expect(mounted.size).toBeGreaterThan(1);
    expect(
      new Map(fromDump.nodes.filter((n) => n.volumesInUse).map((n) => [n.name, n.volumesInUse])),
    ).toEqual(mounted);
    // Registered with them (the Node the kubelet creates at the warm-up's start), and still so at t=0.
    const registered = new Map<string, unknown>();
    const { create } = Store.prototype;
    const spy = vi.spyOn(Store.prototype, "create").mockImplementation(function (this: Store, o) {
      if (o.kind === "Node" && !registered.has(o.metadata.name))
        registered.set(o.metadata.name, [...((o as Node).status.volumesInUse ?? [])]);
      return create.call(this, o);
    });
    let sim: ReturnType<typeof createSimulation>;
    try {
      sim = createSimulation(fromDump);
    } finally {
      spy.mockRestore();
    }
    for (const n of fromDump.nodes) {
      const want = mounted.get(n.name) ?? [];
      expect([n.name, registered.get(n.name)]).toEqual([n.name, want]);
      expect([n.name, sim.store.get("Node", n.name)!.status.volumesInUse]).toEqual([n.name, want]);
    }
  });
});

/** The replacements' generated names (a random suffix) in order of creation: the dump's run draws fewer names before t=0. */
function normalized(result: SimulationResult, scenario: Scenario): string {
  let text = formatTimeline(result, scenario);
  const names = [...text.matchAll(/creates pod (\S+)/g)].map((m) => m[1]!);
  names.forEach((n, i) => {
    text = text.replaceAll(n, `<replacement ${i}>`);
  });
  // The timeline from the first step on (the starting state says where the objects came from).
  return text.slice(text.indexOf("\nt+"));
}

describe("a node's power-off from the dump", () => {
  it("plays as the hand-written scenario does, step for step", () => {
    // The dump's Nodes are EKS's (providerID aws://, eks.amazonaws.com/nodegroup): its run takes the
    // eks profile (platforms/), so the hand-written scenario runs under the same one.
    expect(fromDump.profile).toBe("eks");
    expect(fromDump.cluster?.platform).toMatchObject({ name: "eks", nodeGroups: ["general", "batch"] });
    const a = simulate({ ...hand, profile: "eks" });
    const b = simulate(fromDump);
    expect(normalized(b, fromDump)).toBe(normalized(a, hand));
    expect(b.events.filter((e) => e.type === "PodCreated" && e.t < 10)).toEqual([]);
    expect(b.events.some((e) => e.type === "PodCreated")).toBe(true);
  });

  it("brings a StatefulSet's pod back only in its volume's zone", () => {
    const s: Scenario = {
      ...fromDump,
      timeline: [
        ...fromDump.timeline,
        { at: 480, do: "taint-out-of-service", node: LOST, pos: fromDump.timeline[0]!.pos },
      ],
    };
    const sim = createSimulation(s);
    sim.runUntil(s.duration);
    const kafka = sim.store.get("Pod", "shop/kafka-1")!;
    const claim = sim.store.get("PersistentVolumeClaim", "shop/data-kafka-1")!;
    const pv = sim.store.get("PersistentVolume", claim.spec.volumeName!)!;
    const zone = pv.spec.nodeAffinity!.required.nodeSelectorTerms[0]!.matchExpressions![0]!.values![0];
    expect(zone).toBe("eu-west-1b");
    expect(kafka.spec.nodeName).toBeDefined();
    expect(kafka.spec.nodeName).not.toBe(LOST);
    expect(sim.store.get("Node", kafka.spec.nodeName!)!.metadata.labels![LABEL_ZONE]).toBe(zone);
  });
});

/**
 * What faultline does not model and so cannot give back: identities and times the API server and
 * kubelets write (uid, resourceVersion, managedFields, timestamps, container and image IDs), what the
 * cloud and the kubelet report of a machine (addresses, system info, images, capacity beyond the
 * allocatable, provider ID, annotations), a pod's service-account token volume and the last state
 * of a restarted container, revision annotations and generations, a volume's CSI handle.
 */
const NOT_MODELLED = [
  /^metadata\.(uid|resourceVersion|managedFields|creationTimestamp|generation|annotations)\b/,
  /\.uid$/,
  /(lastHeartbeatTime|lastTransitionTime|startedAt|startTime|finishedAt)$/,
  /^status\.(addresses|nodeInfo|images|capacity|hostIP|hostIPs)\b/,
  /^spec\.providerID$/,
  /^metadata\.labels\.(eks\.amazonaws\.com\/capacityType|eks\.amazonaws\.com\/nodegroup-image|k8s\.io\/cloud-provider-aws|topology\.ebs\.csi\.aws\.com\/zone|topology\.k8s\.aws\/zone-id)$/,
  /^status\.allocatable\.(ephemeral-storage|hugepages-.*)$/,
  /^spec\.serviceAccount$/,
  /^spec\.volumes\.\d+\.(name|projected)/,
  /^spec\.containers\.\d+\.volumeMounts\.\d+/,
  /containerID$|imageID$|lastState/,
  /^spec\.csi\.volumeHandle$/,
];

/**
 * What kube-apiserver and the controllers write that the fixture (trimmed) lacks: a Service's
 * allocated addresses (serve/addresses.ts), a Deployment's conditions (serve/deployment-conditions.ts).
 */
const ALLOCATED = /^(spec\.(clusterIPs?|ipFamilies|ipFamilyPolicy)|status\.conditions)\b/;

function flatten(v: unknown, path: string, out: Map<string, unknown>): void {
  // An empty mapping or list is an absent field (the API's omitempty).
  if (v !== null && typeof v === "object") {
    for (const [k, x] of Object.entries(v)) flatten(x, path ? `${path}.${k}` : k, out);
    return;
  }
  if (!NOT_MODELLED.some((r) => r.test(path))) out.set(path, v);
}

describe("--dump-at 0s of a run from the dump", () => {
  it("gives the dump's objects back, up to what faultline does not model", () => {
    const all = dumpAt(fromDump, 0) as unknown as Obj[];
    const id = (o: Obj) => `${o.kind}/${o.metadata.namespace ?? ""}/${o.metadata.name}`;
    // The fixture holds no Lease; the dump at 0s adds each node's (kube-node-lease), made again.
    const again = all.filter((o) => o.kind !== "Lease");
    expect(all.filter((o) => o.kind === "Lease").map(id)).toEqual(
      fromDump.nodes.map((n) => `Lease/kube-node-lease/${n.name}`).sort(),
    );
    expect(again.map(id)).toEqual((dumped as unknown as Obj[]).map(id));
    const byId = new Map(again.map((o) => [id(o), o]));
    // An EndpointSlice's endpoints are a set: compared in one order.
    const asSet = (o: Obj) =>
      o.kind !== "EndpointSlice"
        ? o
        : {
            ...o,
            endpoints: [...(o as unknown as { endpoints: { targetRef: { name: string } }[] }).endpoints].sort(
              (a, b) => a.targetRef.name.localeCompare(b.targetRef.name),
            ),
          };
    for (const o of dumped as unknown as Obj[]) {
      const want = new Map<string, unknown>();
      const got = new Map<string, unknown>();
      flatten(asSet(o), "", want);
      flatten(asSet(byId.get(id(o))!), "", got);
      for (const k of got.keys()) if (ALLOCATED.test(k) && !want.has(k)) got.delete(k);
      expect(Object.fromEntries(got), id(o)).toEqual(Object.fromEntries(want));
    }
  }, 60_000);
});
