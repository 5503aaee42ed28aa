// Events of the scenario's timeline: what the operator (or the scenario) does to the cluster, and
// the notes that say what it means for each lane. Fields only; report/messages/timeline.ts writes
// the prose.

export interface TimelineEventFields {
  FaultInjected: { do: string };
  Note: Record<never, never>;
}
