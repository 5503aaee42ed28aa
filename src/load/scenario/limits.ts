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

/**
 * kube-controller-manager's --node-eviction-rate and --secondary-node-eviction-rate: nodes per second
 * whose pods the node lifecycle controller deletes (defaults 0.1 and 0.01), each a float32
 * (pkg/controller/nodelifecycle/config/types.go NodeLifecycleControllerConfiguration: NodeEvictionRate
 * float32). 0 is meaningful (the zone's limiter never lets an eviction through); a positive rate must be
 * one a float32 holds: from its smallest positive value, 2^-149 ≈ 1.4e-45 (anything smaller rounds to
 * 0), to its largest, (2 − 2^-23) · 2^127 ≈ 3.4e38 (anything larger is out of a float32's range).
 */
export const EVICTION_RATE = {
  minPositive: 2 ** -149,
  minText: "1.4e-45 (the smallest float32 above 0)",
  max: (2 - 2 ** -23) * 2 ** 127,
  maxText: "3.4e38 (the largest float32)",
};
