// The cluster a run plays on, before anything moves: its context (the parts, the admission
// defaults, the flags, what the machines answer) and its members — a kubelet per node,
// kube-controller-manager's controllers, kube-scheduler — with the manifests to create. simulate.ts
// wires them to the clock, the faults and the callers.

import type { Context, RunningCopy } from "../cluster/context.ts";
import { AttachDetachController } from "../controllers/attach-detach-controller.ts";
import { CronJobController } from "../controllers/cronjob-controller.ts";
import { DaemonSetController } from "../controllers/daemonset-controller.ts";
import { EndpointSliceController } from "../controllers/endpointslice-controller.ts";
import { JobController } from "../controllers/job-controller.ts";
import { NodeLifecycleController } from "../controllers/node-lifecycle-controller.ts";
import { PersistentVolumeController } from "../controllers/persistentvolume-controller.ts";
import { PodGCController } from "../controllers/podgc-controller.ts";
import { ReplicaSetController } from "../controllers/replicaset-controller.ts";
import { StatefulSetController } from "../controllers/statefulset-controller.ts";
import { TaintEvictionController } from "../controllers/taint-eviction-controller.ts";
import { BulkStart } from "../kubelet/bulk-start.ts";
import { Kubelet } from "../kubelet/kubelet.ts";
import { admitPod, recognizeAdmissionTolerations } from "../kubernetes/admission.ts";
import { kubeletVersionString, maxUnavailableStatefulSet, minor } from "../kubernetes/defaults.ts";
import type { KubeObject } from "../kubernetes/objects.ts";
import { admitPodPriority, systemPriorityClasses } from "../kubernetes/priority.ts";
import type { Platform } from "../platforms/index.ts";
import { platformStorageClass } from "../platforms/storage-class.ts";
import type { resolveSettings } from "../scenario/settings.ts";
import type { Scenario } from "../scenario/types.ts";
import { Scheduler, SchedulerCache } from "../scheduler/scheduler.ts";
import { behaviourFor, classesFirst, declaresClass } from "./scenario-reads.ts";

export interface CutOff {
  kubelets: Kubelet[];
  stale: boolean;
}

function cutOff(cut: CutOff, kubelets: Map<string, Kubelet>): readonly Kubelet[] {
  if (cut.stale) {
    cut.kubelets = [...kubelets.values()].filter((m) => m.powered && !m.connected());
    cut.stale = false;
  }
  return cut.kubelets;
}

/** The cluster's context: its parts, the admission defaults, the flags, what the machines answer. */
export function clusterContext(
  scenario: Scenario,
  settings: ReturnType<typeof resolveSettings>,
  parts: Pick<Context, "engine" | "store" | "trace">,
  kubelets: Map<string, Kubelet>,
  cut: CutOff,
): Context {
  const controlPlane = settings.controlPlane;
  const ctx: Context = {
    ...parts,
    names: parts.engine.rng.fork("names"),
    ...(settings.profile.platform ? { platformStorage: true } : {}),
    admission: {
      defaultNotReadyTolerationSeconds: controlPlane.defaultNotReadyTolerationSeconds,
      defaultUnreachableTolerationSeconds: controlPlane.defaultUnreachableTolerationSeconds,
    },
    scenario,
    version: scenario.kubernetesVersion,
    versionString: kubeletVersionString(scenario.kubernetesVersion, scenario.kubernetesPatch),
    controlPlane,
    kubelet: settings.kubelet,
    machines: {
      changes: { count: 0, bootingUntil: Number.NEGATIVE_INFINITY },
      runningCopies(match) {
        const out: RunningCopy[] = [];
        // Only copies the API has lost control of matter: those on powered machines whose kubelet is cut off.
        for (const k of cutOff(cut, kubelets)) {
          for (const c of k.runningCopies())
            if (match(c.podName, c.namespace, k.procOwner(c.uid))) out.push(c);
        }
        return out;
      },
      dataPlane: (node) => kubelets.get(node)?.dataPlane() ?? "off",
      appState: (node, ip) => kubelets.get(node)?.appState(ip) ?? "absent",
      reachable: (node) => kubelets.get(node)?.connected() ?? false,
    },
    checkedApps: new Set(),
    // The run's scenario once it plays (a run played from a shared warm-up has its own: warm-serves.ts).
    behaviour: (ns, owner, podName, container, init) =>
      behaviourFor(ctx.scenario, ns, owner, podName, container, init),
  };
  return ctx;
}

/** A kubelet per node, kube-controller-manager's controllers and kube-scheduler; the manifests, to create. */
export function buildCluster(
  ctx: Context,
  kubelets: Map<string, Kubelet>,
  /** the profile's platform: its StorageClass is in the cluster from the start */
  platform: Platform | undefined,
  /** when the kubelets register: the warm-up's start, before t=0 */
  registerAt: number,
): {
  bulk: BulkStart;
  taintEviction: TaintEvictionController | undefined;
  cronJobs: CronJobController;
  createManifests: () => void;
} {
  const { engine, store, scenario } = ctx;
  const controlPlane = ctx.controlPlane;
  // The warm-up's pods start in bulk (kubelet/bulk-start.ts); their endpoints go to the controller below.
  let endpointSlices: EndpointSliceController | undefined;
  const bulk = new BulkStart(engine, (pods) => endpointSlices?.podsStarted(pods));
  scenario.nodes.forEach((spec, i) => {
    const k = new Kubelet(ctx, spec, i + 1, bulk);
    kubelets.set(spec.name, k);
    k.registerAtStart(registerAt);
  });
  store.watch("Pod", (type, pod) => {
    if (pod.spec.nodeName) kubelets.get(pod.spec.nodeName)?.podEvent(type, pod);
  });
  store.watch("Node", (type, node) => kubelets.get(node.metadata.name)?.nodeEvent(type));
  // kube-controller-manager and kube-scheduler: each controller gets the cluster and its own flags.
  const cache = new SchedulerCache(ctx);
  new NodeLifecycleController(ctx, controlPlane);
  // --controllers=*,-taint-eviction-controller (KEP-3902): the taints stay, nothing evicts for them.
  const taintEviction = controlPlane.taintEvictionController ? new TaintEvictionController(ctx) : undefined;
  const replicaSets = new ReplicaSetController(ctx);
  new StatefulSetController(ctx, {
    maxUnavailableStatefulSet: maxUnavailableStatefulSet(
      scenario.kubernetesVersion,
      scenario.kubernetesPatch,
    ),
  });
  new DaemonSetController(ctx);
  new JobController(ctx, scenario.kubernetesVersion);
  const cronJobs = new CronJobController(ctx, scenario.duration);
  new Scheduler(ctx, cache, { version: scenario.kubernetesVersion });
  endpointSlices = new EndpointSliceController(ctx);
  new PodGCController(ctx);
  new AttachDetachController(ctx, {
    disableForceDetachOnTimeout: controlPlane.disableForceDetachOnTimeout,
    version: scenario.kubernetesVersion,
  });
  new PersistentVolumeController(ctx);

  const createManifests = () => {
    // The API server has its system PriorityClasses from its start, and a pod's class must exist
    // before the pod: the classes first.
    for (const pc of systemPriorityClasses()) store.create(pc);
    const platformClass = platform && platformStorageClass(platform, minor(scenario.kubernetesVersion));
    if (platformClass && !declaresClass(scenario, platformClass.metadata.name)) store.create(platformClass);
    for (const m of [...scenario.manifests].sort(classesFirst)) {
      // A dump lists the system classes too: the API server's own are those.
      if (m.object.kind === "PriorityClass" && store.get("PriorityClass", m.object.metadata.name)) continue;
      const obj = structuredClone(m.object) as KubeObject;
      obj.metadata.creationTimestamp = engine.now;
      // A bare Pod passes the API server's admission like every pod a controller creates; a dump's
      // pods passed it when they were made (their priority is the one recorded).
      if (obj.kind === "Pod" && scenario.cluster) recognizeAdmissionTolerations(obj, ctx.admission);
      if (obj.kind === "Pod") admitPod(obj, ctx.admission);
      if (obj.kind === "Pod" && !(scenario.cluster && obj.spec.priority !== undefined))
        admitPodPriority(obj, store);
      store.create(obj);
      // A dump's Deployments find their ReplicaSets through the Deployment watch, once every object exists.
      if (obj.kind === "Deployment" && !scenario.cluster) replicaSets.syncDeployment(obj);
    }
  };
  return { bulk, taintEviction, cronJobs, createManifests };
}
