// kube-scheduler's defaults the model reads, each with its field or constant, value and source
// (paths relative to the root of the kubernetes/kubernetes repository). Re-exported by defaults.ts.

import { KUBELET_MAX_PODS } from "./kubelet-defaults.ts";

/**
 * The scheduling queue's backoff for a pod that failed to schedule: podInitialBackoffSeconds 1,
 * doubling per attempt to podMaxBackoffSeconds 10 (KubeSchedulerConfiguration,
 * pkg/scheduler/apis/config/v1/defaults.go SetDefaults_KubeSchedulerConfiguration).
 */
export const POD_INITIAL_BACKOFF_SECONDS = 1;
export const POD_MAX_BACKOFF_SECONDS = 10;

/**
 * minFeasibleNodesToFind 100 and minFeasibleNodesPercentageToFind 5 (pkg/scheduler/schedule_one.go),
 * with percentageOfNodesToScore unset (0: the adaptive 50% − nodes/125).
 */
export const MIN_FEASIBLE_NODES_TO_FIND = 100;
export const MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND = 5;
/** The adaptive percentage's base, 50, and its divisor, 125 nodes per point (schedule_one.go numFeasibleNodesToFind). */
export const ADAPTIVE_PERCENTAGE_BASE = 50;
export const ADAPTIVE_PERCENTAGE_NODES_PER_POINT = 125;

/**
 * From 1.34 NodeResourcesFit rejects a node whose allocatable is smaller than the request as
 * UnschedulableAndUnresolvable (kubernetes#131345, noderesources/fit.go): preemption there cannot help.
 */
export const UNRESOLVABLE_FIT_SINCE_MINOR = 34;

/**
 * The pods a node allows when its allocatable does not say, for the model's LeastAllocated
 * tie-breaker: the kubelet's maxPods default (kubelet-defaults.ts), the same constant.
 */
export const SCORE_DEFAULT_MAX_PODS = KUBELET_MAX_PODS;

/** DefaultNormalizeScore's maximum, framework.MaxNodeScore: 100. */
export const MAX_NODE_SCORE = 100;
/** Score plugin weights of the default profile: NodeAffinity 2, PodTopologySpread 2 (apis/config/v1/default_plugins.go). */
export const WEIGHT_NODE_AFFINITY = 2;
export const WEIGHT_TOPOLOGY_SPREAD = 2;
