// The steps of a node's failure that both a recording and the model show, in Kubernetes' words, and
// where each one's time comes from on each side.

export const STEPS = [
  { key: "lease-stops", what: "Lease renewals stop", source: "the node Lease's last spec.renewTime" },
  { key: "not-ready", what: "NotReady", source: "the Ready condition's lastTransitionTime (status Unknown)" },
  {
    key: "tainted",
    what: "taint node.kubernetes.io/unreachable:NoExecute",
    source: "the taint's timeAdded",
  },
  {
    key: "pods-not-ready",
    what: "pods marked not ready",
    source: "the pods' Ready condition lastTransitionTime (False)",
  },
  {
    key: "endpoints-out",
    what: "endpoints out of rotation",
    source: "the EndpointSlice's endpoints.kubernetes.io/last-change-trigger-time (ready: false)",
  },
  {
    key: "evicted",
    what: "pods evicted (TaintManagerEviction)",
    source: "the pods' deletionTimestamp less deletionGracePeriodSeconds",
  },
  { key: "replacement-created", what: "replacements created", source: "the new pods' creationTimestamp" },
  {
    key: "replacement-scheduled",
    what: "replacements scheduled",
    source: "the new pods' PodScheduled lastTransitionTime",
  },
  {
    key: "replacement-ready",
    what: "replacements Ready",
    source: "the new pods' Ready lastTransitionTime (True)",
  },
  {
    key: "volume-detached",
    what: "volumes detached",
    source: "the node's VolumeAttachments' deletionTimestamp",
  },
  {
    key: "volume-attached",
    what: "volumes attached elsewhere",
    source: "new VolumeAttachments' creationTimestamp",
  },
  {
    key: "requests-failing",
    what: "requests failing (first)",
    source: "the traffic probe's first failed request (local clock)",
  },
  {
    key: "requests-recovered",
    what: "requests recovered (last failure)",
    source: "the traffic probe's last failed request (local clock)",
  },
] as const;

export type StepKey = (typeof STEPS)[number]["key"];

/** A step's time in seconds since the Unix epoch, and what says so. */
export type StepTimes = Partial<Record<StepKey, number>>;

/** RFC 3339 (metav1.Time or MicroTime) to seconds since the Unix epoch. */
export function seconds(rfc3339: string | undefined): number | undefined {
  if (rfc3339 === undefined) return undefined;
  const m = /^(.*?)(\.(\d+))?Z$/.exec(rfc3339);
  if (!m) {
    const t = Date.parse(rfc3339);
    return Number.isNaN(t) ? undefined : t / 1000;
  }
  const whole = Date.parse(`${m[1]}Z`);
  if (Number.isNaN(whole)) return undefined;
  return whole / 1000 + (m[3] ? Number(`0.${m[3]}`) : 0);
}
