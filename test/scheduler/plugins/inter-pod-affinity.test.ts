// Issue 9 point 3: inter-pod affinity and anti-affinity count Terminating pods
// (interpodaffinity/filtering.go reads every pod of NodeInfo.Pods; kubernetes#111793, closed as
// working as intended), while topology spreading skips them (podtopologyspread/common.go
// countPodsMatchSelector, "Bypass terminating Pod", #87621).

import { describe, expect, it } from "vitest";
import type { Scenario } from "../../../src/scenario/types.ts";
import { clusterHead, eventsOf, first, initialState, run, scenario } from "../../helpers/sim.ts";

const ZONE = "topology.kubernetes.io/zone";

/** Six nodes, two per zone; a 3-replica Deployment `quorum` whose pod spec gets `extra` (YAML lines). */
function quorum(extra: string, timeline = ""): Scenario {
  return scenario(`
name: quorum
kubernetesVersion: "1.32"
duration: 15m
nodes:
  - {name: a-1, zone: a}
  - {name: a-2, zone: a}
  - {name: b-1, zone: b}
  - {name: b-2, zone: b}
  - {name: c-1, zone: c}
  - {name: c-2, zone: c}
manifests:
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: quorum}
    spec:
      replicas: 3
      selector: {matchLabels: {app: quorum}}
      template:
        metadata: {labels: {app: quorum}}
        spec:
${extra}
          containers: [{name: member, image: zookeeper}]
${timeline}`);
}

const antiAffinity = `          affinity:
            podAntiAffinity:
              requiredDuringSchedulingIgnoredDuringExecution:
                - {topologyKey: ${ZONE}, labelSelector: {matchLabels: {app: quorum}}}`;

const spread = `          topologySpreadConstraints:
            - {maxSkew: 1, topologyKey: ${ZONE}, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: quorum}}}`;

/** The node running the quorum member in zone a at t=0, and the scenario that powers it off at 10s. */
function loseZoneAMember(extra: string, more = ""): { lost: string; s: Scenario } {
  const start = initialState(quorum(extra));
  const lost = start.pods.find((p) => p.pod.startsWith("default/quorum-") && p.node?.startsWith("a-"))!.node!;
  return { lost, s: quorum(extra, `timeline:\n  - {at: 10s, do: power-off, node: ${lost}}\n${more}`) };
}

describe("a quorum member spread by zone, lost with its node", () => {
  it("required anti-affinity on the zone: the start puts one member per zone", () => {
    const start = initialState(quorum(antiAffinity));
    const zones = start.pods.filter((p) => p.pod.startsWith("default/quorum-")).map((p) => p.node![0]);
    expect(zones.sort()).toEqual(["a", "b", "c"]);
  });

  it("anti-affinity: the replacement stays Pending while the old member is Terminating, though a-2 is free", () => {
    const { lost, s } = loseZoneAMember(antiAffinity);
    const r = run(s);
    const evicted = first(r, "PodEvicted", (e) => e.node === lost);
    const replacement = first(
      r,
      "PodCreated",
      (e) => e.t >= evicted.t && e.object.startsWith("Pod/default/quorum-"),
    );
    expect(eventsOf(r, "PodScheduled", (e) => e.object === replacement.object)).toEqual([]);
    const failed = first(r, "FailedScheduling", (e) => e.object === replacement.object);
    // a-2 is turned down by the Terminating member in zone a, b-* and c-* by the running ones.
    expect(failed.filtered).toContainEqual({ reason: "PodAntiAffinity", nodes: 5 });
    expect(r.summary.pods.find((p) => `Pod/${p.pod}` === replacement.object)).toMatchObject({
      node: null,
      status: "Pending",
    });
    expect(r.summary.pods.find((p) => `Pod/${p.pod}` === evicted.object)?.status).toBe("Terminating");
  });

  it("anti-affinity: once the old pod object is gone (force-deleted), the replacement goes to a-2", () => {
    const { lost } = loseZoneAMember(antiAffinity);
    const before = initialState(quorum(antiAffinity)).pods.find((p) => p.node === lost)!.pod;
    const r = run(
      quorum(
        antiAffinity,
        `timeline:\n  - {at: 10s, do: power-off, node: ${lost}}\n  - {at: 8m, do: force-delete-pod, pod: ${before}}\n`,
      ),
    );
    const deleted = first(r, "PodDeleted", (e) => e.object === `Pod/${before}`);
    const scheduled = eventsOf(r, "PodScheduled", (e) => e.object.startsWith("Pod/default/quorum-"));
    expect(scheduled).toHaveLength(1);
    expect(scheduled[0]!.node).toBe(lost === "a-1" ? "a-2" : "a-1");
    expect(scheduled[0]!.t).toBeGreaterThanOrEqual(deleted.t);
  });

  it("a DoNotSchedule zone spread skips the Terminating member: the replacement goes to the zone's other node at the eviction", () => {
    const { lost, s } = loseZoneAMember(spread);
    const r = run(s);
    const evicted = first(r, "PodEvicted", (e) => e.node === lost);
    const [scheduled] = eventsOf(r, "PodScheduled", (e) => e.t >= evicted.t);
    expect(scheduled!.node).toBe(lost === "a-1" ? "a-2" : "a-1");
    expect(scheduled!.t - evicted.t).toBeLessThan(1);
  });
});

describe("required pod affinity and the anti-affinity of pods already running", () => {
  const deploy = (name: string, replicas: number, labels: string, spec: string) => `
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: ${name}}
    spec:
      replicas: ${replicas}
      selector: {matchLabels: {app: ${name}}}
      template:
        metadata: {labels: {app: ${name}${labels}}}
        spec:
${spec}
          containers: [{name: ${name}, image: ${name}}]`;
  const cluster = (manifests: string) =>
    scenario(`
name: affinity
kubernetesVersion: "1.32"
duration: 2m
start: created
nodes:
  - {name: worker-1, zone: a}
  - {name: worker-2, zone: b}
  - {name: worker-3, zone: c}
  - {name: worker-4, zone: b}
manifests:${manifests}
`);

  it("pod affinity to db's zone, and db's anti-affinity against noisy neighbours on its node: the caches go to worker-4", () => {
    const r = run(
      cluster(
        deploy(
          "db",
          1,
          "",
          `          nodeSelector: {kubernetes.io/hostname: worker-2}
          affinity:
            podAntiAffinity:
              requiredDuringSchedulingIgnoredDuringExecution:
                - {topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {role: noisy}}}`,
        ) +
          deploy(
            "cache",
            2,
            ", role: noisy",
            `          affinity:
            podAffinity:
              requiredDuringSchedulingIgnoredDuringExecution:
                - {topologyKey: ${ZONE}, labelSelector: {matchLabels: {app: db}}}`,
          ),
      ),
    );
    const cache = eventsOf(r, "PodScheduled", (e) => e.object.startsWith("Pod/default/cache-"));
    expect(cache.map((e) => e.node)).toEqual(["worker-4", "worker-4"]);
  });

  it("the first of a series with affinity to itself may go anywhere; the others follow it into its zone", () => {
    const r = run(
      cluster(
        deploy(
          "series",
          3,
          "",
          `          affinity:
            podAffinity:
              requiredDuringSchedulingIgnoredDuringExecution:
                - {topologyKey: ${ZONE}, labelSelector: {matchLabels: {app: series}}}`,
        ),
      ),
    );
    const nodes = eventsOf(r, "PodScheduled").map((e) => e.node!);
    expect(nodes).toHaveLength(3);
    const zoneOf = (n: string) => ({ "worker-1": "a", "worker-2": "b", "worker-3": "c", "worker-4": "b" })[n];
    expect(new Set(nodes.map(zoneOf)).size).toBe(1);
  });

  it.each([
    ["namespaces: [other]", "namespaces: [other]"],
    [
      "a namespaceSelector on kubernetes.io/metadata.name",
      "namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: other}}",
    ],
  ])(
    "anti-affinity selects pods in the namespaces the term names (%s), not the pod's own",
    (_, namespaces) => {
      for (const seed of [1, 2, 3, 4, 5]) {
        const r = run(
          scenario(`
${clusterHead("namespaces", ["a", "b"])}manifests:
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: db, namespace: other}
    spec:
      replicas: 1
      selector: {matchLabels: {app: db}}
      template:
        metadata: {labels: {app: db}}
        spec:
          nodeSelector: {kubernetes.io/hostname: worker-1}
          containers: [{name: db, image: db}]
  # worker-2 is the fuller node: without the anti-affinity, the job would go to worker-1.
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: filler}
    spec:
      replicas: 2
      selector: {matchLabels: {app: filler}}
      template:
        metadata: {labels: {app: filler}}
        spec:
          nodeSelector: {kubernetes.io/hostname: worker-2}
          containers: [{name: filler, image: filler}]
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: job}
    spec:
      replicas: 1
      selector: {matchLabels: {app: job}}
      template:
        metadata: {labels: {app: job}}
        spec:
          affinity:
            podAntiAffinity:
              requiredDuringSchedulingIgnoredDuringExecution:
                - {topologyKey: ${ZONE}, ${namespaces}, labelSelector: {matchLabels: {app: db}}}
          containers: [{name: job, image: job}]
`),
          seed,
        );
        const job = eventsOf(r, "PodScheduled", (e) => e.object.startsWith("Pod/default/job-"));
        expect(job.map((e) => e.node)).toEqual(["worker-2"]);
      }
    },
  );
});
