// Events of kube-scheduler. Fields only; report/messages/scheduling.ts writes the prose.

export interface SchedulingEventFields {
  PodScheduled: Record<never, never>;
  FailedScheduling: Record<never, never>;
}
