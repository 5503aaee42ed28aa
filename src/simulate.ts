// load → run → report: builds the cluster from a scenario, warms it up, plays the timeline and
// returns the trace. Pure: no file system, no wall clock (the HTML report runs it in a browser).

import type { Context, RunningCopy } from "./cluster/context.ts";
import { Store } from "./cluster/store.ts";
import { AttachDetachController } from "./controllers/attach-detach-controller.ts";
import { DaemonSetController } from "./controllers/daemonset-controller.ts";
import { EndpointSliceController } from "./controllers/endpointslice-controller.ts";
import { NodeLifecycleController } from "./controllers/node-lifecycle-controller.ts";
import { PodGCController } from "./controllers/podgc-controller.ts";
import { ReplicaSetController } from "./controllers/replicaset-controller.ts";
import { Scheduler, SchedulerCache } from "./controllers/scheduler.ts";
import { StatefulSetController } from "./controllers/statefulset-controller.ts";
import { TaintEvictionController } from "./controllers/taint-eviction-controller.ts";
import { Engine } from "./engine/engine.ts";
import { Faults } from "./faults/faults.ts";
import { Kubelet } from "./kubelet/kubelet.ts";
import { admitPod } from "./kubernetes/admission.ts";
import { kubeletVersionString } from "./kubernetes/defaults.ts";
import { nodeStatus, podStatusColumn } from "./kubernetes/kubectl.ts";
import type { KubeObject } from "./kubernetes/objects.ts";
import { taintString } from "./kubernetes/taints.ts";
import { resolveSettings } from "./scenario/settings.ts";
import type { Behaviour, Scenario } from "./scenario/types.ts";
import { Trace, type TraceEvent } from "./trace/events.ts";
import { createTraffic, type Lever, type TrafficResult } from "./traffic/index.ts";

/**
 * How long the cluster runs, unrecorded, before t=0: nodes register, leases settle into their
 * phases, a `start: running` scenario's pods are scheduled, started and Ready.
 */
export const WARM_UP_SECONDS = 600;

export interface SimulationResult {
  scenario: string;
  kubernetesVersion: string;
  seed: number;
  events: TraceEvent[];
  summary: Summary;
  /** What the callers felt (issue 4); present when the scenario has a `traffic` section. */
  traffic?: TrafficResult;
}

export interface Summary {
  duration: number;
  /** engine events run, including the warm-up: the benchmark's unit */
  engineEvents: number;
  settings: Record<string, number | boolean | string>;
  nodes: { name: string; status: string; taints: string[] }[];
  pods: { pod: string; node: string | null; status: string; ready: boolean }[];
  /** ReadWriteOnce volumes attached at the end, and where */
  volumes: { claim: string; node: string }[];
  eventCounts: Record<string, number>;
}

export interface SimulateOptions {
  seed?: number;
  /**
   * Also run the scenario with each lever pulled and report what it saves: whatif/'s pullLevers,
   * injected so that the run does not import the layer above it.
   */
  levers?: (scenario: Scenario, seed: number, baseline: TrafficResult) => Lever[];
  /** called once the warm-up is over, at t=0 (for benchmarks: the model itself reads no clock) */
  onWarmedUp?: () => void;
}

export function simulate(scenario: Scenario, options: SimulateOptions = {}): SimulationResult {
  const seed = options.seed ?? scenario.seed;
  const settings = resolveSettings(scenario);
  const profile = settings.profile;
  const engine = new Engine(seed);
  engine.now = -WARM_UP_SECONDS;
  const store = new Store(engine);
  const trace = new Trace(engine);
  trace.muted = true;
  const kubelets = new Map<string, Kubelet>();
  const ctx: Context = {
    engine,
    store,
    trace,
    scenario,
    version: scenario.kubernetesVersion,
    versionString: kubeletVersionString(scenario.kubernetesVersion),
    controlPlane: settings.controlPlane,
    kubelet: settings.kubelet,
    names: engine.rng.fork("names"),
    machines: {
      runningCopies(match) {
        const out: RunningCopy[] = [];
        // Only copies the API has lost control of matter: those on powered machines whose kubelet is cut off.
        for (const k of kubelets.values()) {
          if (!k.powered || k.connected()) continue;
          for (const c of k.runningCopies())
            if (match(c.podName, c.namespace, k.procOwner(c.uid))) out.push(c);
        }
        return out;
      },
      dataPlane: (node) => kubelets.get(node)?.dataPlane() ?? "off",
      appState: (node, ip) => kubelets.get(node)?.appState(ip) ?? "absent",
      volumeInUse: (node, claim) => kubelets.get(node)?.volumeInUse(claim) ?? false,
      reachable: (node) => kubelets.get(node)?.connected() ?? false,
    },
    behaviour: (ns, owner, podName, container) => behaviourFor(scenario, ns, owner, podName, container),
  };

  scenario.nodes.forEach((spec, i) => {
    const k = new Kubelet(ctx, spec, i + 1);
    kubelets.set(spec.name, k);
    k.registerAtStart(-WARM_UP_SECONDS);
  });
  store.watch("Pod", (type, pod) => {
    if (pod.spec.nodeName) kubelets.get(pod.spec.nodeName)?.podEvent(type, pod);
  });
  const cache = new SchedulerCache(ctx);
  new NodeLifecycleController(ctx);
  new TaintEvictionController(ctx);
  const replicaSets = new ReplicaSetController(ctx);
  new StatefulSetController(ctx);
  new DaemonSetController(ctx);
  new Scheduler(ctx, cache);
  new EndpointSliceController(ctx);
  new PodGCController(ctx);
  new AttachDetachController(ctx);

  const createManifests = () => {
    for (const m of scenario.manifests) {
      const obj = structuredClone(m.object) as KubeObject;
      obj.metadata.creationTimestamp = engine.now;
      // A bare Pod passes the API server's admission like every pod a controller creates.
      if (obj.kind === "Pod") admitPod(obj, ctx.controlPlane);
      store.create(obj);
      if (obj.kind === "Deployment") replicaSets.syncDeployment(obj);
    }
  };
  if (scenario.start === "running") createManifests();
  engine.run(0);
  trace.muted = false;
  options.onWarmedUp?.();
  if (scenario.start === "created") createManifests();

  // Built before the faults, so that at a step's instant the callers' requests sent before it
  // are resolved first (equal times run in scheduling order).
  const traffic = createTraffic(ctx, scenario, profile);
  if (traffic) ctx.traffic = traffic;
  const faults = new Faults(ctx, kubelets);
  faults.schedule(scenario.timeline);
  engine.run(scenario.duration);

  const result: SimulationResult = {
    scenario: scenario.name,
    kubernetesVersion: scenario.kubernetesVersion,
    seed,
    events: trace.events,
    summary: summarize(ctx, scenario, engine.processed),
  };
  if (traffic) {
    result.traffic = traffic.result_();
    if (options.levers) result.traffic.levers = options.levers(scenario, seed, result.traffic);
  }
  return result;
}

function behaviourFor(
  scenario: Scenario,
  ns: string,
  owner: string | undefined,
  podName: string,
  container?: string,
): Behaviour {
  const workload = owner ? owner.split("/")[2]! : podName;
  void ns;
  return {
    ...(scenario.behaviour[workload] ?? {}),
    ...(container ? (scenario.behaviour[`${workload}/${container}`] ?? {}) : {}),
  };
}

function summarize(ctx: Context, scenario: Scenario, processed: number): Summary {
  const counts: Record<string, number> = {};
  for (const e of ctx.trace.events) counts[e.type] = (counts[e.type] ?? 0) + 1;
  const cp = ctx.controlPlane;
  return {
    duration: scenario.duration,
    engineEvents: processed,
    settings: {
      nodeMonitorPeriod: cp.nodeMonitorPeriod,
      nodeMonitorGracePeriod: cp.nodeMonitorGracePeriod,
      nodeEvictionRate: cp.nodeEvictionRate,
      secondaryNodeEvictionRate: cp.secondaryNodeEvictionRate,
      largeClusterSizeThreshold: cp.largeClusterSizeThreshold,
      unhealthyZoneThreshold: cp.unhealthyZoneThreshold,
      defaultNotReadyTolerationSeconds: cp.defaultNotReadyTolerationSeconds,
      defaultUnreachableTolerationSeconds: cp.defaultUnreachableTolerationSeconds,
      disableForceDetachOnTimeout: cp.disableForceDetachOnTimeout,
      nodeLeaseDurationSeconds: ctx.kubelet.nodeLeaseDurationSeconds,
    },
    nodes: ctx.store.list("Node").map((n) => ({
      name: n.metadata.name,
      status: nodeStatus(n),
      taints: (n.spec.taints ?? []).map(taintString),
    })),
    pods: ctx.store.list("Pod").map((p) => ({
      pod: `${p.metadata.namespace}/${p.metadata.name}`,
      node: p.spec.nodeName ?? null,
      status: podStatusColumn(p),
      ready: p.status.conditions.some((c) => c.type === "Ready" && c.status === "True"),
    })),
    volumes: ctx.store.list("VolumeAttachment").map((v) => ({ claim: v.spec.claim, node: v.spec.nodeName })),
    eventCounts: Object.fromEntries(Object.entries(counts).sort()),
  };
}
