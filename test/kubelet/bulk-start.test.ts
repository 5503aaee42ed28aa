// The warm-up's bulk start (src/kubelet/bulk-start.ts): the starts due at one instant run in the
// order asked, a stopped worker's not at all; a pod no other component waits on (a ReplicaSet's, a
// bare pod) gets its status without a watch notification and goes to the EndpointSlice pass; a
// StatefulSet's, a DaemonSet's or one with a claim writes through the API; after the warm-up
// every start writes through the API.

import { describe, expect, it } from "vitest";
import { setPodCondition, setPodReady } from "../../src/cluster/api.ts";
import { Store } from "../../src/cluster/store.ts";
import { Engine } from "../../src/engine/engine.ts";
import { BulkStart } from "../../src/kubelet/bulk-start.ts";
import type { PodStatusApi } from "../../src/kubelet/status-manager.ts";
import type { Pod } from "../../src/kubernetes/objects.ts";
import { Trace } from "../../src/trace/events.ts";

function pod(name: string, owner?: string, claim?: string): Pod {
  const [kind, ownerName] = owner?.split("/") ?? [];
  return {
    kind: "Pod",
    metadata: {
      name,
      namespace: "default",
      ...(kind && ownerName ? { ownerReferences: [{ kind, name: ownerName, controller: true }] } : {}),
    },
    spec: {
      nodeName: "n-1",
      containers: [{ name: "c" }],
      ...(claim ? { volumes: [{ name: "data", persistentVolumeClaim: { claimName: claim } }] } : {}),
    },
    status: { phase: "Pending", conditions: [], containerStatuses: [] },
  };
}

function setUp() {
  const engine = new Engine(1, -10);
  const store = new Store(engine);
  const trace = new Trace(engine);
  const ctx = { engine, store, trace };
  const notified: string[] = [];
  store.watch("Pod", (type, p) => notified.push(`${type} ${p.metadata.name}`));
  const started: string[] = [];
  const bulk = new BulkStart(engine, (pods) => started.push(...pods.map((p) => p.metadata.name)));
  const api: PodStatusApi = bulk.api(ctx, {
    exists: (p) => store.exists(p),
    update: (p) => store.update(p, p.spec.nodeName),
    setCondition: (p, type, status) => {
      setPodCondition(ctx, p, type, status);
    },
    setReady: (p, ready, _reason, fields) => setPodReady(ctx, p, ready, { lane: "kubelet", ...fields }),
  });
  const ran: string[] = [];
  /** A pod worker as the bulk start sees it; its start writes the phase, then Ready. */
  const add = (p: Pod) => {
    const start = {
      pod: p,
      rebooted: false,
      stopped: false,
      start() {
        ran.push(p.metadata.name);
        p.status.phase = "Running";
        api.update(p);
        api.setReady(p, true, undefined, { by: "kubelet", cause: "containers-ready", readinessProbe: false });
      },
    };
    bulk.add(engine.now + 2, start);
    return start;
  };
  return { engine, store, bulk, add, ran, notified, started };
}

const ready = (p: Pod) => p.status.conditions.find((c) => c.type === "Ready")?.status;

describe("the warm-up's bulk start", () => {
  it("runs the starts of one instant in order, skips a stopped worker's, and keeps quiet only those no one waits on", () => {
    const { engine, store, add, ran, notified, started } = setUp();
    const pods = [
      pod("web-1", "ReplicaSet/web-abc"),
      pod("db-0", "StatefulSet/db"),
      pod("gone", "ReplicaSet/web-abc"),
      pod("bare"),
      pod("agent-x", "DaemonSet/agent"),
      pod("claims", "ReplicaSet/data-abc", "data"),
    ];
    for (const p of pods) store.create(p);
    engine.run(-10);
    notified.length = 0;
    const starts = pods.map(add);
    starts[2]!.stopped = true;
    engine.run(0);
    expect(ran).toEqual(["web-1", "db-0", "bare", "agent-x", "claims"]);
    expect(started).toEqual(["web-1", "bare"]);
    // Each of the others wrote twice (the phase, then Ready); the quiet ones changed in place.
    expect(notified).toEqual(
      ["db-0", "agent-x", "claims"].flatMap((n) => [`MODIFIED ${n}`, `MODIFIED ${n}`]),
    );
    for (const p of pods.filter((x) => x.metadata.name !== "gone")) {
      expect(p.status.phase).toBe("Running");
      expect(ready(p)).toBe("True");
    }
    expect(ready(pods[2]!)).toBeUndefined();
  });

  it("writes every start through the API once the warm-up is over", () => {
    const { engine, store, bulk, add, notified, started } = setUp();
    const web = store.create(pod("web-1", "ReplicaSet/web-abc"));
    engine.run(-10);
    notified.length = 0;
    add(web);
    bulk.open = false;
    engine.run(0);
    expect(notified).toEqual(["MODIFIED web-1", "MODIFIED web-1"]);
    expect(started).toEqual([]);
  });

  it("gives the starts of different instants their own batch", () => {
    const { engine, store, add, ran } = setUp();
    const a = store.create(pod("a", "ReplicaSet/web-abc"));
    const b = store.create(pod("b", "ReplicaSet/web-abc"));
    add(a);
    engine.run(-9);
    add(b);
    engine.run(-7.5);
    expect(ran).toEqual(["a"]);
    engine.run(-7);
    expect(ran).toEqual(["a", "b"]);
  });
});
