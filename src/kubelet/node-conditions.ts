// The conditions the kubelet posts in its Node's status (pkg/kubelet/nodestatus/setters.go: the
// pressure conditions and ReadyCondition), and the comparisons its status loop makes with the API's
// (pkg/kubelet/kubelet_node_status.go nodeConditionsHaveChanged, which ignores heartbeats): read
// in place, against what the kubelet computes, without building four conditions per look.

import type { ConditionStatus, NodeCondition } from "../kubernetes/objects.ts";
import type { RuntimeErrors } from "../trace/node-events.ts";

/** The Ready condition the kubelet computes (setters.go ReadyCondition): False with the runtime's errors. */
function readyCondition(
  errors: RuntimeErrors | undefined,
): Pick<NodeCondition, "status" | "reason" | "message"> {
  return errors
    ? { status: "False", reason: "KubeletNotReady", message: errors.message }
    : { status: "True", reason: "KubeletReady", message: "kubelet is posting ready status" };
}

/** The conditions' type, status, reason and message, in the order the kubelet posts them. */
type Computed = readonly [string, ConditionStatus, string, string];

/** The pressure conditions (setters.go MemoryPressureCondition, DiskPressureCondition, PIDPressureCondition). */
const PRESSURE: readonly Computed[] = [
  ["MemoryPressure", "False", "KubeletHasSufficientMemory", "kubelet has sufficient memory available"],
  ["DiskPressure", "False", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"],
  ["PIDPressure", "False", "KubeletHasSufficientPID", "kubelet has sufficient PID available"],
];

/** A healthy kubelet's, made once (the status loop compares with it at every Node change). */
let healthy: readonly Computed[] | undefined;

/** What the kubelet computes of each condition; heartbeats and transitions aside. */
function computed(errors: RuntimeErrors | undefined): readonly Computed[] {
  if (!errors && healthy) return healthy;
  const ready = readyCondition(errors);
  const out: readonly Computed[] = [...PRESSURE, ["Ready", ready.status, ready.reason!, ready.message!]];
  if (!errors) healthy = out;
  return out;
}

/**
 * The conditions the kubelet posts (pkg/kubelet/nodestatus/setters.go reasons and messages); each
 * keeps its lastTransitionTime from `previous` while its status is unchanged.
 */
export function nodeConditions(
  now: number,
  previous?: NodeCondition[],
  errors?: RuntimeErrors,
): NodeCondition[] {
  const out = computed(errors).map(([type, status, reason, message]) => {
    const prev = previous?.find((x) => x.type === type);
    return {
      type,
      status,
      reason,
      message,
      lastHeartbeatTime: now,
      lastTransitionTime: prev && prev.status === status ? prev.lastTransitionTime : now,
    };
  });
  built.add(out);
  return out;
}

/** Off: every post builds its conditions anew (the plain path the tests compare the shortcut with). */
export const heartbeatsInPlace = { enabled: true };

/**
 * Condition arrays nodeConditions built: each condition in the kubelet's order, with its fields in
 * its order. Others change them only in place (the node lifecycle controller's Unknown: status,
 * reason, message, lastTransitionTime) or append to them (a type missing: the length differs).
 */
const built = new WeakSet<NodeCondition[]>();

/**
 * A post that changes only the heartbeats: the API's conditions are the kubelet's own array and
 * their type, status, reason and message are what it computes, position by position. nodeConditions
 * would then build the same conditions with lastHeartbeatTime now and every lastTransitionTime
 * kept; moving the heartbeats in place gives the same object, without four new ones and an array
 * per post (the readers keep no condition object across posts: node-health.ts readyOf keeps the
 * array and its Ready, read again at each pass; the scheduler's node events copy type and status).
 */
export function heartbeatOnly(api: NodeCondition[], errors: RuntimeErrors | undefined): boolean {
  if (!heartbeatsInPlace.enabled || !built.has(api)) return false;
  const mine = computed(errors);
  if (api.length !== mine.length) return false;
  for (let i = 0; i < mine.length; i++) {
    const [type, status, reason, message] = mine[i]!;
    const c = api[i]!;
    if (c.type !== type || c.status !== status || c.reason !== reason || c.message !== message) return false;
  }
  return true;
}

/** A Ready message without the PLEG's elapsed time ("pleg was last seen active 3m2.5s ago"). */
export function wording(message: string | undefined): string | undefined {
  return message?.replace(/active \S+ ago/, "active … ago");
}

/**
 * nodeConditionsHaveChanged: status, reason or message of a condition in the API differ from what
 * the kubelet computes (heartbeats ignored); read in place, without building the conditions.
 */
export function conditionsDiffer(api: NodeCondition[], errors: RuntimeErrors | undefined): boolean {
  const mine = computed(errors);
  if (api.length !== mine.length) return true;
  return mine.some(([type, status, reason, message]) => {
    const y = api.find((c) => c.type === type);
    return !y || y.status !== status || y.reason !== reason || y.message !== message;
  });
}
