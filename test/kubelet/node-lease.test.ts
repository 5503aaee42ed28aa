// The kubelet's lease controller on its own (node-lease.ts): an engine, a store and a NodeLease, the
// clock driven by hand. Rules (component-helpers/apimachinery/lease/controller.go): renew every
// renewInterval (nodeLeaseDurationSeconds × 0.25) × U[1, 1.04); a Lease gone from the API is
// created again (ensureLease), and the one renewed is always the API's.

import { describe, expect, it } from "vitest";
import { Store } from "../../src/cluster/store.ts";
import { Engine } from "../../src/engine/engine.ts";
import { NodeLease } from "../../src/kubelet/node-lease.ts";
import { Trace } from "../../src/trace/events.ts";
import { renewalTimes } from "../../src/trace/lease-renewals.ts";

function setup() {
  const engine = new Engine(1);
  const store = new Store(engine);
  const trace = new Trace(engine);
  const lease = new NodeLease({
    engine,
    store,
    trace,
    rng: engine.rng.fork("kubelet/worker-1"),
    node: "worker-1",
    nodeLeaseDurationSeconds: 40,
    machine: { powered: true, kubeletRunning: true, partitioned: false },
  });
  lease.start();
  const stored = () => store.get("Lease", "kube-node-lease/worker-1");
  return { engine, store, trace, stored };
}

describe("node lease", () => {
  it("renews every 10s × U[1, 1.04), each renewal a LeaseRenewed event with the interval", () => {
    const { engine, trace, stored } = setup();
    engine.run(100);
    const times = renewalTimes({ ...trace.leases, until: engine.now })["worker-1"]!;
    expect(times[0]).toBe(0);
    for (let i = 1; i < times.length; i++) {
      expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(10);
      expect(times[i]! - times[i - 1]!).toBeLessThan(10.4);
    }
    expect(times.length).toBe(10);
    expect(trace.leases.logs[0]!.event).toMatchObject({
      type: "LeaseRenewed",
      object: "Lease/kube-node-lease/worker-1",
      node: "worker-1",
      nodeLeaseDurationSeconds: 40,
      renewIntervalSeconds: 10,
    });
    expect(stored()!.spec.renewTime).toBe(times.at(-1));
  });

  it.each([
    { recreatedBy: "the kubelet", byHand: false },
    { recreatedBy: "someone else", byHand: true },
  ])(
    "a Lease deleted from the API (created again by $recreatedBy) is the one renewed after",
    ({ byHand }) => {
      const { engine, store, stored } = setup();
      engine.run(25);
      const old = stored()!;
      store.delete(old);
      if (byHand) store.create({ ...old, metadata: { ...old.metadata }, spec: { ...old.spec } });
      engine.run(60);
      const now = stored()!;
      expect(now).not.toBe(old);
      expect(now.spec.renewTime).toBeGreaterThan(49);
      expect(old.spec.renewTime).toBeLessThanOrEqual(25);
    },
  );
});
