// podInfo works out once per template what the pods of one template share (pod-template.ts) and
// reuses it: whatever the pods, it must equal computePodInfo, which reads the pod alone. Pods of
// one template, of templates sharing some values (the containers, by which the groups are found,
// and not the rest), pods whose own fields differ (tolerations, nodeSelector, volumes, labels,
// namespace) and bare pods, in any order.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { podFromTemplate } from "../../../src/controllers/pod-template.ts";
import { Engine } from "../../../src/engine/engine.ts";
import { admitPod } from "../../../src/kubernetes/admission.ts";
import type {
  Container,
  Pod,
  PodSpec,
  PodTemplateSpec,
  Toleration,
} from "../../../src/kubernetes/objects.ts";
import { computePodInfo, podInfo } from "../../../src/scheduler/framework/pod-info.ts";

const ctx = { engine: new Engine(1) };
const admission = { defaultNotReadyTolerationSeconds: 300, defaultUnreachableTolerationSeconds: 120 };

const container = (cpu: number, memory: number): Container => ({
  name: "app",
  resources: { requests: { cpu, memory } },
});
/** Two containers arrays, each shared by several templates which differ in everything else. */
const CONTAINERS = [[container(0.25, 2 ** 20)], [container(1, 2 ** 30), container(0.1, 0)]];
const UNSCHEDULABLE: Toleration = {
  key: "node.kubernetes.io/unschedulable",
  operator: "Exists",
  effect: "NoSchedule",
};

const spec = fc.record(
  {
    containers: fc.constantFrom(...CONTAINERS),
    initContainers: fc.constantFrom(undefined, [container(2, 1)]),
    tolerations: fc.constantFrom(
      undefined,
      [UNSCHEDULABLE],
      [{ key: "dedicated", operator: "Exists" as const }],
    ),
    nodeSelector: fc.constantFrom(undefined, { disk: "ssd" }, { "topology.kubernetes.io/zone": "b" }),
    affinity: fc.constantFrom(undefined, {
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          { topologyKey: "kubernetes.io/hostname", labelSelector: { matchLabels: { app: "web" } } },
        ],
      },
      nodeAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: [
          {
            weight: 5,
            preference: { matchExpressions: [{ key: "disk", operator: "In" as const, values: ["ssd"] }] },
          },
        ],
      },
    }),
    topologySpreadConstraints: fc.constantFrom(undefined, [
      {
        maxSkew: 1,
        topologyKey: "topology.kubernetes.io/zone",
        whenUnsatisfiable: "DoNotSchedule" as const,
        labelSelector: { matchLabels: { app: "web" } },
        matchLabelKeys: ["pod-name"],
      },
    ]),
    volumes: fc.constantFrom(undefined, [{ name: "data", persistentVolumeClaim: { claimName: "data" } }]),
  },
  { requiredKeys: ["containers"] },
) as fc.Arbitrary<PodSpec>;

const template: fc.Arbitrary<PodTemplateSpec> = fc.record({
  metadata: fc.constantFrom({ labels: { app: "web" } }, { labels: { app: "db" } }),
  spec,
});

/** What a pod of its own may have written over its template's values. */
type Own = "none" | "tolerations" | "equalTolerations" | "nodeSelector" | "volumes" | "labels" | "namespace";

interface Made {
  template: number;
  own: Own;
  bare: boolean;
}

const made: fc.Arbitrary<Made> = fc.record({
  template: fc.nat(3),
  own: fc.constantFrom<Own>(
    "none",
    "tolerations",
    "equalTolerations",
    "nodeSelector",
    "volumes",
    "labels",
    "namespace",
  ),
  bare: fc.boolean(),
});

let serial = 0;

function makePod(templates: PodTemplateSpec[], m: Made): Pod {
  const name = `p-${serial++}`;
  const t = templates[m.template % templates.length]!;
  const owner = { apiVersion: "apps/v1", kind: "ReplicaSet", name: `rs-${m.template}` };
  const namespace = m.own === "namespace" ? "other" : "default";
  const extra = m.own === "labels" ? { "pod-name": name } : undefined;
  const pod = m.bare
    ? ({
        kind: "Pod",
        metadata: { name, namespace, labels: { ...t.metadata?.labels, ...extra } },
        spec: structuredClone(t.spec),
        status: { phase: "Pending", conditions: [], containerStatuses: [] },
      } as Pod)
    : podFromTemplate(ctx, t, namespace, name, owner, extra);
  admitPod(pod, admission);
  const tolerations = pod.spec.tolerations ?? [];
  if (m.own === "tolerations") pod.spec.tolerations = [...tolerations, UNSCHEDULABLE];
  if (m.own === "equalTolerations") pod.spec.tolerations = tolerations.map((x) => ({ ...x }));
  if (m.own === "nodeSelector") pod.spec.nodeSelector = { disk: name };
  if (m.own === "volumes")
    pod.spec.volumes = [{ name: "data", persistentVolumeClaim: { claimName: `data-${name}` } }];
  return pod;
}

describe("podInfo shared by a template's pods", () => {
  it("equals computePodInfo for every pod, whatever the templates, own fields and order", () => {
    fc.assert(
      fc.property(
        fc.array(template, { minLength: 1, maxLength: 4 }),
        fc.array(made, { minLength: 1, maxLength: 30 }),
        (templates, ms) => {
          const pods = ms.map((m) => makePod(templates, m));
          for (const pod of pods) expect(podInfo(pod)).toStrictEqual(computePodInfo(pod));
        },
      ),
      { numRuns: 300 },
    );
  });

  it.each<[string, Own]>([
    ["a toleration more", "tolerations"],
    ["a nodeSelector of its own", "nodeSelector"],
    ["a claim of its own", "volumes"],
    ["a label of its own read by matchLabelKeys", "labels"],
    ["another namespace", "namespace"],
    ["equal tolerations in an array of its own", "equalTolerations"],
  ])("after a pod of the template, a pod with %s", (_what, own) => {
    const t: PodTemplateSpec = {
      metadata: { labels: { app: "web", "pod-name": "x" } },
      spec: {
        containers: [container(0.5, 1)],
        tolerations: [{ key: "dedicated", operator: "Exists" }],
        nodeSelector: { disk: "ssd" },
        affinity: {
          podAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [
              { topologyKey: "topology.kubernetes.io/zone", labelSelector: { matchLabels: { app: "db" } } },
            ],
          },
        },
        topologySpreadConstraints: [
          {
            maxSkew: 1,
            topologyKey: "topology.kubernetes.io/zone",
            whenUnsatisfiable: "ScheduleAnyway",
            labelSelector: { matchLabels: { app: "web" } },
            matchLabelKeys: ["pod-name"],
          },
        ],
        volumes: [{ name: "data", persistentVolumeClaim: { claimName: "data" } }],
      },
    };
    const first = makePod([t], { template: 0, own: "none", bare: false });
    const second = makePod([t], { template: 0, own, bare: false });
    expect(podInfo(first)).toStrictEqual(computePodInfo(first));
    expect(podInfo(second)).toStrictEqual(computePodInfo(second));
    // what the second pod has of its own makes its PodInfo its own
    expect(podInfo(second)).not.toBe(podInfo(first));
  });

  it("is one object for the pods of a template with one owner (admission gives them one tolerations list)", () => {
    const t: PodTemplateSpec = {
      metadata: { labels: { app: "web" } },
      spec: {
        containers: [container(0.5, 1)],
        tolerations: [{ key: "dedicated", operator: "Exists" }],
        volumes: [{ name: "data", persistentVolumeClaim: { claimName: "data" } }],
      },
    };
    const first = makePod([t], { template: 0, own: "none", bare: false });
    const second = makePod([t], { template: 0, own: "none", bare: false });
    expect(second.spec.tolerations).toBe(first.spec.tolerations);
    expect(podInfo(second)).toBe(podInfo(first));
    expect(podInfo(second)).toStrictEqual(computePodInfo(second));
    // a bare pod (its spec its own) gets its own
    const bare = makePod([t], { template: 0, own: "none", bare: true });
    expect(podInfo(bare)).not.toBe(podInfo(first));
  });

  // Tolerations that differ in one field, one tolerating node.kubernetes.io/unschedulable:NoSchedule
  // (the value PodInfo derives from them) and the other not (taints.ts, tolerates).
  const u = "node.kubernetes.io/unschedulable";
  it.each<[string, Toleration, Toleration]>([
    ["key", { key: u, operator: "Exists" }, { key: "dedicated", operator: "Exists" }],
    ["operator", { key: u, operator: "Exists", value: "x" }, { key: u, operator: "Equal", value: "x" }],
    ["value", { key: u, operator: "Equal", value: "" }, { key: u, operator: "Equal", value: "x" }],
    [
      "effect",
      { key: u, operator: "Exists", effect: "NoSchedule" },
      { key: u, operator: "Exists", effect: "NoExecute" },
    ],
  ])("after a pod of the template, a pod whose toleration differs in its %s", (_field, mine, other) => {
    const t: PodTemplateSpec = { spec: { containers: [container(0.5, 1)], tolerations: [mine] } };
    const first = makePod([t], { template: 0, own: "none", bare: false });
    const second = makePod([t], { template: 0, own: "none", bare: false });
    second.spec.tolerations = (second.spec.tolerations ?? []).map((x) => (x === mine ? { ...other } : x));
    expect(podInfo(first).toleratesUnschedulable).toBe(true);
    expect(podInfo(second)).toStrictEqual(computePodInfo(second));
    expect(podInfo(second).toleratesUnschedulable).toBe(false);
  });

  // Only frozen values (a template's, pod-template.ts) are shared: a bare pod's may be written in
  // place, so that a later pod holding the same objects has other inputs behind the same identities.
  it("takes nothing from a group for a pod whose containers are not frozen", () => {
    const spec: PodSpec = { containers: [container(0.5, 1)], nodeSelector: { disk: "ssd" } };
    const bare = (name: string): Pod => ({
      kind: "Pod",
      metadata: { name, namespace: "default" },
      spec: { ...spec },
      status: { phase: "Pending", conditions: [], containerStatuses: [] },
    });
    const first = bare("first");
    expect(podInfo(first)).toStrictEqual(computePodInfo(first));
    spec.nodeSelector!.disk = "hdd";
    spec.containers[0]!.resources!.requests!.cpu = 2;
    const second = bare("second");
    expect(podInfo(second)).toStrictEqual(computePodInfo(second));
    expect(podInfo(second).cpuMilli).toBe(2000);
  });

  it("gives every PodInfo the same keys in the same order (one shape for the scheduler's readers)", () => {
    const t: PodTemplateSpec = { spec: { containers: [container(0.5, 1)] } };
    const a = makePod([t], { template: 0, own: "none", bare: false });
    const b = makePod([t], { template: 0, own: "none", bare: false });
    const bare = makePod([t], { template: 0, own: "none", bare: true });
    const keys = Object.keys(computePodInfo(a));
    for (const p of [a, b, bare]) expect(Object.keys(podInfo(p))).toEqual(keys);
  });
});
