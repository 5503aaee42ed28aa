// The attach/detach controller alone (reconciler/reconciler_test.go): pods with claims, nodes whose
// status.volumesInUse the test writes as the kubelet patches it (a Node write, a new list). A volume leaves a node when its kubelet
// reports it unmounted, at once with the out-of-service taint, or after ReconcilerMaxWaitForUnmount
// (6 min, strictly more) on an unhealthy node unless --disable-force-detach-on-timeout.

import { describe, expect, it } from "vitest";
import {
  AttachDetachController,
  type AttachDetachSettings,
} from "../../src/controllers/attach-detach-controller.ts";
import type { ConditionStatus, PersistentVolumeClaim, Pod } from "../../src/kubernetes/objects.ts";
import { type Harness, harness, node, pod } from "./harness.ts";

const CLAIM = "default/data-db-0";

function cluster(over: Partial<AttachDetachSettings> = {}): { h: Harness; db: Pod } {
  const h = harness();
  h.store.create(node("n1", { volumesInUse: [CLAIM] }));
  h.store.create(node("n2"));
  h.store.create<PersistentVolumeClaim>({
    kind: "PersistentVolumeClaim",
    metadata: { name: "data-db-0", namespace: "default" },
    spec: { accessModes: ["ReadWriteOnce"] },
  });
  new AttachDetachController(h, { disableForceDetachOnTimeout: false, version: "1.32", ...over });
  const db = pod("db-0", { node: "n1", claims: ["data-db-0"] });
  h.store.create(db);
  h.to(1);
  return { h, db };
}

/** The old pod object goes (force delete, PodGC) and its replacement lands on n2. */
function moveTo2(h: Harness, db: Pod, at: number): void {
  h.engine.at(at, () => {
    h.store.delete(db);
    h.store.create(pod("db-0", { node: "n2", claims: ["data-db-0"] }));
  });
}

function setNode(
  h: Harness,
  at: number,
  edit: { ready?: ConditionStatus; volumesInUse?: string[]; outOfService?: boolean },
) {
  h.engine.at(at, () => {
    const n = h.store.get("Node", "n1")!;
    if (edit.ready) n.status.conditions[0]!.status = edit.ready;
    if (edit.volumesInUse) n.status.volumesInUse = edit.volumesInUse;
    if (edit.outOfService)
      n.spec.taints = [
        { key: "node.kubernetes.io/out-of-service", value: "nodeshutdown", effect: "NoExecute" },
      ];
    h.store.update(n);
  });
}

describe("attach/detach controller", () => {
  it("attaches a pod's ReadWriteOnce claim to its node", () => {
    const { h } = cluster();
    expect(h.events("VolumeAttached")).toMatchObject([
      { t: 0, object: `PersistentVolumeClaim/${CLAIM}`, node: "n1", claim: CLAIM, pod: "default/db-0" },
    ]);
  });

  it("a claim that does not exist is never attached, while the pod beside it gets its own", () => {
    const h = harness();
    h.store.create(node("n1"));
    h.store.create<PersistentVolumeClaim>({
      kind: "PersistentVolumeClaim",
      metadata: { name: "data-db-0", namespace: "default" },
      spec: { accessModes: ["ReadWriteOnce"] },
    });
    new AttachDetachController(h, { disableForceDetachOnTimeout: false, version: "1.32" });
    h.store.create(pod("app", { node: "n1", claims: ["missing"] }));
    h.store.create(pod("db-0", { node: "n1", claims: ["data-db-0"] }));
    h.to(10);
    expect(h.events("VolumeAttached").map((e) => [e.claim, e.pod])).toEqual([[CLAIM, "default/db-0"]]);
    expect(h.store.list("VolumeAttachment").map((v) => v.spec.claim)).toEqual([CLAIM]);
  });

  it("detaches once the kubelet reports the volume unmounted, then attaches where the pod now runs", () => {
    const { h, db } = cluster();
    moveTo2(h, db, 10);
    setNode(h, 20, { volumesInUse: [] });
    h.to(30);
    expect(h.events("VolumeDetached")).toMatchObject([
      { t: 20, node: "n1", forced: false, cause: "unmounted" },
    ]);
    expect(h.events("VolumeAttached").map((e) => [e.t, e.node])).toEqual([
      [0, "n1"],
      [20, "n2"],
    ]);
    expect(h.events("FailedAttachVolume")).toMatchObject([
      {
        t: 10,
        object: "Pod/default/db-0",
        node: "n2",
        claim: CLAIM,
        attachedTo: "n1",
        prefix: "Multi-Attach error",
      },
    ]);
  });

  it("a status post that moves only the heartbeats wakes nothing; the patch of volumesInUse does (nodeUpdate → processVolumesInUse)", () => {
    const { h, db } = cluster();
    moveTo2(h, db, 10);
    // The list emptied without a write of it (as the kubelet once wrote it, in place), then a
    // heartbeat-only post: the reconciler reads nothing new from that write and is not woken.
    h.engine.at(15, () => {
      h.store.get("Node", "n1")!.status.volumesInUse!.length = 0;
    });
    h.engine.at(20, () => {
      const n = h.store.get("Node", "n1")!;
      for (const c of n.status.conditions) c.lastHeartbeatTime = 20;
      h.store.update(n);
    });
    h.to(25);
    expect(h.events("VolumeDetached")).toEqual([]);
    setNode(h, 30, { volumesInUse: [] });
    h.to(40);
    expect(h.events("VolumeDetached")).toMatchObject([{ t: 30, node: "n1", cause: "unmounted" }]);
    expect(h.events("VolumeAttached").map((e) => [e.t, e.node])).toEqual([
      [0, "n1"],
      [30, "n2"],
    ]);
  });

  it("a claim created after its pod is attached at its creation (pvcAdd → processPVC), with no other write", () => {
    const h = harness();
    h.store.create(node("n1"));
    new AttachDetachController(h, { disableForceDetachOnTimeout: false, version: "1.32" });
    h.store.create(pod("db-0", { node: "n1", claims: ["data-db-0"] }));
    h.to(5);
    expect(h.events("VolumeAttached")).toEqual([]);
    h.engine.at(7, () =>
      h.store.create<PersistentVolumeClaim>({
        kind: "PersistentVolumeClaim",
        metadata: { name: "data-db-0", namespace: "default" },
        spec: { accessModes: ["ReadWriteOnce"] },
      }),
    );
    h.to(10);
    expect(h.events("VolumeAttached").map((e) => [e.t, e.node, e.claim])).toEqual([[7, "n1", CLAIM]]);
  });

  it("1.37 words the wait differently (Waiting for detach)", () => {
    const { h, db } = cluster({ version: "1.37" });
    moveTo2(h, db, 10);
    h.to(11);
    expect(h.events("FailedAttachVolume")).toMatchObject([{ prefix: "Waiting for detach" }]);
  });

  it("a healthy node that still mounts it keeps the volume, however long", () => {
    const { h, db } = cluster();
    moveTo2(h, db, 10);
    h.to(2000);
    expect(h.events("VolumeDetached")).toEqual([]);
    // The volume stays where it is: its attachment still names n1, and the pod on n2 waits for it.
    expect(h.store.list("VolumeAttachment").map((v) => [v.spec.nodeName, v.spec.claim])).toEqual([
      ["n1", CLAIM],
    ]);
    expect(h.events("FailedAttachVolume")).toMatchObject([{ t: 10, node: "n2", attachedTo: "n1" }]);
  });

  it("an unhealthy node that never reports it unmounted: force-detached strictly after 6 minutes", () => {
    const { h, db } = cluster();
    setNode(h, 5, { ready: "Unknown" });
    moveTo2(h, db, 10);
    h.to(370);
    expect(h.events("VolumeDetached")).toEqual([]);
    h.to(400);
    const [e] = h.events("VolumeDetached");
    expect(e).toMatchObject({ forced: true, cause: "max-wait-for-unmount", maxWaitForUnmount: 360 });
    expect(e!.waited).toBeGreaterThan(360);
    expect(e!.t).toBeCloseTo(10 + 360.1, 6);
  });

  it("--disable-force-detach-on-timeout: never force-detached", () => {
    const { h, db } = cluster({ disableForceDetachOnTimeout: true });
    setNode(h, 5, { ready: "Unknown" });
    moveTo2(h, db, 10);
    h.to(2000);
    expect(h.events("VolumeDetached")).toEqual([]);
    // The volume stays where it is: its attachment still names n1, and the pod on n2 waits for it.
    expect(h.store.list("VolumeAttachment").map((v) => [v.spec.nodeName, v.spec.claim])).toEqual([
      ["n1", CLAIM],
    ]);
    expect(h.events("FailedAttachVolume")).toMatchObject([{ t: 10, node: "n2", attachedTo: "n1" }]);
  });

  it("the out-of-service taint: detached at once, though still mounted", () => {
    const { h, db } = cluster();
    setNode(h, 5, { ready: "Unknown" });
    moveTo2(h, db, 10);
    setNode(h, 30, { outOfService: true });
    h.to(31);
    expect(h.events("VolumeDetached")).toMatchObject([{ t: 30, forced: true, cause: "out-of-service" }]);
  });

  it("a Terminating pod whose containers are not reported stopped keeps its volume wanted (IsPodTerminated)", () => {
    const { h, db } = cluster();
    setNode(h, 5, { ready: "Unknown", volumesInUse: [] });
    h.engine.at(10, () => {
      db.metadata.deletionTimestamp = 40;
      h.store.update(db);
    });
    h.to(1000);
    expect(h.events("VolumeDetached")).toEqual([]);
    // Still wanted by the Terminating pod: the attachment to n1 stays.
    expect(h.store.list("VolumeAttachment").map((v) => [v.spec.nodeName, v.spec.claim])).toEqual([
      ["n1", CLAIM],
    ]);
  });

  it("a deleted node keeps its last volumesInUse (nodeDelete → processVolumesInUse): the 6-minute rule", () => {
    const { h, db } = cluster();
    h.engine.at(10, () => h.store.delete(h.store.get("Node", "n1")!));
    moveTo2(h, db, 20);
    h.to(400);
    expect(h.events("VolumeDetached")).toMatchObject([{ forced: true, cause: "max-wait-for-unmount" }]);
  });
});
