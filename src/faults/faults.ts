// What the scenario's timeline can do to the cluster: power, network, kubelet, operator actions.
// Each fault changes the machine or the API the way the real action would, and says so in the trace.

import { deletePodGracefully, podReady, removePod, setPodCondition, workloadOf } from "../cluster/api.ts";
import type { Context } from "../cluster/context.ts";
import { controllerOf } from "../cluster/store.ts";
import type { Kubelet } from "../kubelet/kubelet.ts";
import { DRAIN_EVICTION_RETRY } from "../kubernetes/defaults.ts";
import { matchesSelector } from "../kubernetes/labels.ts";
import type { Pod, PodDisruptionBudget } from "../kubernetes/objects.ts";
import { hasTaint, TAINT_OUT_OF_SERVICE } from "../kubernetes/taints.ts";
import type { TimelineStep } from "../scenario/types.ts";
import { fmt } from "../trace/format.ts";

export class UnsupportedFault extends Error {}

export class Faults {
  constructor(
    private readonly ctx: Context,
    private readonly kubelets: Map<string, Kubelet>,
  ) {}

  schedule(steps: TimelineStep[]): void {
    for (const step of steps) this.ctx.engine.at(step.at, () => this.apply(step));
  }

  private apply(step: TimelineStep): void {
    const why = `the scenario's timeline: {at: ${fmt(step.at)}s, do: ${step.do}${step.node ? `, node: ${step.node}` : ""}${step.pod ? `, pod: ${step.pod}` : ""}}`;
    const node = step.node ?? "";
    const kubelet = this.kubelets.get(node);
    const inject = (message: string) =>
      this.ctx.trace.emit({
        type: "FaultInjected",
        lane: "operator",
        object: step.node ? `Node/${node}` : `Pod/${step.pod}`,
        do: step.do,
        message,
        why,
        ...(step.node ? { node } : {}),
      });
    const note = (lane: "kubelet" | "app" | "network", message: string, noteWhy: string, see?: string) =>
      this.ctx.trace.emit({
        type: "Note",
        lane,
        object: `Node/${node}`,
        node,
        message,
        why: noteWhy,
        ...(see ? { see } : {}),
      });
    switch (step.do) {
      case "power-off":
        inject(`${node} loses power`);
        kubelet?.powerOff();
        note(
          "kubelet",
          `the kubelet on ${node} stops renewing its Lease`,
          "the machine is gone; from the control plane a dead machine, a lost network and a crashed kubelet look the same: heartbeats stop",
        );
        note(
          "app",
          `requests to pods on ${node} stop being answered; each caller waits on its own timeout`,
          "nothing on the machine runs to answer or refuse",
          "rising latency in the callers, before any Kubernetes object changes state",
        );
        note(
          "network",
          `nothing removes ${node}'s endpoints yet: Services keep sending new requests there`,
          "nothing has been detected: a missing heartbeat is not yet meaningful",
        );
        return;
      case "power-on":
        inject(`${node} is powered on again`);
        kubelet?.powerOn();
        return;
      case "network-partition":
        inject(`${node} is cut off: it cannot reach the control plane and nobody reaches it`);
        kubelet?.partition();
        note(
          "kubelet",
          `the kubelet on ${node} keeps running but cannot renew its Lease`,
          "its requests to the API server fail; it retries with backoff (200ms doubling to 7s)",
        );
        note(
          "app",
          `${node}'s containers keep running, but no caller can reach them`,
          "the partition cuts traffic both ways",
          "timeouts rather than connection refusals",
        );
        return;
      case "network-heal":
        inject(`${node}'s network is back`);
        kubelet?.heal();
        return;
      case "kubelet-stop":
        inject(`the kubelet on ${node} stops (crash or systemctl stop kubelet)`);
        kubelet?.kubeletStop();
        note("kubelet", `no Lease renewals from ${node}`, "the kubelet process is gone");
        note(
          "app",
          `${node}'s containers keep running and keep answering`,
          "stopping the kubelet does not stop its pods",
        );
        return;
      case "kubelet-start":
        inject(`the kubelet on ${node} starts again`);
        kubelet?.kubeletStart();
        return;
      case "cordon":
      case "uncordon": {
        inject(`kubectl ${step.do} ${node}`);
        this.setUnschedulable(node, step.do === "cordon");
        return;
      }
      case "drain":
        inject(`kubectl drain ${node} --ignore-daemonsets`);
        this.drain(node, why);
        return;
      case "delete-node": {
        inject(`kubectl delete node ${node}`);
        const obj = this.ctx.store.get("Node", node);
        if (obj) {
          this.ctx.store.delete(obj);
          this.ctx.trace.emit({
            type: "NodeDeleted",
            lane: "operator",
            object: `Node/${node}`,
            node,
            message: `Node ${node} is deleted from the API`,
            why,
            see: `$ kubectl get node ${node}\nError from server (NotFound): nodes "${node}" not found`,
          });
        }
        const lease = this.ctx.store.get("Lease", `kube-node-lease/${node}`);
        if (lease) this.ctx.store.delete(lease);
        return;
      }
      case "taint-out-of-service": {
        inject(`kubectl taint nodes ${node} ${TAINT_OUT_OF_SERVICE}=nodeshutdown:NoExecute`);
        const obj = this.ctx.store.get("Node", node);
        // Taints are unique by key and effect: a second `kubectl taint` without --overwrite fails.
        if (!obj || hasTaint(obj.spec.taints, TAINT_OUT_OF_SERVICE, "NoExecute")) return;
        obj.spec.taints = [
          ...(obj.spec.taints ?? []),
          {
            key: TAINT_OUT_OF_SERVICE,
            value: "nodeshutdown",
            effect: "NoExecute",
            timeAdded: this.ctx.engine.now,
          },
        ];
        this.ctx.store.update(obj);
        this.ctx.trace.emit({
          type: "NodeTainted",
          lane: "operator",
          object: `Node/${node}`,
          node,
          taint: `${TAINT_OUT_OF_SERVICE}:NoExecute`,
          message: `${node} is marked out of service (non-graceful node shutdown)`,
          why: `${why}: it tells Kubernetes the node is shut down, so its pods and volumes can move`,
        });
        return;
      }
      case "force-delete-pod": {
        const pods = this.resolvePods(step);
        if (pods.length === 0) inject(`kubectl delete pod ${step.pod} --grace-period=0 --force`);
        for (const pod of pods) {
          inject(`kubectl delete pod ${pod.metadata.name} --grace-period=0 --force`);
          removePod(this.ctx, pod, {
            force: true,
            lane: "operator",
            message: `${pod.metadata.name} is force-deleted: the API forgets it at once, whether or not its containers still run`,
            why,
          });
        }
        return;
      }
      case "deadlock":
      case "crash":
      case "dependency-down":
      case "dependency-up":
      case "recover":
        this.podAction(step, why);
        return;
      default:
        throw new UnsupportedFault(`timeline action "${step.do}" is not modelled`);
    }
  }

  /** What happens inside the application: the kubelet's probes and restarts take it from there. */
  private podAction(step: TimelineStep, why: string): void {
    const pods = this.resolvePods(step);
    const what: Record<string, [string, string]> = {
      deadlock: [
        "the process of {pod} deadlocks: it still runs but answers nothing",
        "health checks time out (a tcpSocket check still connects: the kernel completes the handshake); requests hang until the caller's timeout",
      ],
      crash: [
        "the process of {pod} crashes",
        "its containers exit; the kubelet restarts them per restartPolicy",
      ],
      "dependency-down": [
        "a dependency of {pod} goes down",
        "its readiness endpoint reports failure; liveness still passes, so nothing restarts",
      ],
      "dependency-up": ["the dependency of {pod} is back", "its readiness endpoint passes again"],
      recover: ["{pod} recovers: the deadlock or slowness ends", "it answers again"],
    };
    const [message, effect] = what[step.do]!;
    if (pods.length === 0) {
      this.ctx.trace.emit({
        type: "FaultInjected",
        lane: "operator",
        object: `Pod/${step.pod}`,
        do: step.do,
        message: message.replace("{pod}", step.pod ?? ""),
        why: `${why}; no such pod exists at this moment, so nothing happens`,
      });
      return;
    }
    for (const pod of pods) {
      const node = pod.spec.nodeName;
      const worker = node ? this.kubelets.get(node)?.podWorker(pod.metadata.uid!) : undefined;
      const running = worker?.running ?? false;
      this.ctx.trace.emit({
        type: "FaultInjected",
        lane: "app",
        object: `Pod/${pod.metadata.namespace}/${pod.metadata.name}`,
        do: step.do,
        message: message.replace("{pod}", pod.metadata.name),
        why:
          running || step.do === "dependency-up" || step.do === "dependency-down"
            ? `${why}: ${effect}`
            : `${why}; its containers are not running, so nothing changes`,
        ...(node ? { node } : {}),
      });
      if (!worker) continue;
      if (step.do === "deadlock") worker.deadlock();
      else if (step.do === "crash") worker.crash(step);
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
    if (!t) {
      const pod = step.pod ? this.resolvePod(step.pod) : undefined;
      return pod ? [pod] : [];
    }
    const inNs = this.ctx.store.list("Pod").filter((p) => p.metadata.namespace === t.namespace);
    if (t.podName !== undefined) return inNs.filter((p) => p.metadata.name === t.podName);
    if (t.kind === "Pod") return inNs.filter((p) => p.metadata.name === t.workload);
    if (t.kind === "StatefulSet") {
      const ordinal = /-(\d+)$/;
      const members = inNs.filter((p) => {
        const m = ordinal.exec(p.metadata.name);
        return controllerOf(p) === `StatefulSet/${t.namespace}/${t.workload}` && m !== null;
      });
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
            workloadOf(this.ctx, p) === `Deployment/${t.namespace}/${t.workload}`
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

  private setUnschedulable(node: string, value: boolean): void {
    const obj = this.ctx.store.get("Node", node);
    if (!obj || (obj.spec.unschedulable ?? false) === value) return;
    obj.spec.unschedulable = value;
    this.ctx.store.update(obj);
  }

  /** `<ns>/<name>`, `<Kind>/<name>` (first pod) or `<Kind>/<name>[i]` (the i-th it created). */
  resolvePod(target: string): Pod | undefined {
    const m = /^(Deployment|StatefulSet|DaemonSet|ReplicaSet|Pod)\/([^[\]]+)(?:\[(\d+)\])?$/.exec(target);
    if (!m) return this.ctx.store.get("Pod", target);
    const [, kind, name, index] = m;
    const i = Number(index ?? 0);
    if (kind === "Pod") return this.ctx.store.list("Pod").find((p) => p.metadata.name === name);
    if (kind === "StatefulSet")
      return this.ctx.store.list("Pod").find((p) => p.metadata.name === `${name}-${i}`);
    const pods = this.ctx.store
      .list("Pod")
      .filter((p) => {
        const owner = controllerOf(p);
        if (kind === "Deployment")
          return owner?.startsWith("ReplicaSet/") && owner.split("/")[2]?.startsWith(`${name}-`);
        return owner?.split("/")[0] === kind && owner?.split("/")[2] === name;
      })
      .sort(
        (a, b) =>
          (a.metadata.creationTimestamp ?? 0) - (b.metadata.creationTimestamp ?? 0) ||
          Number(a.metadata.uid!.slice(4)) - Number(b.metadata.uid!.slice(4)),
      );
    return pods[i];
  }

  /**
   * kubectl drain (staging/src/k8s.io/kubectl/pkg/drain): cordon, then evict every pod but
   * DaemonSet pods through the Eviction API, which refuses (429) while a PodDisruptionBudget has no
   * disruption left; kubectl retries every 5s. Each pod then gets its own grace period.
   */
  private drain(node: string, why: string): void {
    this.setUnschedulable(node, true);
    const pods = this.ctx.store
      .podsOnNode(node)
      .filter(
        (p) => !controllerOf(p)?.startsWith("DaemonSet/") && p.metadata.deletionTimestamp === undefined,
      );
    for (const pod of pods) this.evict(pod, why);
  }

  private evict(pod: Pod, why: string): void {
    if (!this.ctx.store.exists(pod) || pod.metadata.deletionTimestamp !== undefined) return;
    // The Eviction API (pkg/registry/core/pod/storage/eviction.go): canIgnorePDB for a Pending or
    // terminal pod; a pod that is not Ready may go while the budget is met (unhealthyPodEvictionPolicy
    // IfHealthyBudget, the default: currentHealthy ≥ desiredHealthy); a Ready one needs a disruption left.
    const ignorePdb =
      pod.status.phase === "Pending" || pod.status.phase === "Succeeded" || pod.status.phase === "Failed";
    const needed = podReady(pod) ? 1 : 0;
    const blocking = ignorePdb
      ? undefined
      : this.ctx.store
          .list("PodDisruptionBudget")
          .find((pdb) => matchesPdb(pdb, pod) && disruptionsAllowed(this.ctx, pdb) < needed);
    if (blocking) {
      this.ctx.trace.emit({
        type: "EvictionBlocked",
        lane: "operator",
        object: `Pod/${pod.metadata.namespace}/${pod.metadata.name}`,
        ...(pod.spec.nodeName ? { node: pod.spec.nodeName } : {}),
        pdb: `${blocking.metadata.namespace}/${blocking.metadata.name}`,
        message: `error when evicting pods/"${pod.metadata.name}" -n "${pod.metadata.namespace}" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.`,
        why: `PodDisruptionBudget ${blocking.metadata.name} allows no disruption right now`,
      });
      this.ctx.engine.after(DRAIN_EVICTION_RETRY, () => this.evict(pod, why));
      return;
    }
    setPodCondition(
      this.ctx,
      pod,
      "DisruptionTarget",
      "True",
      "EvictionByEvictionAPI",
      "Eviction API: evicting",
    );
    deletePodGracefully(this.ctx, pod, {
      reason: "EvictionByEvictionAPI",
      lane: "operator",
      message: `evicting pod ${pod.metadata.namespace}/${pod.metadata.name}`,
      why: `${why}: kubectl drain evicts each pod through the Eviction API, honouring PodDisruptionBudgets`,
    });
  }
}

function matchesPdb(pdb: PodDisruptionBudget, pod: Pod): boolean {
  return (
    pdb.metadata.namespace === pod.metadata.namespace &&
    matchesSelector(pdb.spec.selector, pod.metadata.labels)
  );
}

/** status.disruptionsAllowed = currentHealthy − desiredHealthy (pkg/controller/disruption). */
export function disruptionsAllowed(ctx: Context, pdb: PodDisruptionBudget): number {
  const pods = ctx.store.list("Pod").filter((p) => matchesPdb(pdb, p));
  const healthy = pods.filter((p) => p.metadata.deletionTimestamp === undefined && podReady(p)).length;
  const expected = pods.filter((p) => p.metadata.deletionTimestamp === undefined).length;
  const resolve = (v: number | string, roundUp: boolean) => {
    if (typeof v === "number") return v;
    const pct = Number.parseFloat(v) / 100;
    return roundUp ? Math.ceil(pct * expected) : Math.floor(pct * expected);
  };
  let desired = 0;
  if (pdb.spec.minAvailable !== undefined) desired = resolve(pdb.spec.minAvailable, true);
  else if (pdb.spec.maxUnavailable !== undefined) desired = expected - resolve(pdb.spec.maxUnavailable, true);
  return healthy - desired;
}
