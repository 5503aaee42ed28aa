// What a kubelet hands each of its pod workers (PodWorkerHost, one for all its pods): the clock, the
// trace, its settings and version switches (its CrashLoopBackOff among them), its status manager and
// the API as that writes it, the health checks' queue, its prober's random source, the node's pod
// addresses and what the kubelet does once a pod's containers started.

import { setPodCondition, setPodReady } from "../cluster/api.ts";
import type { Context, PlaneChanges } from "../cluster/context.ts";
import type { Rng } from "../engine/rng.ts";
import { type Ipv4Cidr, ipv4 } from "../kubernetes/cidr.ts";
import type { KubeletSettings } from "../kubernetes/defaults.ts";
import {
  CONTAINER_RESTART_RULES_SINCE_MINOR,
  EXACT_CRASHLOOP_REQUEUE_SINCE_MINOR,
  KUBELET_RESTART_KEEPS_POD_STATUS_SINCE_MINOR,
  MANUAL_PROBE_RESETS_TICKER_SINCE_MINOR,
  POD_READY_TO_START_CONTAINERS_SINCE_MINOR,
} from "../kubernetes/defaults.ts";
import type { KubeObject, Pod } from "../kubernetes/objects.ts";
import type { HealthCheckQueue } from "./app.ts";
import type { BulkStart } from "./bulk-start.ts";
import type { CrashLoopSettings, RestartEnv } from "./restart.ts";
import { type PodStatusApi, StatusManager } from "./status-manager.ts";

/** What the host reads of the cluster (the kubelet's own KubeletEnv has it). */
export type PodHostEnv = Pick<Context, "engine" | "store" | "trace" | "kubelet" | "traffic"> & {
  scenario: {
    traffic?: readonly unknown[];
    manifests: readonly { object: KubeObject }[];
    nodes: readonly unknown[];
  };
};

/** What the host reads of its kubelet as it changes. */
export interface PodHostKubelet {
  readonly name: string;
  /** the node's index (1, 2, …), which picks its pod CIDR when it has none of its own (podCidr) */
  readonly index: number;
  /** spec.podCIDR of a Node of a cluster dump, IPv4 (the range allocator gave it) */
  readonly podCIDR?: Ipv4Cidr;
  readonly minor: number;
  readonly kubeletStartedAt: number;
  connected(): boolean;
  whenRuntime(action: () => void): void;
  /** a pod's containers started here (the kubelet's "runs twice" check) */
  started(pod: Pod): void;
  /** the machines' count of changes a connection would see (absent: not counted) */
  readonly planeChanges?: PlaneChanges;
}

/** What a pod worker needs from its kubelet. */
export interface PodWorkerHost extends RestartEnv {
  readonly node: string;
  /** the machines' count of changes a connection would see (each container counts its own) */
  readonly planeChanges: PlaneChanges;
  /** the kubelet's settings */
  readonly settings: KubeletSettings;
  /** PR #119089 (≈1.29): a manual probe run resets the ticker */
  readonly manualProbeResetsTicker: boolean;
  /** KEP-3085 (beta 1.29): the kubelet writes PodReadyToStartContainers once the sandbox is up */
  readonly podReadyToStartContainers: boolean;
  /** KEP-4781 (1.35+): a restarted kubelet keeps its running containers' Started and Ready */
  readonly keepStatusOnKubeletRestart: boolean;
  /** KEP-5307 (beta, on 1.35+): an app container's own restartPolicy and restartPolicyRules */
  readonly containerRestartRules: boolean;
  /** the kubelet's CrashLoopBackOff (restart.ts), with PR #133066 (≈1.35): the retry when it expires */
  readonly crashLoop: CrashLoopSettings;
  readonly api: PodStatusApi;
  /** the kubelet's status manager, one for all its pods */
  readonly status: StatusManager;
  /** the request queue an app's health checks may wait in */
  readonly healthChecks: HealthCheckQueue;
  /** the kubelet reaches the API server */
  connected(): boolean;
  /** when the kubelet process started (the prober's initial jitter applies while it is younger than a period) */
  readonly kubeletStartedAt: number;
  /** the prober's random source (initial jitter, resync and requeue jitter) */
  rng(): Rng;
  /** an address from the node's pod CIDR */
  nextIp(): string;
  /** run what needs the container runtime now, or when the kubelet can use it again (kubelet.ts) */
  whenRuntime(action: () => void): void;
  /** the pod's containers started */
  started(pod: Pod): void;
}

export function podWorkerHost(ctx: PodHostEnv, kubelet: PodHostKubelet, bulk?: BulkStart): PodWorkerHost {
  const node = kubelet.name;
  const api: PodStatusApi = {
    exists: (pod) => ctx.store.exists(pod),
    update: (pod) => ctx.store.update(pod, pod.spec.nodeName),
    setCondition: (pod, type, status) => {
      setPodCondition(ctx, pod, type, status);
    },
    setReady: (pod, ready, reason, fields) =>
      setPodReady(ctx, pod, ready, { lane: "kubelet", ...(reason ? { reason } : {}), ...fields }),
  };
  let proberRng: Rng | undefined;
  const cidr = kubelet.podCIDR ?? podCidr(kubelet.index, ctx.scenario.nodes.length);
  let ipCounter = 1;
  /** the counter went past the range's last address and started again: its addresses may be in use */
  let wrapped = false;
  const brought = broughtAddresses(ctx.scenario.manifests);
  const host: Omit<PodWorkerHost, "status"> = {
    engine: ctx.engine,
    trace: ctx.trace,
    node,
    settings: ctx.kubelet,
    manualProbeResetsTicker: kubelet.minor >= MANUAL_PROBE_RESETS_TICKER_SINCE_MINOR,
    podReadyToStartContainers: kubelet.minor >= POD_READY_TO_START_CONTAINERS_SINCE_MINOR,
    keepStatusOnKubeletRestart: kubelet.minor >= KUBELET_RESTART_KEEPS_POD_STATUS_SINCE_MINOR,
    containerRestartRules: kubelet.minor >= CONTAINER_RESTART_RULES_SINCE_MINOR,
    // One for all the kubelet's pods (newCrashLoopBackOff reads the kubelet's configuration).
    crashLoop: {
      enabled: ctx.kubelet.crashLoopBackOff,
      initialSeconds: ctx.kubelet.crashLoopBackOffInitial,
      maxSeconds: ctx.kubelet.crashLoopBackOffMax,
      exactRequeue: kubelet.minor >= EXACT_CRASHLOOP_REQUEUE_SINCE_MINOR,
    },
    api: bulk ? bulk.api(ctx, api) : api,
    healthChecks: {
      callers: (ctx.scenario.traffic?.length ?? 0) > 0,
      latency: (podIP) => ctx.traffic?.healthCheckLatency(podIP, ctx.engine.now),
    },
    connected: () => kubelet.connected(),
    planeChanges: kubelet.planeChanges ?? { count: 0, bootingUntil: Number.NEGATIVE_INFINITY },
    get kubeletStartedAt() {
      return kubelet.kubeletStartedAt;
    },
    // Forked on first use, after every component has forked its own: adds no draw to any other stream.
    rng: () => {
      proberRng ??= ctx.engine.rng.fork(`prober/${node}`);
      return proberRng;
    },
    nextIp: () => {
      // host-local IPAM (containernetworking/plugins plugins/ipam/host-local/backend/allocator/
      // allocator.go, GetIter and RangeIter.Next): round-robin from the last reserved address + 1,
      // from RangeEnd (the last before broadcast) back to RangeStart (network + 1), skipping those
      // in use. Before a wrap, every pod here has its address from this counter, below the next
      // one, or brought it (a cluster dump's pods keep theirs): only a brought address can be
      // taken, so only those are looked for. Two differences, kept so that every run's addresses
      // stay as they were: Next also skips the range's Gateway (.1, the bridge's cni0 with flannel),
      // where the count here starts at .1; and a range with every address in use (a /24 holding
      // more than 254 pods at once, a maxPods above the default 110 that high) gives one in use
      // again, where Get fails the sandbox ("no IP addresses available in range set").
      for (let tries = 0; ; tries++) {
        if (ipCounter > cidr.hosts) {
          ipCounter = 1;
          wrapped = true;
        }
        const ip = ipv4(cidr.network + ipCounter++);
        if (tries >= cidr.hosts || !(wrapped || brought.has(ip))) return ip;
        if (!takenOn(ctx.store.podSetOnNode(node), ip)) return ip;
      }
    },
    whenRuntime: (action) => kubelet.whenRuntime(action),
    started: (pod) => kubelet.started(pod),
  };
  return Object.assign(host, { status: new StatusManager(host) });
}

/**
 * A node's pod CIDR when the scenario gives none, as kube-controller-manager's range allocator gives
 * them (--allocate-node-cidrs; --cluster-cidr cut by --node-cidr-mask-size, 24 for IPv4 by default;
 * pkg/controller/nodeipam/ipam/range_allocator.go): one /24 per node. Up to 255 nodes the cluster
 * CIDR is flannel's 10.244.0.0/16 (kube-flannel.yml net-conf.json "Network", the usual kubeadm
 * --pod-network-cidr), node i taking 10.244.i.0/24. A /16 holds 256 of them, so a larger cluster is
 * taken to have 10.0.0.0/8 (65,536 of them), node i taking 10.<i div 256>.<i mod 256>.0/24.
 */
export function podCidr(index: number, nodes: number): Ipv4Cidr {
  const third = nodes <= 255 ? 244 * 256 + index : index;
  return { network: (10 * 65536 + third) * 256, hosts: 254 };
}

function takenOn(pods: ReadonlySet<Pod>, ip: string): boolean {
  for (const p of pods) if (p.status.podIP === ip) return true;
  return false;
}

/** The scenario's pods' addresses, by its manifests (one scan for all kubelets). */
const broughtByScenario = new WeakMap<object, ReadonlySet<string>>();

/**
 * The addresses the scenario's pods come with (a cluster dump's, load/cluster/dump.ts): the only
 * pod addresses not given by a kubelet's counter (a manifest's pod or a controller's starts with none).
 */
function broughtAddresses(manifests: readonly { object: KubeObject }[]): ReadonlySet<string> {
  let ips = broughtByScenario.get(manifests);
  if (ips === undefined) {
    const found = new Set<string>();
    for (const m of manifests)
      if (m.object.kind === "Pod" && m.object.status.podIP) found.add(m.object.status.podIP);
    ips = found;
    broughtByScenario.set(manifests, ips);
  }
  return ips;
}
