// What the scenario's timeline can do to the cluster: power, network, kubelet (through a narrow
// Machine interface the kubelet implements), operator actions through the API (cordon, drain,
// delete, taint, force delete) and what happens inside an application (deadlock, crash, a
// dependency down). Each step is recorded as FaultInjected, with Notes saying what a node action
// means for each lane before anything is detected; report/messages/timeline.ts writes the prose.

import { removePod, workloadOf } from "../cluster/api.ts";
import type { Cluster } from "../cluster/context.ts";
import { controllerOf } from "../cluster/store.ts";
import type { ShutdownConfig } from "../kubelet/node-shutdown.ts";
import type { Pod } from "../kubernetes/objects.ts";
import { hasTaint, TAINT_OUT_OF_SERVICE, taintString } from "../kubernetes/taints.ts";
import type { FaultAction, TimelineStep } from "../scenario/types.ts";
import type { Lane } from "../trace/events.ts";
import type { PodActionOutcome, TimelineStepRef } from "../trace/timeline-events.ts";
import { Drains } from "./drain.ts";
import { type SpotHandling, spotInterruption } from "./spot.ts";

export class UnsupportedFault extends Error {}

/** A machine as the timeline acts on it: power, network, the kubelet process, the pods' processes. */
export interface Machine {
  powerOff(): void;
  powerOn(): void;
  /** The instance is deleted: the machine stops as at power-off, and the cloud no longer finds it. */
  terminate(): void;
  /**
   * The OS is asked to shut down (ACPI soft off, `systemctl poweroff`): the kubelet's graceful node
   * shutdown, `done` when it released its inhibit lock; false when it has no grace (immediate).
   */
  gracefulShutdown(config: ShutdownConfig, done: () => void): boolean;
  partition(): void;
  heal(): void;
  kubeletStop(): void;
  kubeletStart(): void;
  runtimeDown(): void;
  runtimeUp(): void;
  /** The process of a pod running here, by the pod's uid. */
  podWorker(uid: string): PodProcess | undefined;
}

/** An application's process, as a pod action reaches it. */
export interface PodProcess {
  readonly running: boolean;
  deadlock(): void;
  recover(): void;
  setDependency(up: boolean): void;
  /** The process exits on its own, for this step of the timeline. */
  crash(step: TimelineStepRef): void;
}

/** The lanes each node action speaks to (Note events), before the control plane notices anything. */
const NOTES: Partial<Record<FaultAction, Lane[]>> = {
  "power-off": ["kubelet", "app", "network"],
  "vm-terminated": ["kubelet", "app", "network"],
  "network-partition": ["kubelet", "app"],
  "kubelet-stop": ["kubelet", "app"],
  "runtime-down": ["kubelet", "app"],
};

export class Faults {
  /** The timeline's drains, for the run's summary. */
  readonly drains: Drains;

  constructor(
    private readonly cluster: Cluster,
    private readonly machines: ReadonlyMap<string, Machine>,
    /** the kubelets' graceful node shutdown settings (KubeletConfiguration): what `shutdown` does */
    private readonly kubelet: ShutdownConfig,
    /** the platform's spot notice (a platform profile): what `spot-interruption` does */
    private readonly spot?: SpotHandling,
  ) {
    this.drains = new Drains(cluster);
  }

  schedule(steps: TimelineStep[]): void {
    for (const step of steps) this.cluster.engine.at(step.at, () => this.apply(step));
  }

  private apply(step: TimelineStep): void {
    const ref = refOf(step);
    const node = step.node ?? "";
    const machine = this.machines.get(node);
    const inject = () =>
      this.cluster.trace.emit({
        type: "FaultInjected",
        lane: "operator",
        object: step.node ? `Node/${node}` : `Pod/${step.pod}`,
        ...(step.node ? { node } : {}),
        do: step.do,
        step: ref,
      });
    switch (step.do) {
      case "force-delete-pod":
        this.forceDelete(step, ref);
        return;
      case "rollout-restart":
        this.rolloutRestart(step, ref);
        return;
      case "deadlock":
      case "crash":
      case "dependency-down":
      case "dependency-up":
      case "recover":
        this.podAction(step, ref);
        return;
      case "spot-interruption": {
        const spot = this.spot;
        inject();
        if (machine && spot) spotInterruption(this.cluster, machine, spot, () => this.spotDrain(step, ref));
        return;
      }
    }
    // An action not modelled is refused before anything is recorded of it.
    const act = this.machineAction(step.do, node, machine) ?? this.apiAction(step, node, ref);
    inject();
    act();
  }

  /** A step done to the machine (its power, network, kubelet or runtime); undefined when it is not one. */
  private machineAction(
    action: TimelineStep["do"],
    node: string,
    machine: Machine | undefined,
  ): (() => void) | undefined {
    const notes = () => {
      for (const lane of NOTES[action] ?? [])
        this.cluster.trace.emit({ type: "Note", lane, object: `Node/${node}`, node, do: action });
    };
    const calls: Partial<Record<TimelineStep["do"], () => void>> = {
      "power-off": () => machine?.powerOff(),
      shutdown: () => this.shutdown(node, machine),
      "vm-terminated": () => machine?.terminate(),
      "network-partition": () => machine?.partition(),
      "kubelet-stop": () => machine?.kubeletStop(),
      "runtime-down": () => machine?.runtimeDown(),
      "power-on": () => machine?.powerOn(),
      "network-heal": () => machine?.heal(),
      "kubelet-start": () => machine?.kubeletStart(),
      "runtime-up": () => machine?.runtimeUp(),
    };
    const call = calls[action];
    return call
      ? () => {
          call();
          notes();
        }
      : undefined;
  }

  /** A step an operator does through the API server (kubectl cordon, drain, delete, taint). */
  private apiAction(step: TimelineStep, node: string, ref: TimelineStepRef): () => void {
    switch (step.do) {
      case "cordon":
      case "uncordon":
        return () => this.setUnschedulable(node, step.do === "cordon");
      case "drain":
        return () => {
          this.setUnschedulable(node, true);
          this.drains.drain(step, ref);
        };
      case "delete-node":
        return () => this.deleteNode(node, ref);
      case "taint-out-of-service":
        return () => this.taintOutOfService(node, ref);
      default:
        throw new UnsupportedFault(`timeline action "${step.do}" is not modelled`);
    }
  }

  /**
   * `shutdown`: logind's PrepareForShutdown reaches the kubelet, whose graceful node shutdown
   * (kubelet/node-shutdown.ts) holds the machine until its groups are done; with no
   * shutdownGracePeriod (the default) nothing holds it: it powers off at once.
   */
  private shutdown(node: string, machine: Machine | undefined): void {
    if (!machine) return;
    if (machine.gracefulShutdown(this.kubelet, () => machine.powerOff())) return;
    machine.powerOff();
    for (const lane of ["kubelet", "app", "network"] as const)
      this.cluster.trace.emit({ type: "Note", lane, object: `Node/${node}`, node, do: "shutdown" });
  }

  /** The node termination handler's (or Karpenter's) cordon and drain on a spot notice. */
  private spotDrain(step: TimelineStep, ref: TimelineStepRef): void {
    this.setUnschedulable(step.node ?? "", true);
    this.drains.drain({ ...step, ignoreDaemonSets: true, deleteEmptyDirData: true, force: true }, ref);
  }

  /** `kubectl delete node`: the Node object and its Lease leave the API; the machine runs on. */
  private deleteNode(node: string, step: TimelineStepRef): void {
    const obj = this.cluster.store.get("Node", node);
    if (obj) {
      this.cluster.store.delete(obj);
      this.cluster.trace.emit({
        type: "NodeDeleted",
        lane: "operator",
        object: `Node/${node}`,
        node,
        by: "operator",
        step,
      });
    }
    const lease = this.cluster.store.get("Lease", `kube-node-lease/${node}`);
    if (lease) this.cluster.store.delete(lease);
  }

  /** `kubectl taint nodes <node> node.kubernetes.io/out-of-service=nodeshutdown:NoExecute` (non-graceful node shutdown). */
  private taintOutOfService(node: string, step: TimelineStepRef): void {
    const obj = this.cluster.store.get("Node", node);
    // Taints are unique by key and effect: a second `kubectl taint` without --overwrite fails.
    if (!obj || hasTaint(obj.spec.taints, TAINT_OUT_OF_SERVICE, "NoExecute")) return;
    obj.spec.taints = [
      ...(obj.spec.taints ?? []),
      {
        key: TAINT_OUT_OF_SERVICE,
        value: "nodeshutdown",
        effect: "NoExecute",
        timeAdded: this.cluster.engine.now,
      },
    ];
    this.cluster.store.update(obj);
    this.cluster.trace.emit({
      type: "NodeTainted",
      lane: "operator",
      object: `Node/${node}`,
      node,
      taint: `${TAINT_OUT_OF_SERVICE}:NoExecute`,
      taints: obj.spec.taints.map(taintString),
      by: "operator",
      step,
    });
  }

  /**
   * `kubectl rollout restart statefulset/<name>` (kubectl's objectrestarter): the template's
   * kubectl.kubernetes.io/restartedAt annotation set to now, so the set has a new revision.
   */
  private rolloutRestart(step: TimelineStep, ref: TimelineStepRef): void {
    const t = step.target;
    const sts = t ? this.cluster.store.get("StatefulSet", `${t.namespace}/${t.workload}`) : undefined;
    this.cluster.trace.emit({
      type: "FaultInjected",
      lane: "operator",
      object: `StatefulSet/${t?.namespace ?? ""}/${t?.workload ?? ""}`,
      do: step.do,
      step: ref,
    });
    if (!sts) return;
    const meta = sts.spec.template.metadata ?? {};
    meta.annotations = {
      ...meta.annotations,
      "kubectl.kubernetes.io/restartedAt": `t+${this.cluster.engine.now}s`,
    };
    sts.spec.template.metadata = meta;
    this.cluster.store.update(sts);
  }

  /** `kubectl delete pod --grace-period=0 --force`: the API forgets the pod at once. */
  private forceDelete(step: TimelineStep, ref: TimelineStepRef): void {
    const pods = this.resolvePods(step);
    const inject = (pod?: Pod) =>
      this.cluster.trace.emit({
        type: "FaultInjected",
        lane: "operator",
        object: `Pod/${step.pod}`,
        do: step.do,
        step: ref,
        ...(pod ? { pod: `${pod.metadata.namespace}/${pod.metadata.name}` } : { outcome: "no-pod" as const }),
      });
    if (pods.length === 0) inject();
    for (const pod of pods) {
      inject(pod);
      removePod(this.cluster, pod, { force: true, lane: "operator", by: "operator", step: ref });
    }
  }

  /** What happens inside the application: the kubelet's probes and restarts take it from there. */
  private podAction(step: TimelineStep, ref: TimelineStepRef): void {
    const pods = this.resolvePods(step);
    if (pods.length === 0) {
      this.cluster.trace.emit({
        type: "FaultInjected",
        lane: "operator",
        object: `Pod/${step.pod}`,
        do: step.do,
        step: ref,
        outcome: "no-pod",
      });
      return;
    }
    for (const pod of pods) {
      const node = pod.spec.nodeName;
      const worker = node ? this.machines.get(node)?.podWorker(pod.metadata.uid!) : undefined;
      // A dependency is outside the process: it goes down or up whether the process runs or not.
      const reaches =
        (worker?.running ?? false) || step.do === "dependency-up" || step.do === "dependency-down";
      const outcome: PodActionOutcome = reaches ? "applied" : "not-running";
      this.cluster.trace.emit({
        type: "FaultInjected",
        lane: "app",
        object: `Pod/${pod.metadata.namespace}/${pod.metadata.name}`,
        ...(node ? { node } : {}),
        do: step.do,
        step: ref,
        pod: `${pod.metadata.namespace}/${pod.metadata.name}`,
        outcome,
      });
      if (!worker) continue;
      if (step.do === "deadlock") worker.deadlock();
      else if (step.do === "crash") worker.crash(ref);
      else if (step.do === "dependency-down") worker.setDependency(false);
      else if (step.do === "dependency-up") worker.setDependency(true);
      else worker.recover();
    }
  }

  /**
   * The pods a step names (its target, resolved by load/): `<ns>/<name>` that pod; `<Kind>/<name>`
   * every pod of the workload; `<Kind>/<name>[i]` the i-th pod it created (from 0, oldest first).
   */
  resolvePods(step: TimelineStep): Pod[] {
    const t = step.target;
    if (!t) return [];
    const inNs = this.cluster.store.list("Pod").filter((p) => p.metadata.namespace === t.namespace);
    if (t.podName !== undefined) return inNs.filter((p) => p.metadata.name === t.podName);
    if (t.kind === "Pod") return inNs.filter((p) => p.metadata.name === t.workload);
    if (t.kind === "StatefulSet") {
      const ordinal = /-(\d+)$/;
      const members = inNs.filter(
        (p) =>
          controllerOf(p) === `StatefulSet/${t.namespace}/${t.workload}` && ordinal.test(p.metadata.name),
      );
      return t.index === undefined
        ? members
        : members.filter((p) => p.metadata.name === `${t.workload}-${t.index}`);
    }
    const owned = inNs
      .filter((p) => {
        const owner = controllerOf(p);
        if (t.kind === "Deployment")
          return (
            owner?.startsWith(`ReplicaSet/${t.namespace}/`) &&
            workloadOf(this.cluster, p) === `Deployment/${t.namespace}/${t.workload}`
          );
        return owner === `${t.kind}/${t.namespace}/${t.workload}`;
      })
      .sort(
        (a, b) =>
          (a.metadata.creationTimestamp ?? 0) - (b.metadata.creationTimestamp ?? 0) ||
          Number(a.metadata.uid!.slice(4)) - Number(b.metadata.uid!.slice(4)),
      );
    if (t.index === undefined) return owned;
    const pod = owned[t.index];
    return pod ? [pod] : [];
  }

  /** `kubectl cordon` / `uncordon`: spec.unschedulable. */
  private setUnschedulable(node: string, value: boolean): void {
    const obj = this.cluster.store.get("Node", node);
    if (!obj || (obj.spec.unschedulable ?? false) === value) return;
    obj.spec.unschedulable = value;
    this.cluster.store.update(obj);
  }
}

/** The step as the trace names it: only the fields it was written with. */
function refOf(step: TimelineStep): TimelineStepRef {
  return {
    at: step.at,
    do: step.do,
    ...(step.node !== undefined ? { node: step.node } : {}),
    ...(step.pod !== undefined ? { pod: step.pod } : {}),
    ...(step.force !== undefined ? { force: step.force } : {}),
    ...(step.deleteEmptyDirData !== undefined ? { deleteEmptyDirData: step.deleteEmptyDirData } : {}),
    ...(step.ignoreDaemonSets !== undefined ? { ignoreDaemonSets: step.ignoreDaemonSets } : {}),
  };
}
