// KEP-4781 "Restarting kubelet does not change pod status" (kubernetes/kubernetes#133676, v1.35;
// gate ChangeContainerStatusOnKubeletRestart, deprecated, off by default): from 1.35 a restarted
// kubelet keeps its running containers' Ready; before, every readiness result starts again at
// Failure and the pod is NotReady until its readiness probe passes again.

import { describe, expect, it } from "vitest";
import { eventsOf, run } from "../helpers/sim.ts";
import { app } from "../probes/helpers.ts";

function restarted(version: string) {
  return run(
    app({
      version,
      probes: { readinessProbe: { httpGet: { path: "/ready", port: 8000 }, periodSeconds: 10 } },
      duration: "3m",
      timeline: [
        { at: "60s", do: "kubelet-stop", node: "worker-1" },
        { at: "70s", do: "kubelet-start", node: "worker-1" },
      ],
    }),
  );
}

describe("a kubelet restart and its pods' Ready", () => {
  it.each(["1.33", "1.34"])("%s: the pod goes NotReady at the restart and Ready again after a probe", (v) => {
    const r = restarted(v);
    const start = eventsOf(r, "FaultInjected", (e) => e.do === "kubelet-start")[0]!.t;
    const notReady = eventsOf(r, "PodNotReady", (e) => e.t >= start);
    expect(notReady.length).toBeGreaterThan(0);
    expect(notReady[0]!.t).toBeCloseTo(start, 6);
    expect(eventsOf(r, "PodReady", (e) => e.t > start).length).toBeGreaterThan(0);
  });

  it.each(["1.35", "1.37"])("%s: the pod stays Ready through the restart", (v) => {
    const r = restarted(v);
    const stop = eventsOf(r, "FaultInjected", (e) => e.do === "kubelet-stop")[0]!.t;
    expect(eventsOf(r, "PodNotReady", (e) => e.t >= stop)).toEqual([]);
    expect(r.summary.pods[0]).toMatchObject({ ready: true });
  });
});
