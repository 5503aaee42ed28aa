// A StatefulSet's rolling update (stateful_set_control.go updateStatefulSet) after
// `kubectl rollout restart` (the timeline's rollout-restart), on both sides of the
// MaxUnavailableStatefulSet gate (KEP-961: on 1.35.0–1.35.3, off 1.35.4 and 1.36, on 1.37):
// - off: one pod at a time from the highest ordinal, each replaced and Running and Ready before
//   the next ("StatefulSet is waiting for Pod to update");
// - on (updateStatefulSetAfterInvariantEstablished): up to maxUnavailable at once; every unavailable
//   pod counts, so a Parallel set with a pod on a lost node cannot update at all with
//   maxUnavailable 1 (kubernetes/kubernetes#137409), where 1.35.4 goes on past the lost pod's ordinal.

import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { LoadError } from "../../src/load/errors.ts";
import { eventsOf, run, scenario } from "../helpers/sim.ts";

function db(opts: { version: string; maxUnavailable?: number; policy?: string; timeline: object[] }) {
  return scenario(
    stringify({
      kubernetesVersion: opts.version,
      duration: "5m",
      nodes: [{ name: "n1" }, { name: "n2" }, { name: "n3" }],
      manifests: [
        {
          apiVersion: "apps/v1",
          kind: "StatefulSet",
          metadata: { name: "db" },
          spec: {
            replicas: 3,
            serviceName: "db",
            podManagementPolicy: opts.policy ?? "OrderedReady",
            selector: { matchLabels: { app: "db" } },
            updateStrategy: {
              type: "RollingUpdate",
              ...(opts.maxUnavailable ? { rollingUpdate: { maxUnavailable: opts.maxUnavailable } } : {}),
            },
            template: {
              metadata: { labels: { app: "db" } },
              spec: {
                topologySpreadConstraints: [
                  {
                    maxSkew: 1,
                    topologyKey: "kubernetes.io/hostname",
                    whenUnsatisfiable: "DoNotSchedule",
                    labelSelector: { matchLabels: { app: "db" } },
                  },
                ],
                containers: [{ name: "db", image: "postgres:16" }],
              },
            },
          },
        },
      ],
      timeline: opts.timeline,
    }),
  );
}

/** The update's deletions: `t pod`, in order. */
const deletions = (r: ReturnType<typeof run>) =>
  eventsOf(r, "PodEvicted", (e) => e.by === "statefulset-controller").map((e) => ({
    t: e.t,
    pod: e.object.split("/").pop()!,
  }));

const restart = { at: "30s", do: "rollout-restart", pod: "StatefulSet/db" };

describe("StatefulSet rolling update", () => {
  it("1.35.4 (gate off): one pod at a time, db-2 then db-1 then db-0, each after the previous is back", () => {
    const d = deletions(run(db({ version: "1.35.4", maxUnavailable: 2, timeline: [restart] })));
    expect(d.map((x) => x.pod)).toEqual(["db-2", "db-1", "db-0"]);
    expect(d[0]!.t).toBeCloseTo(30, 0);
    expect(d[1]!.t).toBeGreaterThan(d[0]!.t);
    expect(d[2]!.t).toBeGreaterThan(d[1]!.t);
  });

  it("1.35.2 (gate on): maxUnavailable 2 takes db-2 and db-1 down together", () => {
    const d = deletions(run(db({ version: "1.35.2", maxUnavailable: 2, timeline: [restart] })));
    expect(d.map((x) => x.pod)).toEqual(["db-2", "db-1", "db-0"]);
    expect(d[1]!.t).toBe(d[0]!.t);
    expect(d[2]!.t).toBeGreaterThan(d[1]!.t);
  });

  it("1.37 (gate on again): the same as 1.35.2; without maxUnavailable, one at a time (default 1)", () => {
    const on = deletions(run(db({ version: "1.37", maxUnavailable: 2, timeline: [restart] })));
    expect(on[1]!.t).toBe(on[0]!.t);
    const one = deletions(run(db({ version: "1.37", timeline: [restart] })));
    expect(one[1]!.t).toBeGreaterThan(one[0]!.t);
  });

  const lost = (version: string) =>
    run(
      db({
        version,
        policy: "Parallel",
        maxUnavailable: 1,
        timeline: [
          { at: "10s", do: "power-off", node: "n1" },
          { at: "90s", do: "rollout-restart", pod: "StatefulSet/db" },
        ],
      }),
    );

  it("a Parallel set with a pod on a lost node: 1.35.2 counts it against maxUnavailable 1 and updates nothing (#137409)", () => {
    const r = lost("1.35.2");
    expect(deletions(r)).toEqual([]);
    const waits = eventsOf(r, "StatefulSetUpdateWaiting");
    expect(waits).toHaveLength(1);
    expect(waits[0]).toMatchObject({ maxUnavailableGate: true, maxUnavailable: 1, unavailable: 1 });
  });

  it("the same on 1.35.4: the update goes down the ordinals past the lost pod's", () => {
    const r = lost("1.35.4");
    // db-1 is the pod on n1 (the spread puts db-0 on n3, db-1 on n1, db-2 on n2).
    expect(r.initial.pods.find((p) => p.pod === "default/db-1")?.node).toBe("n1");
    // db-2 is replaced; db-1, old, is deleted though its node is gone, and stays Terminating there:
    // the update waits for it, and db-0 keeps the old revision.
    expect(deletions(r).map((x) => x.pod)).toEqual(["db-2", "db-1"]);
    expect(eventsOf(r, "StatefulSetUpdateWaiting").at(-1)).toMatchObject({
      maxUnavailableGate: false,
      waitingFor: "default/db-1",
    });
  });

  it("rollout-restart names a StatefulSet", () => {
    expect(() =>
      db({ version: "1.35", timeline: [{ at: "30s", do: "rollout-restart", pod: "db-0" }] }),
    ).toThrow(LoadError);
  });
});
