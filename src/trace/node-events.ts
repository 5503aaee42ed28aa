// Events of the nodes themselves: the machine, the kubelet, its pods' containers and probes, and
// what the scenario's timeline does. Fields only; report/messages/node.ts writes the prose.

/**
 * The kubelet's side of events the API server records for any component (cluster/api.ts):
 * PodReady / PodNotReady (the status manager), PodDeleted (the final delete after termination).
 * control-plane-events.ts unions them in under `by: "kubelet"`; report/messages/node.ts prints them.
 */
export type KubeletPodReadyFields = { by: "kubelet" };
export type KubeletPodDeletedFields = { by: "kubelet" };

export interface NodeEventFields {
  LeaseRenewed: Record<never, never>;
  NodeRegistered: Record<never, never>;
  NodeReady: Record<never, never>;
  PodTerminated: Record<never, never>;
  PodRunsTwice: { copies: number };
  ContainerStarted: { container: string; restartCount: number };
  ContainerExited: { container: string; exitCode: number };
  ContainerKilled: { container: string; probe?: string };
  ProbeFailed: { container: string; probe: string; consecutive: number };
  ProbeSucceeded: { container: string; probe: string };
  BackOff: { container: string; delaySeconds: number };
}
