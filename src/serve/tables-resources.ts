// Server-side printing for the resources other than pods, nodes and events (tables.ts): the
// column definitions and cells of pkg/printers/internalversion/printers.go (1.32) for Namespace,
// Service, PersistentVolumeClaim, PersistentVolume, Deployment, ReplicaSet, StatefulSet, DaemonSet,
// PodDisruptionBudget, Lease, EndpointSlice and VolumeAttachment.

import type { ApiObject } from "./api-types.ts";
import {
  AGE,
  accessModes,
  age,
  CONTAINERS,
  col,
  containerCells,
  formatLabels,
  formatSelector,
  IMAGES,
  listWithMore,
  NAME,
  type Printer,
  SELECTOR,
} from "./table-format.ts";

function servicePorts(ports: { port: number; nodePort?: number; protocol?: string }[] | undefined): string {
  const s = (ports ?? [])
    .map((p) => (p.nodePort ? `${p.port}:${p.nodePort}/${p.protocol}` : `${p.port}/${p.protocol}`))
    .join(",");
  return s === "" ? "<none>" : s;
}

function serviceExternalIP(svc: ApiObject): string {
  const ext: string[] = svc.spec?.externalIPs ?? [];
  switch (svc.spec?.type) {
    case "ClusterIP":
    case "NodePort":
      return ext.length > 0 ? ext.join(",") : "<none>";
    case "LoadBalancer":
      return ext.length > 0 ? ext.join(",") : "<pending>";
    case "ExternalName":
      return svc.spec.externalName ?? "";
    default:
      return "<unknown>";
  }
}

export const RESOURCE_PRINTERS: Record<string, Printer> = {
  namespaces: {
    columns: [NAME, col("Status", "string", "The status of the namespace"), AGE],
    cells: (o, now) => [o.metadata.name, o.status?.phase ?? "", age(o, now)],
  },
  services: {
    columns: [
      NAME,
      col("Type", "string", "type determines how the Service is exposed."),
      col("Cluster-IP", "string", "clusterIP is the IP address of the service."),
      col(
        "External-IP",
        "string",
        "externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.",
      ),
      col("Port(s)", "string", "The list of ports that are exposed by this service."),
      AGE,
      col(
        "Selector",
        "string",
        "Route service traffic to pods with label keys and values matching this selector.",
        1,
      ),
    ],
    cells: (o, now) => [
      o.metadata.name,
      o.spec?.type ?? "",
      o.spec?.clusterIPs?.[0] ?? "<none>",
      serviceExternalIP(o),
      servicePorts(o.spec?.ports),
      age(o, now),
      formatLabels(o.spec?.selector),
    ],
  },
  persistentvolumeclaims: {
    columns: [
      NAME,
      col("Status", "string", "phase represents the current phase of PersistentVolumeClaim."),
      col(
        "Volume",
        "string",
        "volumeName is the binding reference to the PersistentVolume backing this claim.",
      ),
      col("Capacity", "string", "capacity represents the actual resources of the underlying volume."),
      col(
        "Access Modes",
        "string",
        "accessModes contains the actual access modes the volume backing the PVC has.",
      ),
      col("StorageClass", "string", "StorageClass of the pvc"),
      col("VolumeAttributesClass", "string", "VolumeAttributesClass of the pvc"),
      AGE,
      col("VolumeMode", "string", "volumeMode defines what type of volume is required by the claim.", 1),
    ],
    cells: (o, now) => {
      const bound = Boolean(o.spec?.volumeName);
      return [
        o.metadata.name,
        o.metadata.deletionTimestamp ? "Terminating" : (o.status?.phase ?? ""),
        o.spec?.volumeName ?? "",
        bound ? (o.status?.capacity?.storage ?? "") : "",
        bound ? accessModes(o.status?.accessModes) : "",
        o.spec?.storageClassName ?? "",
        o.spec?.volumeAttributesClassName ?? "<unset>",
        age(o, now),
        o.spec?.volumeMode ?? "<unset>",
      ];
    },
  },
  persistentvolumes: {
    columns: [
      NAME,
      col(
        "Capacity",
        "string",
        "capacity is the description of the persistent volume's resources and capacity.",
      ),
      col("Access Modes", "string", "accessModes contains all ways the volume can be mounted."),
      col(
        "Reclaim Policy",
        "string",
        "persistentVolumeReclaimPolicy defines what happens to a persistent volume when released from its claim.",
      ),
      col(
        "Status",
        "string",
        "phase indicates if a volume is available, bound to a claim, or released by a claim.",
      ),
      col(
        "Claim",
        "string",
        "claimRef is part of a bi-directional binding between PersistentVolume and PersistentVolumeClaim.",
      ),
      col("StorageClass", "string", "StorageClass of the pv"),
      col("VolumeAttributesClass", "string", "VolumeAttributesClass of the pv"),
      col("Reason", "string", "reason is a brief CamelCase string that describes any failure."),
      AGE,
      col(
        "VolumeMode",
        "string",
        "volumeMode defines if a volume is intended to be used with a formatted filesystem or to remain in raw block state.",
        1,
      ),
    ],
    cells: (o, now) => [
      o.metadata.name,
      o.spec?.capacity?.storage ?? "0",
      accessModes(o.spec?.accessModes),
      o.spec?.persistentVolumeReclaimPolicy ?? "",
      o.metadata.deletionTimestamp ? "Terminating" : (o.status?.phase ?? ""),
      o.spec?.claimRef ? `${o.spec.claimRef.namespace}/${o.spec.claimRef.name}` : "",
      o.spec?.storageClassName ?? "",
      o.spec?.volumeAttributesClassName ?? "<unset>",
      o.status?.reason ?? "",
      age(o, now),
      o.spec?.volumeMode ?? "<unset>",
    ],
  },
  deployments: {
    columns: [
      NAME,
      col("Ready", "string", "Number of the pod with ready state"),
      col(
        "Up-to-date",
        "string",
        "Total number of non-terminated pods targeted by this deployment that have the desired template spec.",
      ),
      col(
        "Available",
        "string",
        "Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.",
      ),
      AGE,
      CONTAINERS,
      IMAGES,
      SELECTOR,
    ],
    cells: (o, now) => [
      o.metadata.name,
      `${o.status?.readyReplicas ?? 0}/${o.spec?.replicas ?? 0}`,
      o.status?.updatedReplicas ?? 0,
      o.status?.availableReplicas ?? 0,
      age(o, now),
      ...containerCells(o),
      formatSelector(o.spec?.selector),
    ],
  },
  replicasets: {
    columns: [
      NAME,
      col("Desired", "integer", "Replicas is the number of desired replicas."),
      col("Current", "integer", "Replicas is the most recently observed number of replicas."),
      col("Ready", "integer", "The number of ready replicas for this replica set."),
      AGE,
      CONTAINERS,
      IMAGES,
      SELECTOR,
    ],
    cells: (o, now) => [
      o.metadata.name,
      o.spec?.replicas ?? 0,
      o.status?.replicas ?? 0,
      o.status?.readyReplicas ?? 0,
      age(o, now),
      ...containerCells(o),
      formatSelector(o.spec?.selector),
    ],
  },
  statefulsets: {
    columns: [NAME, col("Ready", "string", "Number of the pod with ready state"), AGE, CONTAINERS, IMAGES],
    cells: (o, now) => [
      o.metadata.name,
      `${o.status?.readyReplicas ?? 0}/${o.spec?.replicas ?? 0}`,
      age(o, now),
      ...containerCells(o),
    ],
  },
  daemonsets: {
    columns: [
      NAME,
      col("Desired", "integer", "The total number of nodes that should be running the daemon pod."),
      col(
        "Current",
        "integer",
        "The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod.",
      ),
      col(
        "Ready",
        "integer",
        "The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and ready.",
      ),
      col("Up-to-date", "integer", "The total number of nodes that are running updated daemon pod"),
      col(
        "Available",
        "integer",
        "The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available.",
      ),
      col(
        "Node Selector",
        "string",
        "NodeSelector is a selector which must be true for the pod to fit on a node.",
      ),
      AGE,
      CONTAINERS,
      IMAGES,
      SELECTOR,
    ],
    cells: (o, now) => [
      o.metadata.name,
      o.status?.desiredNumberScheduled ?? 0,
      o.status?.currentNumberScheduled ?? 0,
      o.status?.numberReady ?? 0,
      o.status?.updatedNumberScheduled ?? 0,
      o.status?.numberAvailable ?? 0,
      formatLabels(o.spec?.template?.spec?.nodeSelector),
      age(o, now),
      ...containerCells(o),
      formatSelector(o.spec?.selector),
    ],
  },
  poddisruptionbudgets: {
    columns: [
      NAME,
      col("Min Available", "string", "The minimum number of pods that must be available."),
      col("Max Unavailable", "string", "The maximum number of pods that may be unavailable."),
      col("Allowed Disruptions", "integer", "Calculated number of pods that may be disrupted at this time."),
      AGE,
    ],
    cells: (o, now) => [
      o.metadata.name,
      o.spec?.minAvailable !== undefined ? String(o.spec.minAvailable) : "N/A",
      o.spec?.maxUnavailable !== undefined ? String(o.spec.maxUnavailable) : "N/A",
      o.status?.disruptionsAllowed ?? 0,
      age(o, now),
    ],
  },
  leases: {
    columns: [
      NAME,
      col("Holder", "string", "holderIdentity contains the identity of the holder of a current lease."),
      AGE,
    ],
    cells: (o, now) => [o.metadata.name, o.spec?.holderIdentity ?? "", age(o, now)],
  },
  endpointslices: {
    columns: [
      NAME,
      col(
        "AddressType",
        "string",
        "addressType specifies the type of address carried by this EndpointSlice.",
      ),
      col(
        "Ports",
        "string",
        "ports specifies the list of network ports exposed by each endpoint in this slice.",
      ),
      col("Endpoints", "string", "endpoints is a list of unique endpoints in this slice."),
      AGE,
    ],
    cells: (o, now) => [
      o.metadata.name,
      o.addressType ?? "",
      listWithMore(
        (o.ports ?? []).map((p: { port: number | null; name?: string }) =>
          p.port !== null ? String(p.port) : p.name || "*",
        ),
      ),
      listWithMore((o.endpoints ?? []).flatMap((e: { addresses: string[] }) => e.addresses)),
      age(o, now),
    ],
  },
  volumeattachments: {
    columns: [
      NAME,
      col(
        "Attacher",
        "string",
        "attacher indicates the name of the volume driver that MUST handle this request.",
        0,
        "name",
      ),
      col("PV", "string", "persistentVolumeName represents the name of the persistent volume to attach."),
      col("Node", "string", "nodeName represents the node that the volume should be attached to."),
      col("Attached", "boolean", "attached indicates the volume is successfully attached."),
      AGE,
    ],
    cells: (o, now) => [
      o.metadata.name,
      o.spec?.attacher ?? "",
      o.spec?.source?.persistentVolumeName ?? "",
      o.spec?.nodeName ?? "",
      o.status?.attached ?? false,
      age(o, now),
    ],
  },
};
