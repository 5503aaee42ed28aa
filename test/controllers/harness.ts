// A cluster for one controller at a time, as Kubernetes' *_test.go build one: an engine (the
// clock), a store, a trace, and objects written by hand. No kubelet runs: a test plays the kubelet
// by renewing Leases and writing statuses, then drives the clock and reads the store and the events.

import type { Cluster } from "../../src/cluster/context.ts";
import { Store } from "../../src/cluster/store.ts";
import { Engine } from "../../src/engine/engine.ts";
import type {
  ConditionStatus,
  Lease,
  Node,
  Pod,
  PodSpec,
  Service,
  Taint,
  Toleration,
} from "../../src/kubernetes/objects.ts";
import { type EventOf, type EventType, Trace } from "../../src/trace/events.ts";

export interface Harness extends Cluster {
  /** Run the clock to `t` (seconds). */
  to(t: number): void;
  /** The events of one type recorded so far, optionally filtered. */
  events<K extends EventType>(type: K, filter?: (e: EventOf<K>) => boolean): EventOf<K>[];
}

export function harness(seed = 1): Harness {
  const engine = new Engine(seed);
  const store = new Store(engine);
  const trace = new Trace(engine);
  return {
    engine,
    store,
    trace,
    names: engine.rng.fork("names"),
    admission: { defaultNotReadyTolerationSeconds: 300, defaultUnreachableTolerationSeconds: 300 },
    to: (t) => engine.run(t),
    events: (type, filter = () => true) =>
      trace.events.filter(
        (e): e is EventOf<typeof type> => e.type === type && filter(e as EventOf<typeof type>),
      ),
  };
}

/** A Node with a Ready condition (heartbeat at `heartbeat`), in a zone. */
export function node(
  name: string,
  opts: {
    zone?: string;
    ready?: ConditionStatus;
    heartbeat?: number;
    taints?: Taint[];
    volumesInUse?: string[];
  } = {},
): Node {
  return {
    kind: "Node",
    metadata: {
      name,
      labels: opts.zone ? { "topology.kubernetes.io/zone": opts.zone } : {},
      creationTimestamp: -3600,
    },
    spec: { taints: opts.taints ?? [] },
    status: {
      capacity: { cpu: 4, memory: 8 * 2 ** 30, pods: 110 },
      allocatable: { cpu: 4, memory: 8 * 2 ** 30, pods: 110 },
      conditions: [
        {
          type: "Ready",
          status: opts.ready ?? "True",
          reason: "KubeletReady",
          message: "kubelet is posting ready status",
          lastHeartbeatTime: opts.heartbeat ?? 0,
          lastTransitionTime: -3600,
        },
      ],
      nodeInfo: { kubeletVersion: "v1.32.0" },
      volumesInUse: opts.volumesInUse ?? [],
    },
  };
}

export function lease(nodeName: string, renewTime: number): Lease {
  return {
    kind: "Lease",
    metadata: { name: nodeName, namespace: "kube-node-lease", creationTimestamp: -3600 },
    spec: { holderIdentity: nodeName, leaseDurationSeconds: 40, renewTime },
  };
}

/** The kubelet's Lease renewal: spec.renewTime = now. */
export function renew(h: Harness, nodeName: string): void {
  const l = h.store.get("Lease", `kube-node-lease/${nodeName}`)!;
  l.spec.renewTime = h.engine.now;
  h.store.update(l);
}

/** A running, Ready pod bound to a node. */
export function pod(
  name: string,
  opts: {
    node?: string;
    namespace?: string;
    labels?: Record<string, string>;
    tolerations?: Toleration[];
    owner?: { kind: string; name: string };
    claims?: string[];
    ip?: string;
    ready?: boolean;
    spec?: Partial<PodSpec>;
  } = {},
): Pod {
  const ready = opts.ready ?? true;
  return {
    kind: "Pod",
    metadata: {
      name,
      namespace: opts.namespace ?? "default",
      labels: opts.labels ?? {},
      creationTimestamp: -3600,
      ...(opts.owner ? { ownerReferences: [{ ...opts.owner, controller: true }] } : {}),
    },
    spec: {
      containers: [{ name: "app" }],
      ...(opts.node ? { nodeName: opts.node } : {}),
      ...(opts.tolerations ? { tolerations: opts.tolerations } : {}),
      ...(opts.claims
        ? { volumes: opts.claims.map((c) => ({ name: c, persistentVolumeClaim: { claimName: c } })) }
        : {}),
      ...opts.spec,
    },
    status: {
      phase: opts.node ? "Running" : "Pending",
      ...(opts.node ? { podIP: opts.ip ?? "10.244.0.1" } : {}),
      conditions: [{ type: "Ready", status: ready ? "True" : "False", lastTransitionTime: -3600 }],
      containerStatuses: opts.node
        ? [{ name: "app", ready, started: true, restartCount: 0, state: "running", startedAt: -3600 }]
        : [],
    },
  };
}

export function service(
  name: string,
  selector: Record<string, string>,
  publishNotReadyAddresses = false,
): Service {
  return {
    kind: "Service",
    metadata: { name, namespace: "default" },
    spec: {
      selector,
      ports: [{ port: 80 }],
      ...(publishNotReadyAddresses ? { publishNotReadyAddresses } : {}),
    },
  };
}

export const UNREACHABLE_NOEXECUTE: Taint = { key: "node.kubernetes.io/unreachable", effect: "NoExecute" };
export const NOT_READY_NOEXECUTE: Taint = { key: "node.kubernetes.io/not-ready", effect: "NoExecute" };

/** The Ready condition's status of a node in the store. */
export function readyOf(h: Harness, nodeName: string): ConditionStatus | undefined {
  return h.store.get("Node", nodeName)?.status.conditions.find((c) => c.type === "Ready")?.status;
}

/** `key:Effect` of a node's taints. */
export function taintsOf(h: Harness, nodeName: string): string[] {
  return (h.store.get("Node", nodeName)?.spec.taints ?? []).map((t) => `${t.key}:${t.effect}`);
}
