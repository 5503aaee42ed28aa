// A filter plugin's verdict on one node, as framework.Status codes (pkg/scheduler/framework/interface.go
// Code): Success; Unschedulable, which preemption might resolve; UnschedulableAndUnresolvable, which it
// cannot (DefaultPreemption reports the two counts when nothing fits). Numbers, so a walk over
// thousands of nodes allocates nothing.

export const PASS = 0;
export const UNSCHEDULABLE = 1;
export const UNRESOLVABLE = 2;

export type FilterCode = typeof PASS | typeof UNSCHEDULABLE | typeof UNRESOLVABLE;
