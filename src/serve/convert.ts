// The model's objects as Kubernetes API objects (k8s.io/api JSON), with the fields kubectl and
// `kubectl describe` read. Each object keeps the model's names, labels, times and state; what the
// model does not keep but the API always has is derived from what it does keep, and says so: UIDs
// in UUID form, owner references with their owner's UID, API defaults, workload status counted from
// the pods (convert-workloads.ts), the Namespace objects. Claims and PersistentVolumes are the
// store's, as the PersistentVolume controller bound them.

import { keyOf } from "../cluster/store.ts";
import { claimClass } from "../controllers/persistentvolume-controller.ts";
import type {
  EndpointSlice,
  KubeObject,
  Lease,
  Node,
  PersistentVolume,
  PersistentVolumeClaim,
  Pod,
  Service,
  VolumeAttachment,
} from "../kubernetes/objects.ts";
import { clusterIps, nodeAddresses } from "./addresses.ts";
import type { ApiObject, Json } from "./api-types.ts";
import { storageClassJ } from "./config-objects.ts";
import { type ConvertContext, metaJ, ownerUid, uuidOf } from "./convert-meta.ts";
import { podSpecJ, podStatusJ } from "./convert-pod.ts";
import { daemonSetJ, deploymentJ, pdbJ, replicaSetJ, statefulSetJ } from "./convert-workloads.ts";
import { byteQuantity, resourceList } from "./quantity.ts";
import { microTimeString, timeString } from "./time.ts";

export { type ConvertContext, uuidOf } from "./convert-meta.ts";

function nodeJ(cc: ConvertContext, n: Node): ApiObject {
  const nodes = cc.ctx.scenario.nodes;
  let index = nodes.findIndex((x) => x.name === n.metadata.name);
  const spec = index >= 0 ? nodes[index] : undefined;
  // A node the scenario does not list (an autoscaler's) comes after the listed ones, in store order.
  if (index < 0)
    index =
      nodes.length +
      cc.ctx.store
        .list("Node")
        .filter((x) => !nodes.some((s) => s.name === x.metadata.name))
        .findIndex((x) => x.metadata.name === n.metadata.name);
  return {
    apiVersion: "v1",
    kind: "Node",
    metadata: metaJ(cc, n.metadata, `Node/${n.metadata.name}`),
    spec: {
      ...(n.spec.unschedulable ? { unschedulable: true } : {}),
      ...(n.spec.taints?.length
        ? {
            taints: n.spec.taints.map((t) => ({
              key: t.key,
              ...(t.value ? { value: t.value } : {}),
              effect: t.effect,
              ...(t.timeAdded !== undefined ? { timeAdded: timeString(t.timeAdded) } : {}),
            })),
          }
        : {}),
    },
    status: {
      capacity: resourceList(n.status.capacity),
      allocatable: resourceList(n.status.allocatable),
      conditions: n.status.conditions.map((c) => ({
        type: c.type,
        status: c.status,
        ...(c.lastHeartbeatTime !== undefined ? { lastHeartbeatTime: timeString(c.lastHeartbeatTime) } : {}),
        ...(c.lastTransitionTime !== undefined
          ? { lastTransitionTime: timeString(c.lastTransitionTime) }
          : {}),
        ...(c.reason ? { reason: c.reason } : {}),
        ...(c.message ? { message: c.message } : {}),
      })),
      addresses: nodeAddresses(spec, index, n.metadata.name),
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      nodeInfo: spec?.nodeInfo ? { ...spec.nodeInfo } : modelledNodeInfo(cc),
    },
  };
}

/**
 * A modelled node's status.nodeInfo: the kubelet's version; kube-proxy's too before 1.31, when the
 * DisableNodeKubeProxyVersion gate (KEP-4004, beta and on in 1.31) stopped the kubelet writing it;
 * linux/amd64 as the node's kubernetes.io labels say (kubelet/node-status.ts). The model keeps no
 * machine, boot, kernel, OS image or container runtime version: those stay empty, as for a kubelet
 * that could not read them.
 */
function modelledNodeInfo(cc: ConvertContext): Record<string, string> {
  const minor = Number(cc.ctx.version.split(".")[1]);
  return {
    machineID: "",
    systemUUID: "",
    bootID: "",
    kernelVersion: "",
    osImage: "",
    containerRuntimeVersion: "",
    kubeletVersion: cc.ctx.versionString,
    kubeProxyVersion: minor < 31 ? cc.ctx.versionString : "",
    operatingSystem: "linux",
    architecture: "amd64",
  };
}

function leaseJ(cc: ConvertContext, l: Lease): ApiObject {
  const meta = metaJ(cc, l.metadata, `Lease/${keyOf(l)}`);
  // The kubelet's lease controller makes the Node the Lease's owner (setNodeOwnerFunc, pkg/kubelet/kubelet.go).
  meta.ownerReferences = [
    {
      apiVersion: "v1",
      kind: "Node",
      name: l.spec.holderIdentity,
      uid: ownerUid(cc, "Node", undefined, l.spec.holderIdentity),
    },
  ];
  return {
    apiVersion: "coordination.k8s.io/v1",
    kind: "Lease",
    metadata: meta,
    spec: {
      holderIdentity: l.spec.holderIdentity,
      leaseDurationSeconds: l.spec.leaseDurationSeconds,
      renewTime: microTimeString(l.spec.renewTime),
    },
  };
}

/**
 * Bound at this very instant: the kubelet has not yet seen the pod (it learns of it from its watch,
 * then its status manager posts the first status, pkg/kubelet/status/status_manager.go), so the pod
 * is still plain Pending; from the next instant it is ContainerCreating (mirror.ts looks again).
 */
export function justBound(cc: ConvertContext, p: Pod): boolean {
  const scheduled = p.status.conditions.find((c) => c.type === "PodScheduled" && c.status === "True");
  return (
    p.status.phase === "Pending" &&
    p.status.containerStatuses.length === 0 &&
    scheduled?.lastTransitionTime !== undefined &&
    scheduled.lastTransitionTime >= cc.ctx.engine.now
  );
}

function podJ(cc: ConvertContext, p: Pod): ApiObject {
  const metadata = metaJ(cc, p.metadata, `Pod/${keyOf(p)}`);
  const syncing =
    p.spec.nodeName !== undefined && cc.ctx.machines.reachable(p.spec.nodeName) && !justBound(cc, p);
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata,
    spec: podSpecJ(p.spec, true),
    status: podStatusJ(p, metadata.uid, cc.history, syncing),
  };
}

function serviceJ(cc: ConvertContext, s: Service): ApiObject {
  const type = s.spec.type ?? "ClusterIP";
  const external = type === "NodePort" || type === "LoadBalancer";
  return {
    apiVersion: "v1",
    kind: "Service",
    metadata: metaJ(cc, s.metadata, `Service/${keyOf(s)}`),
    spec: {
      type,
      ...(s.spec.selector ? { selector: s.spec.selector } : {}),
      ports: (s.spec.ports ?? []).map((p) => ({
        ...p,
        protocol: p.protocol ?? "TCP",
        targetPort: p.targetPort ?? p.port,
      })),
      ...clusterIpOf(cc, s),
      sessionAffinity: "None",
      ...(external ? { externalTrafficPolicy: s.spec.externalTrafficPolicy ?? "Cluster" } : {}),
      internalTrafficPolicy: s.spec.internalTrafficPolicy ?? "Cluster",
      ...(s.spec.publishNotReadyAddresses ? { publishNotReadyAddresses: true } : {}),
    },
    status: { loadBalancer: {} },
  };
}

/** The Service's allocated ClusterIP (addresses.ts), none for an ExternalName Service. */
function clusterIpOf(cc: ConvertContext, s: Service): Record<string, Json> {
  const ip = clusterIps(cc.ctx.store.list("Service")).get(keyOf(s));
  return ip ? { clusterIP: ip, clusterIPs: [ip], ipFamilies: ["IPv4"], ipFamilyPolicy: "SingleStack" } : {};
}

/**
 * A claim's storageClassName: as written, else the default class the DefaultStorageClass admission
 * plugin writes at creation (claimClass), unless the beta annotation names the class.
 */
function claimClassJ(cc: ConvertContext, c: PersistentVolumeClaim): Record<string, Json> {
  if (c.spec.storageClassName !== undefined) return { storageClassName: c.spec.storageClassName };
  if (c.metadata.annotations?.["volume.beta.kubernetes.io/storage-class"] !== undefined) return {};
  return { storageClassName: claimClass(cc.ctx, c).name };
}

/** The name an external provisioner gives the volume it creates for a claim: "pvc-" + the claim's UID. */
function claimJ(cc: ConvertContext, c: PersistentVolumeClaim): ApiObject {
  const metadata = metaJ(cc, c.metadata, `PersistentVolumeClaim/${keyOf(c)}`);
  const pv =
    c.spec.volumeName !== undefined ? cc.ctx.store.get("PersistentVolume", c.spec.volumeName) : undefined;
  const phase = c.status?.phase ?? "Pending";
  return {
    apiVersion: "v1",
    kind: "PersistentVolumeClaim",
    metadata,
    spec: {
      accessModes: c.spec.accessModes,
      ...(c.spec.volumeName !== undefined ? { volumeName: c.spec.volumeName } : {}),
      ...claimClassJ(cc, c),
      volumeMode: "Filesystem",
      resources: c.spec.storage ? { requests: { storage: byteQuantity(c.spec.storage) } } : {},
    },
    // The PersistentVolume controller's binding (controllers/persistentvolume-controller.ts).
    status: {
      phase,
      ...(phase === "Bound"
        ? {
            accessModes: pv?.spec.accessModes ?? c.spec.accessModes,
            ...(pv ? { capacity: { storage: byteQuantity(pv.spec.capacity) } } : {}),
          }
        : {}),
    },
  };
}

/** A PersistentVolume of the store: provisioned for a claim, or given in the manifests. */
function volumeJ(cc: ConvertContext, pv: PersistentVolume): ApiObject {
  const ref = pv.spec.claimRef;
  const claim = ref ? cc.ctx.store.get("PersistentVolumeClaim", `${ref.namespace}/${ref.name}`) : undefined;
  return {
    apiVersion: "v1",
    kind: "PersistentVolume",
    metadata: metaJ(cc, pv.metadata, `PersistentVolume/${pv.metadata.name}`),
    spec: {
      capacity: { storage: byteQuantity(pv.spec.capacity) },
      accessModes: pv.spec.accessModes,
      ...(ref
        ? {
            claimRef: {
              apiVersion: "v1",
              kind: "PersistentVolumeClaim",
              namespace: ref.namespace,
              name: ref.name,
              ...(claim
                ? { uid: uuidOf(claim.metadata.uid ?? `PersistentVolumeClaim/${keyOf(claim)}`) }
                : {}),
            },
          }
        : {}),
      // The model keeps no volume source: a CSI volume of the class's provisioner stands for it.
      csi: {
        driver:
          (pv.spec.storageClassName &&
            cc.ctx.store.get("StorageClass", pv.spec.storageClassName)?.provisioner) ||
          "unknown",
        volumeHandle: pv.metadata.name,
      },
      ...(pv.spec.nodeAffinity ? { nodeAffinity: pv.spec.nodeAffinity } : {}),
      persistentVolumeReclaimPolicy: pv.spec.persistentVolumeReclaimPolicy,
      ...(pv.spec.storageClassName !== undefined ? { storageClassName: pv.spec.storageClassName } : {}),
      volumeMode: pv.spec.volumeMode,
    },
    status: { phase: pv.status?.phase ?? "Available" },
  };
}

function endpointSliceJ(cc: ConvertContext, es: EndpointSlice): ApiObject {
  const metadata = metaJ(cc, es.metadata, `EndpointSlice/${keyOf(es)}`);
  const [ns, svcName] = es.service.split("/") as [string, string];
  const svc = cc.ctx.store.get("Service", es.service);
  metadata.labels = {
    ...metadata.labels,
    "kubernetes.io/service-name": svcName,
    "endpointslice.kubernetes.io/managed-by": "endpointslice-controller.k8s.io",
  };
  metadata.ownerReferences = [
    {
      apiVersion: "v1",
      kind: "Service",
      name: svcName,
      uid: ownerUid(cc, "Service", ns, svcName),
      controller: true,
      blockOwnerDeletion: true,
    },
  ];
  return {
    apiVersion: "discovery.k8s.io/v1",
    kind: "EndpointSlice",
    metadata,
    addressType: "IPv4",
    endpoints: es.endpoints.map((e) => {
      const pod = cc.ctx.store.get("Pod", `${e.targetRef.namespace}/${e.targetRef.name}`);
      return {
        addresses: e.addresses,
        conditions: e.conditions,
        ...(e.nodeName ? { nodeName: e.nodeName } : {}),
        ...(e.zone ? { zone: e.zone } : {}),
        targetRef: { ...e.targetRef, ...(pod?.metadata.uid ? { uid: uuidOf(pod.metadata.uid) } : {}) },
      };
    }),
    // The Service's ports, with a numeric targetPort as the endpoints' port (named ports are resolved per pod).
    ports: (svc?.spec.ports ?? []).map((p) => ({
      name: p.name ?? "",
      protocol: p.protocol ?? "TCP",
      port: typeof p.targetPort === "number" ? p.targetPort : p.targetPort === undefined ? p.port : null,
    })),
  };
}

function volumeAttachmentJ(cc: ConvertContext, va: VolumeAttachment): ApiObject {
  const claim = cc.ctx.store.get("PersistentVolumeClaim", va.spec.claim);
  return {
    apiVersion: "storage.k8s.io/v1",
    kind: "VolumeAttachment",
    // The real name hashes the volume, the attacher and the node ("csi-<sha256>"); this one hashes the model's name.
    metadata: {
      ...metaJ(cc, va.metadata, `VolumeAttachment/${va.metadata.name}`),
      name: `csi-${uuidOf(va.metadata.name).replaceAll("-", "")}`,
    },
    // The model names no CSI driver: the attacher is unknown.
    spec: {
      attacher: "",
      nodeName: va.spec.nodeName,
      source: { persistentVolumeName: claim?.spec.volumeName ?? "" },
    },
    status: { attached: va.status.attached },
  };
}

/** The served objects one model object stands for (a claim is also its volume). */
export function convert(cc: ConvertContext, obj: KubeObject): ApiObject[] {
  switch (obj.kind) {
    case "Node":
      return [nodeJ(cc, obj)];
    case "Lease":
      return [leaseJ(cc, obj)];
    case "StorageClass":
      return [storageClassJ(cc, obj)];
    case "Pod":
      return [podJ(cc, obj)];
    case "Deployment":
      return [deploymentJ(cc, obj)];
    case "ReplicaSet":
      return [replicaSetJ(cc, obj)];
    case "StatefulSet":
      return [statefulSetJ(cc, obj)];
    case "DaemonSet":
      return [daemonSetJ(cc, obj)];
    case "Service":
      return [serviceJ(cc, obj)];
    case "PersistentVolumeClaim":
      return [claimJ(cc, obj)];
    case "PersistentVolume":
      return [volumeJ(cc, obj)];
    // batch/v1 Jobs and CronJobs are not served yet (no resource in discovery).
    case "Job":
    case "CronJob":
      return [];
    // scheduling.k8s.io PriorityClasses are not served (the pods carry their priority).
    case "PriorityClass":
      return [];
    case "PodDisruptionBudget":
      return [pdbJ(cc, obj)];
    case "EndpointSlice":
      return [endpointSliceJ(cc, obj)];
    case "VolumeAttachment":
      return [volumeAttachmentJ(cc, obj)];
  }
}

/** Namespace objects for every namespace in use and the four a cluster always has, created with the cluster. */
export function namespaceJ(name: string, created: number): ApiObject {
  return {
    apiVersion: "v1",
    kind: "Namespace",
    metadata: {
      name,
      uid: uuidOf(`Namespace/${name}`),
      creationTimestamp: timeString(created),
      labels: { "kubernetes.io/metadata.name": name },
    },
    spec: { finalizers: ["kubernetes"] },
    status: { phase: "Active" },
  };
}

export const SYSTEM_NAMESPACES = ["default", "kube-node-lease", "kube-public", "kube-system"];
