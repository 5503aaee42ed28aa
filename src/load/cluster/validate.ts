// A dump is checked as the API server would have stored it: each field of a dumped object that the
// run reads holds a value the API server or the component that writes it could have stored. A value
// nothing in Kubernetes writes (a pod phase "Exploded", a restartCount of -1, a Ready status "Maybe")
// is a located error rather than a run started from a state no cluster was in.

import { fail, isObj, type Obj } from "../check.ts";
import type { Path, SourceDoc } from "../source.ts";
import { optTime } from "./node.ts";

/**
 * metav1.ObjectMeta's times: creationTimestamp (set by the API server on create) and
 * deletionTimestamp are metav1.Time, which decodes only RFC 3339 (apimachinery
 * pkg/apis/meta/v1/time.go, UnmarshalJSON: time.Parse(time.RFC3339, …)).
 */
export function checkStoredMeta(src: SourceDoc, path: Path, o: Obj): void {
  if (!isObj(o.metadata)) return;
  const mp = [...path, "metadata"];
  optTime(src, [...mp, "creationTimestamp"], o.metadata.creationTimestamp);
  optTime(src, [...mp, "deletionTimestamp"], o.metadata.deletionTimestamp);
}

/** core/v1 ConditionStatus: "These are valid condition statuses" (ConditionTrue, ConditionFalse, ConditionUnknown). */
const CONDITION_STATUSES = ["True", "False", "Unknown"];

/**
 * A node's status.conditions: each a type and one of the three ConditionStatus values, the only
 * ones the kubelet's setters (pkg/kubelet/nodestatus/setters.go ReadyCondition, MemoryPressureCondition…)
 * and the node lifecycle controller (tryUpdateNodeHealth, which writes Unknown) ever write.
 */
export function checkConditions(src: SourceDoc, path: Path, conditions: unknown): void {
  if (!Array.isArray(conditions)) return;
  conditions.forEach((c, i) => {
    if (!isObj(c)) return;
    const cp = [...path, i];
    if (typeof c.type !== "string" || c.type === "")
      fail(src, [...cp, "type"], "invalid-value", "a condition needs a type (e.g. Ready)");
    if (typeof c.status !== "string" || !CONDITION_STATUSES.includes(c.status))
      fail(
        src,
        [...cp, "status"],
        "invalid-value",
        `${JSON.stringify(c.status ?? null)} is not a condition status: must be "True", "False" or "Unknown" (core/v1 ConditionStatus)`,
      );
  });
}

/** core/v1 PodPhase: Pending, Running, Succeeded, Failed, Unknown (the kubelet's getPhase writes no other). */
const POD_PHASES = ["Pending", "Running", "Succeeded", "Failed", "Unknown"];

/** int32, the type of ContainerStatus.restartCount in core/v1. */
const INT32_MAX = 2 ** 31 - 1;

/**
 * A pod's status as the kubelet posted it: its phase one of core/v1's PodPhase values, and each
 * container's restartCount a count (int32, from 0: the kubelet's container runtime manager counts
 * the restarts, kuberuntime's getContainerStatus / the sandbox's attempt).
 */
export function checkPodStatus(src: SourceDoc, path: Path, o: Obj): void {
  if (!isObj(o.status)) return;
  const sp = [...path, "status"];
  const phase = o.status.phase;
  if (phase != null && (typeof phase !== "string" || !POD_PHASES.includes(phase)))
    fail(
      src,
      [...sp, "phase"],
      "invalid-value",
      `${JSON.stringify(phase)} is not a pod phase: must be one of ${POD_PHASES.join(", ")} (core/v1 PodPhase)`,
    );
  for (const field of ["initContainerStatuses", "containerStatuses", "ephemeralContainerStatuses"]) {
    const statuses = o.status[field];
    if (!Array.isArray(statuses)) continue;
    statuses.forEach((c, i) => {
      if (!isObj(c) || c.restartCount == null) return;
      const n = c.restartCount;
      if (typeof n !== "number" || !Number.isInteger(n) || n < 0 || n > INT32_MAX)
        fail(
          src,
          [...sp, field, i, "restartCount"],
          "invalid-value",
          `${JSON.stringify(n)} is not a restart count: must be a whole number from 0 to ${INT32_MAX} (int32, counted by the kubelet from 0)`,
        );
    });
  }
}

/**
 * coordination.k8s.io/v1 Lease: ValidateLeaseSpec (pkg/apis/coordination/validation) refuses a
 * leaseDurationSeconds that is not greater than 0 and a negative leaseTransitions; renewTime and
 * acquireTime are metav1.MicroTime (RFC 3339).
 */
export function checkLease(src: SourceDoc, path: Path, o: Obj): void {
  if (!isObj(o.spec)) return;
  const sp = [...path, "spec"];
  const positive = (field: string, min: number, what: string) => {
    const v = (o.spec as Obj)[field];
    if (v == null) return;
    if (typeof v !== "number" || !Number.isInteger(v))
      fail(src, [...sp, field], "invalid-type", `${JSON.stringify(v)} is not an integer (an int32)`);
    if (v < min || v > INT32_MAX)
      fail(
        src,
        [...sp, field],
        "invalid-value",
        `${JSON.stringify(v)} is invalid: must be ${what} (an int32; ValidateLeaseSpec, pkg/apis/coordination/validation)`,
      );
  };
  positive("leaseDurationSeconds", 1, "greater than 0");
  positive("leaseTransitions", 0, "at least 0");
  optTime(src, [...sp, "acquireTime"], o.spec.acquireTime);
}

/** A time the dump holds, where it stands. */
export interface DumpTime {
  time: number;
  src: SourceDoc;
  path: Path;
}

/**
 * How far the dump's newest time may stand beyond the next newest. A running kubelet renews its
 * Lease every 10 s (nodeLeaseDurationSeconds 40 × 0.25, pkg/kubelet/nodelease) and posts its status
 * at least every nodeStatusReportFrequency (5m, KubeletConfiguration default), so one dump's times
 * lie minutes apart; an hour leaves room for a folder of dumps taken one after another.
 */
export const DUMP_TIME_SPREAD_SECONDS = 3600;

/**
 * The newest time dates the dump (t=0): one far beyond every other time in it (a Lease renewed in
 * the year 9999 beside heartbeats of today) is no heartbeat any kubelet posted, and it would start
 * the run with every node silent for years. Refused where it stands.
 */
export function checkTimeSpread(times: readonly DumpTime[]): void {
  if (times.length < 2) return;
  let first = 0;
  for (let i = 1; i < times.length; i++) if (times[i]!.time > times[first]!.time) first = i;
  let second = first === 0 ? 1 : 0;
  for (let i = 0; i < times.length; i++) if (i !== first && times[i]!.time > times[second]!.time) second = i;
  const [a, b] = [times[first]!, times[second]!];
  const gap = a.time - b.time;
  if (gap <= DUMP_TIME_SPREAD_SECONDS) return;
  const { line, col } = b.src.locate(b.path);
  const days = Math.floor(gap / 86400);
  const span = days >= 1 ? `${days.toLocaleString("en-US")} days` : `${Math.round(gap / 60)} minutes`;
  fail(
    a.src,
    a.path,
    "invalid-value",
    `${iso(a.time)} is ${span} after the dump's next newest time (${iso(b.time)} at ${b.src.file}:${line}:${col}): a running kubelet renews its Lease every 10 s and posts its status at least every 5 min, so a dump's times lie minutes apart; this one would date the dump to a time nothing else in it reached`,
  );
}

function iso(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace(/\.000Z$/, "Z");
}

/**
 * A Node's Ready heartbeat, where it stands (dumpNode has checked its form). Not its
 * lastTransitionTime: a node Ready for months changed last months ago.
 */
export function nodeTimes(src: SourceDoc, path: Path, o: Obj): DumpTime[] {
  const status = isObj(o.status) ? o.status : {};
  const conditions = Array.isArray(status.conditions) ? status.conditions : [];
  const at = conditions.findIndex((c) => isObj(c) && c.type === "Ready");
  if (at < 0) return [];
  const ready = conditions[at] as Obj;
  const out: DumpTime[] = [];
  for (const field of ["lastHeartbeatTime"]) {
    const p = [...path, "status", "conditions", at, field];
    const time = optTime(src, p, ready[field]);
    if (time !== undefined) out.push({ time, src, path: p });
  }
  return out;
}
