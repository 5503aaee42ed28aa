// Issue 2, "Done when": a node cut off (network partition, kubelet stop) keeps running pods the
// control plane has replaced; a drain evicts through the Eviction API and honours
// PodDisruptionBudgets (pkg/registry/core/pod/storage/eviction.go; kubectl's pkg/drain).

import { describe, expect, it } from "vitest";
import { runsTwiceViolations } from "../helpers/invariants.ts";
import {
  eventsOf,
  example,
  first,
  initialState,
  nameOf,
  only,
  onNode,
  onPod,
  podOf,
  run,
  variant,
} from "../helpers/sim.ts";

describe.each([
  { file: "node-network-partition.yaml", cut: "network-partition", heal: "network-heal" },
  { file: "kubelet-stop.yaml", cut: "kubelet-stop", heal: "kubelet-start" },
])("$file: worker-2 is cut off, then comes back", ({ file, cut, heal }) => {
  const s = example(file);
  const r = run(s);
  const onWorker2 = initialState(s)
    .pods.filter((p) => p.node === "worker-2")
    .map((p) => p.pod);
  const oldWeb = onWorker2.find((p) => p.startsWith("default/web-"))!;
  const cutAt = () => only(r, "FaultInjected", (e) => e.do === cut).t;
  const healAt = () => only(r, "FaultInjected", (e) => e.do === heal).t;

  it("the web pod on worker-2 runs twice: evicted and replaced while its containers still run", () => {
    expect(oldWeb).toBeDefined();
    const evicted = only(r, "PodEvicted", onPod(oldWeb));
    const replacement = only(r, "PodCreated", (e) => podOf("default", "web")(e) && e.t >= evicted.t);
    const twice = eventsOf(r, "PodRunsTwice", onPod(oldWeb));
    expect(twice.length).toBeGreaterThanOrEqual(1);
    for (const e of twice) {
      expect(e.t).toBeGreaterThan(cutAt());
      expect(e.t).toBeLessThan(healAt());
      expect(e.t).toBeGreaterThanOrEqual(replacement.t);
      expect(e.node).toBe("worker-2");
      expect(e.copies).toBeGreaterThanOrEqual(2);
    }
  });

  it("after the heal the kubelet deletes the evicted pods and the node is Ready again", () => {
    const evicted = eventsOf(r, "PodEvicted", (e) => e.node === "worker-2").map((e) => nameOf(e.object));
    expect(evicted.sort()).toEqual(onWorker2.filter((p) => !p.startsWith("default/node-exporter-")).sort());
    for (const pod of evicted) {
      const deleted = eventsOf(r, "PodDeleted", onPod(pod))[0];
      expect(deleted, pod).toBeDefined();
      expect(deleted!.lane).toBe("kubelet");
      expect(deleted!.force).toBe(false);
      expect(deleted!.t).toBeGreaterThanOrEqual(healAt());
    }
    // Nothing is deleted while the node is cut off: the pods stay Terminating.
    expect(eventsOf(r, "PodDeleted", (e) => e.t < healAt())).toEqual([]);
    const ready = only(r, "NodeReady", onNode("worker-2"));
    expect(ready.t).toBeGreaterThanOrEqual(healAt());
    expect(r.summary.nodes.find((n) => n.name === "worker-2")?.status).toBe("Ready");
    expect(r.summary.pods.filter((p) => p.status === "Terminating")).toEqual([]);
  });
});

describe("a partition shorter than the toleration", () => {
  it("heals before the 300s: the evictions are cancelled, pods and endpoints ready again", () => {
    const r = run(
      variant("node-network-partition.yaml", (d) => {
        d.timeline = [
          { at: "10s", do: "network-partition", node: "worker-2" },
          { at: "3m", do: "network-heal", node: "worker-2" },
        ];
      }),
    );
    const heal = only(r, "FaultInjected", (e) => e.do === "network-heal");
    only(
      r,
      "NodeTainted",
      (e) => e.node === "worker-2" && e.taint === "node.kubernetes.io/unreachable:NoExecute",
    );
    const removed = only(
      r,
      "NodeTaintRemoved",
      (e) => e.node === "worker-2" && e.taint.endsWith(":NoExecute"),
    );
    expect(removed.t).toBeGreaterThanOrEqual(heal.t);
    expect(eventsOf(r, "PodEvicted")).toEqual([]);
    expect(eventsOf(r, "PodCreated")).toEqual([]);
    const cancelled = eventsOf(r, "EvictionCancelled").map((e) => nameOf(e.object));
    expect(cancelled.length).toBeGreaterThanOrEqual(2);
    for (const e of eventsOf(r, "EvictionCancelled")) expect(e.t).toBe(removed.t);
    for (const ep of eventsOf(r, "EndpointNotReady")) {
      const back = eventsOf(r, "EndpointReady", (e) => e.object === ep.object && e.t > ep.t);
      expect(back.length, ep.object).toBe(1);
      expect(back[0]!.t).toBeGreaterThanOrEqual(heal.t);
    }
    expect(r.summary.pods.every((p) => p.status === "Running" && p.ready)).toBe(true);
  });
});

describe("node-drain.yaml", () => {
  const s = example("node-drain.yaml");
  const r = run(s);
  const onWorker2 = initialState(s)
    .pods.filter((p) => p.node === "worker-2")
    .map((p) => p.pod);

  it("evicts the pods through the Eviction API (lane operator), not the DaemonSet pod", () => {
    const drain = only(r, "FaultInjected", (e) => e.do === "drain");
    const evicted = eventsOf(r, "PodEvicted");
    expect(evicted.map((e) => nameOf(e.object)).sort()).toEqual(
      onWorker2.filter((p) => !p.startsWith("default/node-exporter-")).sort(),
    );
    for (const e of evicted) {
      expect(e.lane).toBe("operator");
      expect(e.t).toBe(drain.t);
    }
    expect(eventsOf(r, "PodEvicted", podOf("default", "node-exporter"))).toEqual([]);
  });

  it("each evicted pod's endpoint goes not ready before its containers stop", () => {
    for (const e of eventsOf(r, "PodEvicted")) {
      const pod = nameOf(e.object);
      const notReady = r.events.findIndex((x) => x.type === "EndpointNotReady" && x.object === e.object);
      const terminated = r.events.findIndex((x) => x.type === "PodTerminated" && x.object === e.object);
      expect(notReady, pod).toBeGreaterThanOrEqual(0);
      expect(terminated, pod).toBeGreaterThanOrEqual(0);
      expect(notReady, pod).toBeLessThan(terminated);
      expect(r.events[notReady]!.t).toBeLessThanOrEqual(r.events[terminated]!.t);
    }
    // shutdownSeconds: 3 for web: its containers stop 3s after the eviction, its endpoint at once.
    const web = only(r, "PodEvicted", podOf("default", "web"));
    const webNotReady = only(r, "EndpointNotReady", onPod(nameOf(web.object)));
    const webTerminated = only(r, "PodTerminated", onPod(nameOf(web.object)));
    expect(webNotReady.t).toBe(web.t);
    expect(webTerminated.t - web.t).toBeCloseTo(3, 6);
  });

  it("with a PodDisruptionBudget minAvailable 3 for 3 web replicas the eviction is blocked: one line, retried every 5s", () => {
    const blocked = run(
      variant("node-drain.yaml", (d) => {
        d.manifests = [
          "manifests/",
          {
            apiVersion: "policy/v1",
            kind: "PodDisruptionBudget",
            metadata: { name: "web" },
            spec: { minAvailable: 3, selector: { matchLabels: { app: "web" } } },
          },
        ];
      }),
    );
    const web = onWorker2.find((p) => p.startsWith("default/web-"))!;
    expect(eventsOf(blocked, "PodEvicted", onPod(web))).toEqual([]);
    const drain = only(blocked, "FaultInjected", (e) => e.do === "drain");
    const refused = only(blocked, "EvictionBlocked", onPod(web));
    expect(refused).toMatchObject({ t: drain.t, pdb: "default/web", lane: "operator", retryAfter: 5 });
    // kubectl keeps retrying every 5s to the end of the run (5m), each refused: the summary counts them.
    const refusals = Math.floor((blocked.summary.duration - drain.t) / 5) + 1;
    expect(blocked.summary.drains).toMatchObject([
      {
        node: "worker-2",
        status: "blocked",
        blocked: [{ pod: web, pdb: "default/web", since: drain.t, refusals }],
      },
    ]);
    // db-0 has no budget: it is evicted at once; the web replica keeps serving.
    only(blocked, "PodEvicted", onPod("default/db-0"));
    expect(blocked.summary.pods.find((p) => p.pod === web)).toMatchObject({ status: "Running", ready: true });
  });

  it("a pod that is not Ready may be evicted while the budget is met (unhealthyPodEvictionPolicy IfHealthyBudget)", () => {
    // minAvailable 2 of 3 (examples/manifests-drain): with worker-2's web replica failing readiness the
    // budget has no disruption left, yet that unhealthy replica is the one the drain may take.
    const web = onWorker2.find((p) => p.startsWith("default/web-"))!;
    const r = run(
      variant("node-drain.yaml", (d) => {
        d.timeline = [
          { at: "1s", do: "dependency-down", pod: web },
          { at: "1m", do: "drain", node: "worker-2" },
        ];
      }),
    );
    const notReady = first(r, "PodNotReady", onPod(web));
    const drain = only(r, "FaultInjected", (e) => e.do === "drain");
    expect(notReady.t).toBeLessThan(drain.t);
    expect(eventsOf(r, "EvictionBlocked", onPod(web))).toEqual([]);
    expect(only(r, "PodEvicted", onPod(web)).t).toBe(drain.t);
  });

  it("a Ready pod is refused while the budget is used up by another not-Ready replica", () => {
    const web = onWorker2.find((p) => p.startsWith("default/web-"))!;
    const other = initialState(s).pods.find(
      (p) => p.pod.startsWith("default/web-") && p.node !== "worker-2",
    )!.pod;
    const r = run(
      variant("node-drain.yaml", (d) => {
        d.timeline = [
          { at: "1s", do: "dependency-down", pod: other },
          { at: "1m", do: "drain", node: "worker-2" },
        ];
      }),
    );
    expect(eventsOf(r, "PodEvicted", onPod(web))).toEqual([]);
    expect(eventsOf(r, "EvictionBlocked", onPod(web)).length).toBeGreaterThan(0);
  });
});

describe("PodRunsTwice names only replaced pods", () => {
  it.each(["node-network-partition.yaml", "kubelet-stop.yaml"])("%s", (file) => {
    expect(runsTwiceViolations(run(example(file)))).toEqual([]);
  });

  // Two nodes cut off; both evicted 10s apart (node-eviction-rate). When the first one's replacement
  // starts, the second node's web pod is still a live, not-yet-evicted member of the Deployment: it
  // has not been replaced, so it does not "run twice" yet.
  it("a pod not yet evicted on another cut-off node is not reported as running twice", () => {
    const r = run(
      variant("cluster-wide-outage.yaml", (d) => {
        d.duration = "15m";
        d.timeline.push({ at: "3m", do: "network-heal", node: "worker-1" });
      }),
    );
    const evictions = eventsOf(r, "PodEvicted");
    expect(evictions).toHaveLength(2);
    expect(eventsOf(r, "PodRunsTwice").length).toBeGreaterThanOrEqual(1);
    expect(runsTwiceViolations(r)).toEqual([]);
  });
});
