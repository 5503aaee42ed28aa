// The sizes faultline accepts: Kubernetes' documented scalability limits, a week of simulated time,
// and the shortest period or timeout.

import type { Range } from "../check.ts";

// Kubernetes' documented scalability limits ("Considerations for large clusters"): no more than
// 5,000 nodes, 150,000 total pods, 300,000 total containers. A scenario beyond them is a mistake.
export const MAX_NODES = 5_000;
export const MAX_PODS = 150_000;
export const MAX_CONTAINERS = 300_000;
export const MAX_DURATION_SECONDS = 7 * 24 * 3600;

/**
 * The physical floor of a period or timeout: 1 ms. Where Kubernetes has its own minimum it is
 * checked beside the field (a probe's periodSeconds ≥ 1, nodeLeaseDurationSeconds ≥ 1,
 * crashLoopBackOff.maxContainerRestartPeriod ≥ 1s); the periods below have none in Kubernetes'
 * validation (kube-controller-manager's NodeLifecycleControllerOptions.Validate returns no errors;
 * ValidateKubeletConfiguration does not check nodeStatusUpdateFrequency or
 * nodeStatusReportFrequency; kube-proxy only requires syncPeriod > 0), so a value below 1 ms is a
 * typo (1us for 1s), and one that would cost a billion events a week of simulated time.
 */
export const MIN_PERIOD_SECONDS = 0.001;

/** A period or timeout of at most a week. */
export const PERIOD: Range = {
  min: MIN_PERIOD_SECONDS,
  minText: "1ms",
  max: MAX_DURATION_SECONDS,
  maxText: "7 days (168h)",
};

/** A period or timeout of the data plane or the callers: at most a day. */
export const DATA_PLANE_PERIOD: Range = {
  min: MIN_PERIOD_SECONDS,
  minText: "1ms",
  max: 24 * 3600,
  maxText: "24h",
};

/** A delay (0 allowed) of the data plane or the callers: at most a day. */
export const DATA_PLANE_DELAY: Range = { min: 0, max: 24 * 3600, maxText: "24h" };
