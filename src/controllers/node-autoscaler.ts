// The node autoscaler of a scenario's `autoscaler:` section, Cluster Autoscaler or Karpenter, as far
// as a lost node's replacement needs it: pods the scheduler left unschedulable (PodScheduled=False,
// reason Unschedulable, as kube-scheduler's handleSchedulingFailure writes it) get a new node from
// a node group whose template they fit, which boots and registers Ready `bootSeconds` later; the
// scheduler then places them. Cluster Autoscaler looks every --scan-interval (10s) and records
// TriggeredScaleUp on each pod ("pod triggered scale-up: [{<group> <from>-><to> (max: <max>)}]",
// cluster-autoscaler core/scaleup); Karpenter batches pending pods for 1s of quiet
// (BATCH_IDLE_DURATION) and launches a NodeClaim. A node not Ready within --max-node-provision-time
// (15m) is given up. The fit is the pods' requests against the template's allocatable, their
// nodeSelector against its labels, their taint tolerations and their bound volumes' zone; scale-down
// and CA's expanders (it takes the first group that fits, in the scenario's order) are not modelled.

import type { Cluster } from "../cluster/context.ts";
import { LABEL_ZONE } from "../kubernetes/labels.ts";
import type { Pod } from "../kubernetes/objects.ts";
import { podRequests } from "../kubernetes/pod-resources.ts";
import { toleratesAll } from "../kubernetes/taints.ts";
import type { AutoscalerSpec, NodeGroupSpec, NodeSpec } from "../scenario/types.ts";

interface Claim {
  group: NodeGroupSpec;
  node: NodeSpec;
  cpuMilli: number;
  memory: number;
  pods: string[];
  /** the node has registered: it takes no more pods of later scans */
  ready?: boolean;
}

export class NodeAutoscaler {
  /** Nodes launched and not yet Ready, with the pods they were for. */
  private inFlight: Claim[] = [];
  private added = new Map<string, number>();
  private readonly by: "cluster-autoscaler" | "karpenter";

  constructor(
    private readonly cluster: Cluster,
    private readonly spec: AutoscalerSpec,
    /** boot a machine for this node: its kubelet registers it Ready */
    private readonly addNode: (node: NodeSpec) => void,
  ) {
    this.by = spec.kind;
    const phase = cluster.engine.rng.fork("node-autoscaler").uniform(0, spec.scanInterval);
    cluster.engine.at(cluster.engine.now + phase, () => this.scan());
  }

  private scan(): void {
    const covered = new Set(this.inFlight.flatMap((c) => c.pods));
    for (const pod of this.cluster.store.list("Pod")) {
      const key = `${pod.metadata.namespace}/${pod.metadata.name}`;
      if (covered.has(key) || !unschedulable(pod)) continue;
      const claim = this.inFlight.find((c) => !c.ready && this.fitsClaim(pod, c)) ?? this.launch(pod);
      if (!claim) continue;
      const r = podRequests(pod);
      claim.cpuMilli += r.cpuMilli;
      claim.memory += r.memory;
      claim.pods.push(key);
    }
    this.cluster.engine.after(this.spec.scanInterval, () => this.scan());
  }

  private fitsClaim(pod: Pod, c: Claim): boolean {
    const r = podRequests(pod);
    const a = c.node.allocatable ?? c.node.capacity;
    return (
      fitsTemplate(this.cluster, pod, c.node) &&
      c.cpuMilli + r.cpuMilli <= (a.cpu ?? 0) * 1000 &&
      c.memory + r.memory <= (a.memory ?? 0)
    );
  }

  /** A new node from the first group with room whose template fits the pod. */
  private launch(pod: Pod): Claim | undefined {
    for (const group of this.spec.nodeGroups) {
      const n = this.added.get(group.name) ?? 0;
      if (n >= group.maxNewNodes) continue;
      const node = newNode(group, n + 1);
      const claim: Claim = { group, node, cpuMilli: 0, memory: 0, pods: [] };
      if (!this.fitsClaim(pod, claim)) continue;
      this.added.set(group.name, n + 1);
      this.inFlight.push(claim);
      this.cluster.engine.after(0, () => this.emitScaleUp(claim, group.size, n));
      this.boot(claim);
      return claim;
    }
    return undefined;
  }

  /** Emitted after the scan has given the claim all its pods. */
  private emitScaleUp(c: Claim, existing: number, addedBefore: number): void {
    const from = existing + addedBefore;
    this.cluster.trace.emit({
      type: "NodeScaleUp",
      lane: "control-plane",
      object: `Node/${c.node.name}`,
      node: c.node.name,
      by: this.by,
      group: c.group.name,
      newNode: c.node.name,
      from,
      to: from + 1,
      max: existing + c.group.maxNewNodes,
      pods: [...c.pods],
      scanInterval: this.spec.scanInterval,
      bootSeconds: this.spec.bootSeconds,
    });
  }

  private boot(c: Claim): void {
    const started = this.cluster.engine.now;
    // --max-node-provision-time: a node not registered by then is given up (and its pods wait on).
    if (this.spec.bootSeconds > this.spec.maxNodeProvisionTime) return;
    this.cluster.engine.after(this.spec.bootSeconds, () => {
      // CA's filterOutSchedulable: pods the new node can take are not a reason to scale again while
      // the scheduler places them; the claim keeps its pods for two more scans.
      this.cluster.engine.after(2 * this.spec.scanInterval, () => {
        this.inFlight = this.inFlight.filter((x) => x !== c);
      });
      c.ready = true;
      this.addNode(c.node);
      this.cluster.trace.emit({
        type: "ScaledNodeReady",
        lane: "control-plane",
        object: `Node/${c.node.name}`,
        node: c.node.name,
        by: this.by,
        group: c.group.name,
        after: this.cluster.engine.now - started,
      });
    });
  }
}

/** PodScheduled=False, reason Unschedulable: the scheduler found no node (handleSchedulingFailure). */
function unschedulable(pod: Pod): boolean {
  if (pod.spec.nodeName || pod.metadata.deletionTimestamp !== undefined) return false;
  const c = pod.status.conditions.find((x) => x.type === "PodScheduled");
  return c?.status === "False" && c.reason === "Unschedulable";
}

/** The node a group adds: its template's capacity, zone, labels (but its own hostname) and taints. */
function newNode(group: NodeGroupSpec, n: number): NodeSpec {
  return nodeLike(group.template, `${group.name}-new-${n}`);
}

/**
 * A new machine of the same node group as `t`, named `name`: its capacity, zone, region, labels (its
 * own hostname) and taints but the node lifecycle's; a new instance, so none of a dump's podCIDR,
 * providerID or addresses. The autoscaler's scale-up and EKS's repair Replace make nodes so.
 */
export function nodeLike(t: NodeSpec, name: string): NodeSpec {
  const labels = { ...t.labels };
  if (labels["kubernetes.io/hostname"] !== undefined) labels["kubernetes.io/hostname"] = name;
  const node: NodeSpec = {
    name,
    labels,
    taints: t.taints.filter((x) => !x.key.startsWith("node.kubernetes.io/")),
    capacity: t.capacity,
    ...(t.allocatable ? { allocatable: t.allocatable } : {}),
    ...(t.labelsAsRegistered ? { labelsAsRegistered: true } : {}),
  };
  if (t.zone !== undefined) node.zone = t.zone;
  if (t.region !== undefined) node.region = t.region;
  return node;
}

/** The pod's nodeSelector, tolerations and bound volumes' zone against the template. */
function fitsTemplate(cluster: Cluster, pod: Pod, node: NodeSpec): boolean {
  const labels: Record<string, string> = { ...node.labels, "kubernetes.io/hostname": node.name };
  if (node.zone !== undefined) labels[LABEL_ZONE] = node.zone;
  for (const [k, v] of Object.entries(pod.spec.nodeSelector ?? {})) if (labels[k] !== v) return false;
  if (!toleratesAll(node.taints, pod.spec.tolerations, ["NoSchedule", "NoExecute"])) return false;
  for (const zone of volumeZones(cluster, pod)) if (zone !== node.zone) return false;
  return true;
}

/** The zones a pod's bound claims' volumes are pinned to (their nodeAffinity on the zone label). */
function volumeZones(cluster: Cluster, pod: Pod): string[] {
  const out: string[] = [];
  for (const v of pod.spec.volumes ?? []) {
    const claimName = v.persistentVolumeClaim?.claimName;
    if (!claimName) continue;
    const pvc = cluster.store.get("PersistentVolumeClaim", `${pod.metadata.namespace}/${claimName}`);
    const pvName = pvc?.spec.volumeName;
    const pv = pvName ? cluster.store.get("PersistentVolume", pvName) : undefined;
    for (const term of pv?.spec.nodeAffinity?.required.nodeSelectorTerms ?? [])
      for (const e of term.matchExpressions ?? [])
        if (e.key === LABEL_ZONE && e.operator === "In" && e.values?.length === 1) out.push(e.values[0]!);
  }
  return out;
}
