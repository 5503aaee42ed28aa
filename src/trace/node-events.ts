// Events of the nodes themselves: the machine, the kubelet, its pods' containers and probes, and
// what the scenario's timeline does. Fields only; report/messages/node.ts writes the prose.

export interface NodeEventFields {
  FaultInjected: { do: string };
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
  Note: Record<never, never>;
}
