// `npx tsx scripts/cluster-dump-fixture.ts`: writes test/fixtures/cluster/shop-dump.yaml, the cluster
// of test/fixtures/cluster/shop.yaml at t=0 in the form `kubectl get nodes,pods,… -A -o yaml` prints
// a live EKS cluster: faultline's own dump (simulate --dump-at 0s), with what an API server, the
// kubelets and the cloud add and faultline does not model: resourceVersions, managedFields, provider
// IDs, node addresses and system info, capacity above allocatable, service-account token volumes,
// container IDs, a few restarted containers, revision annotations. Deterministic: the same bytes on
// every run. The tests read the fixture; run this again only when shop.yaml changes.

import { writeFileSync } from "node:fs";
import { loadScenarioFile } from "../src/load/index.ts";
import type { ApiObject } from "../src/serve/api-types.ts";
import { dumpAt, formatDump, inKubectlOrder } from "../src/serve/dump.ts";

const dir = new URL("../test/fixtures/cluster/", import.meta.url);
const scenario = loadScenarioFile(new URL("shop.yaml", dir).pathname);
const items = dumpAt(scenario, 0);

/** Restarted containers: the first pod whose name starts so → its restartCount. */
const RESTARTS: Record<string, number> = { "redis-2": 3, "search-": 1 };
const restarted = new Set<string>();

let rv = 48_211_000;
let hashState = 0x2545f491;
/** Deterministic hex (xorshift32): instance IDs, container IDs, image digests. */
function hex(n: number): string {
  let out = "";
  while (out.length < n) {
    hashState ^= hashState << 13;
    hashState ^= hashState >>> 17;
    hashState ^= hashState << 5;
    out += (hashState >>> 0).toString(16).padStart(8, "0");
  }
  return out.slice(0, n);
}

/** A managedFields entry's FieldsV1 for a value, as the API server's structured-merge-diff writes it. */
function fieldsV1(v: unknown): Record<string, unknown> {
  if (Array.isArray(v)) return {};
  if (v === null || typeof v !== "object") return {};
  const out: Record<string, unknown> = { ".": {} };
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    if (Array.isArray(x) && x.every((e) => e && typeof e === "object" && "name" in e)) {
      const list: Record<string, unknown> = { ".": {} };
      for (const e of x as { name: string }[]) list[`k:{"name":"${e.name}"}`] = fieldsV1(e);
      out[`f:${k}`] = list;
    } else out[`f:${k}`] = fieldsV1(x);
  }
  return out;
}

function managed(manager: string, time: string, fields: Record<string, unknown>, subresource?: string) {
  return {
    apiVersion: "v1",
    fieldsType: "FieldsV1",
    fieldsV1: fields,
    manager,
    operation: "Update",
    ...(subresource ? { subresource } : {}),
    time,
  };
}

function node(o: ApiObject): void {
  const name = o.metadata.name;
  const zone = o.metadata.labels!["topology.kubernetes.io/zone"]!;
  const ip = name.replace(/^ip-/, "").replace(/\..*$/, "").replaceAll("-", ".");
  const instance = `i-0${hex(16)}`;
  o.metadata.labels = {
    ...o.metadata.labels,
    "eks.amazonaws.com/capacityType": "ON_DEMAND",
    "eks.amazonaws.com/nodegroup-image": "ami-0d3b5f1a07c6e2a14",
    "k8s.io/cloud-provider-aws": "6b9a1c1e8f4d5e2b7c3a9d0f1e2d3c4b",
    "topology.ebs.csi.aws.com/zone": zone,
    "topology.k8s.aws/zone-id": `euw1-az${zone.slice(-1) === "a" ? 3 : zone.slice(-1) === "b" ? 1 : 2}`,
  };
  o.metadata.annotations = {
    "alpha.kubernetes.io/provided-node-ip": ip,
    "csi.volume.kubernetes.io/nodeid": `{"ebs.csi.aws.com":"${instance}"}`,
    "node.alpha.kubernetes.io/ttl": "0",
    "volumes.kubernetes.io/controller-managed-attach-detach": "true",
  };
  o.spec.providerID = `aws:///${zone}/${instance}`;
  o.status.capacity = {
    cpu: "4",
    "ephemeral-storage": "83873772Ki",
    "hugepages-1Gi": "0",
    "hugepages-2Mi": "0",
    memory: "15896988Ki",
    pods: "58",
  };
  o.status.allocatable = {
    cpu: "3920m",
    "ephemeral-storage": "76224326324",
    "hugepages-1Gi": "0",
    "hugepages-2Mi": "0",
    memory: "14879388Ki",
    pods: "58",
  };
  o.status.addresses = [
    { address: ip, type: "InternalIP" },
    { address: name, type: "InternalDNS" },
    { address: name, type: "Hostname" },
  ];
  o.status.images = [
    { names: [`quay.io/prometheus/node-exporter@sha256:${hex(64)}`], sizeBytes: 12_160_548 },
  ];
  o.status.nodeInfo = {
    architecture: "amd64",
    bootID: `${hex(8)}-${hex(4)}-${hex(4)}-${hex(4)}-${hex(12)}`,
    containerRuntimeVersion: "containerd://1.7.23",
    kernelVersion: "6.1.115-126.197.amzn2023.x86_64",
    kubeProxyVersion: "v1.31.2-eks-94953ac",
    kubeletVersion: "v1.31.2-eks-94953ac",
    machineID: hex(32),
    operatingSystem: "linux",
    osImage: "Amazon Linux 2023.6.20241121",
    systemUUID: `ec2${hex(5)}-${hex(4)}-${hex(4)}-${hex(4)}-${hex(12)}`,
  };
  const t = o.metadata.creationTimestamp;
  o.metadata.managedFields = [
    managed("kubelet", t, { "f:metadata": fieldsV1({ annotations: {}, labels: {} }) }),
    managed("kube-controller-manager", t, { "f:spec": fieldsV1({ taints: {} }) }),
    managed("kubelet", t, { "f:status": fieldsV1({ conditions: {}, nodeInfo: {} }) }, "status"),
  ];
}

function pod(o: ApiObject): void {
  const token = `kube-api-access-${hex(5).replace(/[0-9]/g, (d) => "bcdfghjklm"[Number(d)]!)}`;
  o.spec.serviceAccount = o.spec.serviceAccountName;
  o.spec.volumes = [
    ...(o.spec.volumes ?? []),
    {
      name: token,
      projected: {
        defaultMode: 420,
        sources: [
          { serviceAccountToken: { expirationSeconds: 3607, path: "token" } },
          { configMap: { items: [{ key: "ca.crt", path: "ca.crt" }], name: "kube-root-ca.crt" } },
          {
            downwardAPI: {
              items: [{ fieldRef: { apiVersion: "v1", fieldPath: "metadata.namespace" }, path: "namespace" }],
            },
          },
        ],
      },
    },
  ];
  for (const c of o.spec.containers)
    c.volumeMounts = [
      ...(c.volumeMounts ?? []),
      { mountPath: "/var/run/secrets/kubernetes.io/serviceaccount", name: token, readOnly: true },
    ];
  const t = o.metadata.creationTimestamp;
  const prefix = Object.keys(RESTARTS).find((p) => o.metadata.name.startsWith(p) && !restarted.has(p));
  if (prefix) restarted.add(prefix);
  const restarts = prefix ? RESTARTS[prefix] : undefined;
  if (o.spec.nodeName) {
    const host = o.spec.nodeName.replace(/^ip-/, "").replace(/\..*$/, "").replaceAll("-", ".");
    o.status.hostIP = host;
    o.status.hostIPs = [{ ip: host }];
    o.status.startTime = t;
    for (const c of o.status.containerStatuses ?? []) {
      c.containerID = `containerd://${hex(64)}`;
      c.imageID = `${c.image.split(":")[0]}@sha256:${hex(64)}`;
      if (restarts) {
        c.restartCount = restarts;
        c.lastState = {
          terminated: {
            containerID: `containerd://${hex(64)}`,
            exitCode: 137,
            finishedAt: t,
            reason: "OOMKilled",
            startedAt: t,
          },
        };
      }
    }
  }
  const owner = o.metadata.ownerReferences?.[0]?.kind;
  o.metadata.managedFields = [
    managed(owner ? "kube-controller-manager" : "kubectl-client-side-apply", t, {
      "f:metadata": fieldsV1({ labels: o.metadata.labels ?? {} }),
      "f:spec": fieldsV1({ containers: o.spec.containers }),
    }),
    managed(
      o.spec.nodeName ? "kubelet" : "kube-scheduler",
      t,
      { "f:status": fieldsV1({ conditions: {} }) },
      "status",
    ),
  ];
}

function workload(o: ApiObject): void {
  o.metadata.generation = 1;
  const t = o.metadata.creationTimestamp;
  if (o.kind === "Deployment" || o.kind === "ReplicaSet")
    o.metadata.annotations = { ...o.metadata.annotations, "deployment.kubernetes.io/revision": "1" };
  if (o.kind === "DaemonSet")
    o.metadata.annotations = { ...o.metadata.annotations, "deprecated.daemonset.template.generation": "1" };
  const manager = o.kind === "ReplicaSet" ? "kube-controller-manager" : "kubectl-client-side-apply";
  o.metadata.managedFields = [
    managed(manager, t, { "f:spec": fieldsV1({ selector: o.spec.selector, template: {} }) }),
    managed("kube-controller-manager", t, { "f:status": fieldsV1(o.status ?? {}) }, "status"),
  ];
}

// The external provisioner names a volume "pvc-" + the claim's UID; EBS gives it a volume ID.
const volumeNames = new Map<string, string>();
for (const o of items)
  if (o.kind === "PersistentVolume") {
    const name = `pvc-${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`;
    volumeNames.set(o.metadata.name, name);
    o.metadata.name = name;
    o.spec.csi.volumeHandle = `vol-0${hex(16)}`;
  }
for (const o of items)
  if (o.kind === "PersistentVolumeClaim" && o.spec.volumeName)
    o.spec.volumeName = volumeNames.get(o.spec.volumeName) ?? o.spec.volumeName;

for (const o of items) {
  rv += 17;
  o.metadata.resourceVersion = String(rv);
  if (o.kind === "Node") node(o);
  else if (o.kind === "Pod") pod(o);
  else if (["Deployment", "ReplicaSet", "StatefulSet", "DaemonSet"].includes(o.kind)) workload(o);
  else
    o.metadata.managedFields = [
      managed(
        o.kind === "EndpointSlice" ? "kube-controller-manager" : "kubectl-client-side-apply",
        o.metadata.creationTimestamp,
        {
          "f:metadata": fieldsV1({ labels: o.metadata.labels ?? {} }),
        },
      ),
    ];
}

const text = formatDump(inKubectlOrder(items));
writeFileSync(new URL("shop-dump.yaml", dir), text);
const pods = items.filter((o) => o.kind === "Pod").length;
console.log(`shop-dump.yaml: ${items.length} objects, ${pods} pods, ${(text.length / 1024).toFixed(0)} KiB`);
