// Workloads and disruption budgets as the API serves them: spec with the API's defaults, and the
// status their controllers would write, counted from the pods the model has (the model's workload
// objects carry no status): ReplicaSet and Deployment (calculateStatus), StatefulSet
// (computeReplicaStatus), DaemonSet (updateDaemonSetStatus), PodDisruptionBudget (the disruption
// controller's counts, as the model's drain reads them).

import { podReady } from "../cluster/api.ts";
import { pdbStatus } from "../cluster/eviction.ts";
import { keyOf } from "../cluster/store.ts";
import type {
  DaemonSet,
  Deployment,
  Pod,
  PodDisruptionBudget,
  PodTemplateSpec,
  ReplicaSet,
  StatefulSet,
} from "../kubernetes/objects.ts";
import { toleratesAll } from "../kubernetes/taints.ts";
import type { ApiObject, Json } from "./api-types.ts";
import { type ConvertContext, counts, metaJ } from "./convert-meta.ts";
import { podSpecJ } from "./convert-pod.ts";
import { DeploymentConditionMemory } from "./deployment-conditions.ts";
import { byteQuantity } from "./quantity.ts";

function templateJ(t: PodTemplateSpec): Json {
  return {
    metadata: {
      ...(t.metadata?.labels ? { labels: t.metadata.labels } : {}),
      ...(t.metadata?.annotations ? { annotations: t.metadata.annotations } : {}),
    },
    spec: podSpecJ(t.spec, false),
  };
}

/** Pods the controllers count as active: not terminal, not being deleted (controller.FilterActivePods). */
function active(p: Pod): boolean {
  return (
    p.metadata.deletionTimestamp === undefined &&
    p.status.phase !== "Succeeded" &&
    p.status.phase !== "Failed"
  );
}

/** ReplicaSet status as calculateStatus (pkg/controller/replicaset/replica_set_utils.go) counts it; minReadySeconds 0. */
function replicaSetCounts(cc: ConvertContext, rs: ReplicaSet): { replicas: number; ready: number } {
  const pods = [...cc.ctx.store.podSetOwnedBy(`ReplicaSet/${keyOf(rs)}`)].filter(active);
  return { replicas: pods.length, ready: pods.filter(podReady).length };
}

/** When the Deployment's conditions first held: its last needed pod's Ready transition, else its creation. */
function readySince(cc: ConvertContext, rsKeys: string[], d: Deployment): number {
  const times: number[] = [];
  for (const k of rsKeys)
    for (const p of cc.ctx.store.podSetOwnedBy(`ReplicaSet/${k}`)) {
      const t = p.status.conditions.find(
        (c) => c.type === "Ready" && c.status === "True",
      )?.lastTransitionTime;
      if (active(p) && t !== undefined) times.push(t);
    }
  return Math.max(d.metadata.creationTimestamp ?? 0, ...times);
}

export function deploymentJ(cc: ConvertContext, d: Deployment): ApiObject {
  // calculateStatus (pkg/controller/deployment/sync.go) sums its ReplicaSets' status.
  let replicas = 0;
  let ready = 0;
  const owned: ReplicaSet[] = [];
  for (const rs of cc.ctx.store.list("ReplicaSet")) {
    if (rs.metadata.namespace !== d.metadata.namespace) continue;
    if (!rs.metadata.ownerReferences?.some((o) => o.kind === "Deployment" && o.name === d.metadata.name))
      continue;
    owned.push(rs);
    const c = replicaSetCounts(cc, rs);
    replicas += c.replicas;
    ready += c.ready;
  }
  const newest = owned.at(-1);
  if (!cc.deployments) cc.deployments = new DeploymentConditionMemory();
  const memory = cc.deployments;
  const conditions = memory.conditions(
    keyOf(d),
    d.spec.replicas,
    newest?.metadata.name ?? d.metadata.name,
    { replicas, updated: replicas, ready, available: ready },
    cc.ctx.engine.now,
    readySince(cc, owned.map(keyOf), d),
  );
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: metaJ(cc, d.metadata, `Deployment/${keyOf(d)}`),
    spec: {
      replicas: d.spec.replicas,
      selector: d.spec.selector as unknown as Json,
      template: templateJ(d.spec.template),
      strategy: { type: "RollingUpdate", rollingUpdate: { maxUnavailable: "25%", maxSurge: "25%" } },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
    },
    status: {
      observedGeneration: 1,
      ...counts({ replicas, updatedReplicas: replicas, readyReplicas: ready, availableReplicas: ready }),
      ...counts({ unavailableReplicas: Math.max(0, d.spec.replicas - ready) }),
      conditions,
    },
  };
}

export function replicaSetJ(cc: ConvertContext, rs: ReplicaSet): ApiObject {
  const c = replicaSetCounts(cc, rs);
  return {
    apiVersion: "apps/v1",
    kind: "ReplicaSet",
    metadata: metaJ(cc, rs.metadata, `ReplicaSet/${keyOf(rs)}`),
    spec: {
      replicas: rs.spec.replicas,
      selector: rs.spec.selector as unknown as Json,
      template: templateJ(rs.spec.template),
    },
    status: {
      replicas: c.replicas,
      observedGeneration: 1,
      ...counts({ fullyLabeledReplicas: c.replicas, readyReplicas: c.ready, availableReplicas: c.ready }),
    },
  };
}

export function statefulSetJ(cc: ConvertContext, s: StatefulSet): ApiObject {
  // computeReplicaStatus (pkg/controller/statefulset/stateful_set_control.go): created pods, and those Running and Ready.
  const pods = [...cc.ctx.store.podSetOwnedBy(`StatefulSet/${keyOf(s)}`)];
  const ready = pods.filter((p) => p.status.phase === "Running" && podReady(p)).length;
  const current = pods.filter((p) => p.metadata.deletionTimestamp === undefined).length;
  return {
    apiVersion: "apps/v1",
    kind: "StatefulSet",
    metadata: metaJ(cc, s.metadata, `StatefulSet/${keyOf(s)}`),
    spec: {
      replicas: s.spec.replicas,
      selector: s.spec.selector as unknown as Json,
      serviceName: s.spec.serviceName ?? "",
      template: templateJ(s.spec.template),
      podManagementPolicy: s.spec.podManagementPolicy ?? "OrderedReady",
      updateStrategy: { type: "RollingUpdate", rollingUpdate: { partition: 0 } },
      revisionHistoryLimit: 10,
      ...(s.spec.volumeClaimTemplates
        ? {
            volumeClaimTemplates: s.spec.volumeClaimTemplates.map((t) => ({
              apiVersion: "v1",
              kind: "PersistentVolumeClaim",
              metadata: { name: t.metadata.name },
              spec: {
                ...(t.spec.accessModes ? { accessModes: t.spec.accessModes } : {}),
                ...(t.spec.storageClassName !== undefined
                  ? { storageClassName: t.spec.storageClassName }
                  : {}),
                volumeMode: "Filesystem",
                resources: t.spec.storage ? { requests: { storage: byteQuantity(t.spec.storage) } } : {},
              },
            })),
          }
        : {}),
    },
    status: {
      observedGeneration: 1,
      replicas: pods.length,
      ...counts({
        readyReplicas: ready,
        availableReplicas: ready,
        currentReplicas: current,
        updatedReplicas: current,
      }),
    },
  };
}

export function daemonSetJ(cc: ConvertContext, ds: DaemonSet): ApiObject {
  // updateDaemonSetStatus (pkg/controller/daemon/daemon_controller.go): a node should run the pod when its
  // nodeSelector matches and the pod tolerates the node's NoSchedule and NoExecute taints.
  const pods = [...cc.ctx.store.podSetOwnedBy(`DaemonSet/${keyOf(ds)}`)].filter(
    (p) => p.metadata.deletionTimestamp === undefined,
  );
  const tmpl = ds.spec.template.spec;
  let desired = 0;
  let current = 0;
  let ready = 0;
  let misscheduled = 0;
  for (const node of cc.ctx.store.list("Node")) {
    const shouldRun =
      Object.entries(tmpl.nodeSelector ?? {}).every(([k, v]) => node.metadata.labels?.[k] === v) &&
      toleratesAll(node.spec.taints, podTolerations(pods, tmpl.tolerations), ["NoSchedule", "NoExecute"]);
    const onNode = pods.filter((p) => p.spec.nodeName === node.metadata.name);
    if (shouldRun) {
      desired++;
      if (onNode.length > 0) current++;
      if (onNode.some(podReady)) ready++;
    } else if (onNode.length > 0) misscheduled++;
  }
  return {
    apiVersion: "apps/v1",
    kind: "DaemonSet",
    metadata: metaJ(cc, ds.metadata, `DaemonSet/${keyOf(ds)}`),
    spec: {
      selector: ds.spec.selector as unknown as Json,
      template: templateJ(ds.spec.template),
      updateStrategy: { type: "RollingUpdate", rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
      revisionHistoryLimit: 10,
    },
    status: {
      currentNumberScheduled: current,
      numberMisscheduled: misscheduled,
      desiredNumberScheduled: desired,
      numberReady: ready,
      observedGeneration: 1,
      ...counts({
        updatedNumberScheduled: current,
        numberAvailable: ready,
        numberUnavailable: desired - ready,
      }),
    },
  };
}

/** A DaemonSet's pods carry the tolerations the controller adds (AddOrUpdateDaemonPodTolerations); read them off a pod. */
function podTolerations(pods: Pod[], template: Pod["spec"]["tolerations"]): Pod["spec"]["tolerations"] {
  return pods[0]?.spec.tolerations ?? template;
}

export function pdbJ(cc: ConvertContext, pdb: PodDisruptionBudget): ApiObject {
  // The disruption controller's status, as the model's Eviction API reads it (cluster/eviction.ts).
  const status = pdbStatus(cc.ctx.store, pdb);
  return {
    apiVersion: "policy/v1",
    kind: "PodDisruptionBudget",
    metadata: metaJ(cc, pdb.metadata, `PodDisruptionBudget/${keyOf(pdb)}`),
    spec: {
      ...(pdb.spec.selector ? { selector: pdb.spec.selector as unknown as Json } : {}),
      ...(pdb.spec.minAvailable !== undefined ? { minAvailable: pdb.spec.minAvailable } : {}),
      ...(pdb.spec.maxUnavailable !== undefined ? { maxUnavailable: pdb.spec.maxUnavailable } : {}),
      ...(pdb.spec.unhealthyPodEvictionPolicy
        ? { unhealthyPodEvictionPolicy: pdb.spec.unhealthyPodEvictionPolicy }
        : {}),
    },
    status: {
      observedGeneration: 1,
      disruptionsAllowed: status.disruptionsAllowed,
      currentHealthy: status.currentHealthy,
      desiredHealthy: status.desiredHealthy,
      expectedPods: status.expectedPods,
    },
  };
}
