// Kubernetes manifests → the typed objects of kubernetes/objects.ts. Applies the API server's
// defaults that the models rely on (namespace "default", replicas 1, requests from limits) and its
// validation of the fields the models read; keeps probes as given (the models apply probe
// defaults). Kinds the models do not use are kept aside as `ignored`, never rejected.

import type {
  Affinity,
  Container,
  DaemonSet,
  Deployment,
  HTTPGetAction,
  KubeObject,
  LabelSelector,
  LabelSelectorRequirement,
  ManifestKind,
  ObjectMeta,
  OwnerReference,
  PersistentVolumeClaim,
  PersistentVolumeClaimTemplate,
  Pod,
  PodDisruptionBudget,
  PodSpec,
  PodTemplateSpec,
  Probe,
  ReplicaSet,
  ResourceList,
  Service,
  ServicePort,
  StatefulSet,
  Toleration,
  TopologySpreadConstraint,
  Volume,
} from "../kubernetes/objects.ts";
import { MODELLED_MANIFEST_KINDS } from "../kubernetes/objects.ts";
import type { IgnoredObject, ManifestObject } from "../scenario/types.ts";
import {
  fail,
  int,
  isObj,
  knownFields,
  list,
  type Obj,
  obj,
  oneOf,
  optBool,
  optInt,
  optOneOf,
  optStr,
  optStringMap,
  quantity,
  required,
  show,
  str,
} from "./check.ts";
import * as F from "./fields.ts";
import type { Path, SourceDoc } from "./source.ts";

/** More replicas than this in one workload is refused (the documented limit of 150,000 pods per cluster). */
export const MAX_REPLICAS = 150_000;

const API_VERSION: Record<ManifestKind, string> = {
  Pod: "v1",
  Service: "v1",
  PersistentVolumeClaim: "v1",
  Deployment: "apps/v1",
  ReplicaSet: "apps/v1",
  StatefulSet: "apps/v1",
  DaemonSet: "apps/v1",
  PodDisruptionBudget: "policy/v1",
};

/** API groups whose kinds we know; a modelled kind in another group is someone's CRD and is ignored. */
const BUILTIN_GROUPS = new Set(["", "apps", "policy", "extensions"]);

export interface Collected {
  manifests: ManifestObject[];
  ignored: IgnoredObject[];
  /** Where each of `manifests` is, in the same order, to point at it in later checks. */
  where: { src: SourceDoc; path: Path }[];
  /** `Kind/namespace/name` → position of the first object of that identity. */
  seen: Map<string, { file: string; line: number; col: number }>;
}

export function emptyCollected(): Collected {
  return { manifests: [], ignored: [], where: [], seen: new Map() };
}

/**
 * Validate one value of a manifest document (an object or a List of objects) at `path` in `src`
 * and append it to `out`.
 */
export function collectObjects(src: SourceDoc, path: Path, value: unknown, out: Collected): void {
  if (!isObj(value)) {
    fail(
      src,
      path,
      "invalid-object",
      `${show(value)} is not a Kubernetes object (a mapping with apiVersion, kind and metadata)`,
    );
  }
  const kindValue = value.kind;
  const apiVersionValue = value.apiVersion;
  if (
    kindValue === undefined ||
    kindValue === null ||
    apiVersionValue === undefined ||
    apiVersionValue === null
  ) {
    const missing = kindValue === undefined || kindValue === null ? "kind" : "apiVersion";
    fail(
      src,
      path,
      "invalid-object",
      `object has no "${missing}": every Kubernetes object needs apiVersion and kind (e.g. apiVersion: apps/v1, kind: Deployment)`,
    );
  }
  const kind = str(src, [...path, "kind"], kindValue);
  const apiVersion = str(src, [...path, "apiVersion"], apiVersionValue);

  // kubectl accepts `kind: List` (and <Kind>List, as `kubectl get -o yaml` prints) with `items`.
  if (kind.endsWith("List") && Array.isArray(value.items)) {
    value.items.forEach((item, i) => {
      collectObjects(src, [...path, "items", i], item, out);
    });
    return;
  }

  const pos = { file: src.file, ...src.locate(path) };
  const modelled = (MODELLED_MANIFEST_KINDS as readonly string[]).includes(kind)
    ? (kind as ManifestKind)
    : undefined;
  const group = apiVersion.includes("/") ? apiVersion.slice(0, apiVersion.indexOf("/")) : "";
  if (!modelled || !BUILTIN_GROUPS.has(group)) {
    const meta = isObj(value.metadata) ? value.metadata : {};
    const name = typeof meta.name === "string" ? meta.name : "";
    out.ignored.push({ apiVersion, kind, name, pos });
    return;
  }
  const expected = API_VERSION[modelled];
  if (apiVersion !== expected) {
    fail(
      src,
      [...path, "apiVersion"],
      "invalid-object",
      `no matches for kind "${kind}" in version "${apiVersion}" (use apiVersion: ${expected})`,
    );
  }
  knownFields(src, path, value, F.OBJECT_FIELDS, kind);
  const object = convert(src, path, modelled, value);
  const namespace = object.metadata.namespace ?? "default";
  const id = `${modelled}/${namespace}/${object.metadata.name}`;
  const first = out.seen.get(id);
  if (first) {
    fail(
      src,
      [...path, "metadata", "name"],
      "duplicate-object",
      `duplicate object: ${modelled} "${namespace}/${object.metadata.name}" is already defined at ${first.file}:${first.line}:${first.col}`,
    );
  }
  out.seen.set(id, pos);
  out.manifests.push({ object, kind: modelled, pos });
  out.where.push({ src, path });
}

function convert(src: SourceDoc, path: Path, kind: ManifestKind, o: Obj): KubeObject {
  const metadata = objectMeta(src, [...path, "metadata"], required(src, path, o, "metadata", kind));
  const specPath = [...path, "spec"];
  switch (kind) {
    case "Pod": {
      const spec = podSpec(src, specPath, required(src, path, o, "spec", kind));
      const pod: Pod = {
        kind,
        metadata,
        spec,
        status: { phase: "Pending", conditions: [], containerStatuses: [] },
      };
      return pod;
    }
    case "Deployment": {
      const s = obj(src, specPath, required(src, path, o, "spec", kind));
      knownFields(src, specPath, s, F.DEPLOYMENT_SPEC_FIELDS, "DeploymentSpec");
      const d: Deployment = { kind, metadata, spec: workloadSpec(src, specPath, s, kind) };
      return d;
    }
    case "ReplicaSet": {
      const s = obj(src, specPath, required(src, path, o, "spec", kind));
      knownFields(src, specPath, s, F.REPLICA_SET_SPEC_FIELDS, "ReplicaSetSpec");
      const r: ReplicaSet = { kind, metadata, spec: workloadSpec(src, specPath, s, kind) };
      return r;
    }
    case "StatefulSet": {
      const s = obj(src, specPath, required(src, path, o, "spec", kind));
      knownFields(src, specPath, s, F.STATEFUL_SET_SPEC_FIELDS, "StatefulSetSpec");
      const base = workloadSpec(src, specPath, s, kind);
      const spec: StatefulSet["spec"] = { ...base };
      const serviceName = optStr(src, [...specPath, "serviceName"], s.serviceName);
      if (serviceName !== undefined) spec.serviceName = serviceName;
      const policy = optOneOf(src, [...specPath, "podManagementPolicy"], s.podManagementPolicy, [
        "OrderedReady",
        "Parallel",
      ] as const);
      if (policy) spec.podManagementPolicy = policy;
      if (s.volumeClaimTemplates != null) {
        const p = [...specPath, "volumeClaimTemplates"];
        spec.volumeClaimTemplates = list(src, p, s.volumeClaimTemplates).map((t, i) =>
          claimTemplate(src, [...p, i], t),
        );
      }
      const sts: StatefulSet = { kind, metadata, spec };
      return sts;
    }
    case "DaemonSet": {
      const s = obj(src, specPath, required(src, path, o, "spec", kind));
      knownFields(src, specPath, s, F.DAEMON_SET_SPEC_FIELDS, "DaemonSetSpec");
      const { selector, template } = workloadSpec(src, specPath, s, kind);
      const ds: DaemonSet = { kind, metadata, spec: { selector, template } };
      return ds;
    }
    case "Service":
      return service(src, specPath, metadata, o.spec);
    case "PersistentVolumeClaim": {
      const s = obj(src, specPath, required(src, path, o, "spec", kind));
      knownFields(src, specPath, s, F.PERSISTENT_VOLUME_CLAIM_SPEC_FIELDS, "PersistentVolumeClaimSpec");
      const pvc: PersistentVolumeClaim = {
        kind,
        metadata,
        spec: { accessModes: accessModes(src, [...specPath, "accessModes"], s.accessModes, true) },
      };
      return pvc;
    }
    case "PodDisruptionBudget":
      return podDisruptionBudget(src, specPath, metadata, o.spec);
  }
}

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

function dnsLabel(src: SourceDoc, path: Path, v: unknown): string {
  const s = str(src, path, v);
  if (s.length > 63 || !DNS_LABEL.test(s)) {
    fail(
      src,
      path,
      "invalid-value",
      `${show(s)} is not a valid name: use at most 63 lower-case letters, digits and '-', starting and ending with a letter or digit`,
    );
  }
  return s;
}

/** A DNS subdomain (RFC 1123), as Kubernetes requires of most object names, node names included. */
export function dnsSubdomain(src: SourceDoc, path: Path, v: unknown, what = "name"): string {
  const s = str(src, path, v);
  if (s.length > 253 || !DNS_SUBDOMAIN.test(s)) {
    fail(
      src,
      path,
      "invalid-value",
      `${show(s)} is not a valid ${what}: use lower-case letters, digits, '-' and '.', starting and ending with a letter or digit`,
    );
  }
  return s;
}

function objectMeta(src: SourceDoc, path: Path, v: unknown): ObjectMeta & { namespace: string } {
  const o = obj(src, path, v);
  knownFields(src, path, o, F.OBJECT_META_FIELDS, "ObjectMeta");
  if (o.name == null && o.generateName != null) {
    fail(
      src,
      [...path, "generateName"],
      "missing-field",
      "faultline needs a fixed metadata.name, not generateName",
    );
  }
  const name = dnsSubdomain(src, [...path, "name"], required(src, path, o, "name", "ObjectMeta"));
  const namespace = o.namespace == null ? "default" : dnsLabel(src, [...path, "namespace"], o.namespace);
  const meta: ObjectMeta & { namespace: string } = { name, namespace };
  const labels = optStringMap(src, [...path, "labels"], o.labels);
  if (labels) meta.labels = labels;
  const annotations = optStringMap(src, [...path, "annotations"], o.annotations);
  if (annotations) meta.annotations = annotations;
  const uid = optStr(src, [...path, "uid"], o.uid);
  if (uid !== undefined) meta.uid = uid;
  if (o.ownerReferences != null) {
    const p = [...path, "ownerReferences"];
    meta.ownerReferences = list(src, p, o.ownerReferences).map((r, i): OwnerReference => {
      const rp = [...p, i];
      const ro = obj(src, rp, r);
      knownFields(src, rp, ro, F.OWNER_REFERENCE_FIELDS, "OwnerReference");
      const ref: OwnerReference = {
        kind: str(src, [...rp, "kind"], required(src, rp, ro, "kind", "OwnerReference")),
        name: str(src, [...rp, "name"], required(src, rp, ro, "name", "OwnerReference")),
      };
      const controller = optBool(src, [...rp, "controller"], ro.controller);
      if (controller !== undefined) ref.controller = controller;
      return ref;
    });
  }
  return meta;
}

type WorkloadKind = "Deployment" | "ReplicaSet" | "StatefulSet" | "DaemonSet";

function workloadSpec(
  src: SourceDoc,
  path: Path,
  s: Obj,
  kind: WorkloadKind,
): { replicas: number; selector: LabelSelector; template: PodTemplateSpec } {
  const replicas =
    s.replicas == null ? 1 : int(src, [...path, "replicas"], s.replicas, { min: 0, max: MAX_REPLICAS });
  const selector = labelSelector(
    src,
    [...path, "selector"],
    required(src, path, s, "selector", `${kind}Spec`),
  );
  if (!selector.matchLabels && !selector.matchExpressions) {
    fail(src, [...path, "selector"], "invalid-value", `empty selector is invalid for ${kind}`);
  }
  const tp = [...path, "template"];
  const t = obj(src, tp, required(src, path, s, "template", `${kind}Spec`));
  knownFields(src, tp, t, F.POD_TEMPLATE_SPEC_FIELDS, "PodTemplateSpec");
  const template: PodTemplateSpec = { spec: podSpec(src, [...tp, "spec"], required(src, tp, t, "spec")) };
  let labels: Record<string, string> = {};
  if (t.metadata != null) {
    const mp = [...tp, "metadata"];
    const m = obj(src, mp, t.metadata);
    knownFields(src, mp, m, F.OBJECT_META_FIELDS, "ObjectMeta");
    template.metadata = {};
    const l = optStringMap(src, [...mp, "labels"], m.labels);
    if (l) template.metadata.labels = labels = l;
    const a = optStringMap(src, [...mp, "annotations"], m.annotations);
    if (a) template.metadata.annotations = a;
  }
  if (!selectorMatches(selector, labels)) {
    fail(
      src,
      [...tp, "metadata", "labels"],
      "invalid-value",
      "`selector` does not match template `labels`: the pods this template creates would not be selected",
    );
  }
  const restartPolicy = template.spec.restartPolicy;
  if (restartPolicy !== undefined && restartPolicy !== "Always") {
    fail(
      src,
      [...tp, "spec", "restartPolicy"],
      "invalid-value",
      `Unsupported value: "${restartPolicy}": supported values: "Always" (in a ${kind})`,
    );
  }
  return { replicas, selector, template };
}

/** Whether a label selector selects a set of labels (k8s.io/apimachinery labels.Selector). */
export function selectorMatches(selector: LabelSelector, labels: Record<string, string>): boolean {
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const r of selector.matchExpressions ?? []) {
    const has = Object.hasOwn(labels, r.key);
    const value = labels[r.key];
    const inValues = has && (r.values ?? []).includes(value!);
    if (r.operator === "In" && !inValues) return false;
    if (r.operator === "NotIn" && inValues) return false;
    if (r.operator === "Exists" && !has) return false;
    if (r.operator === "DoesNotExist" && has) return false;
  }
  return true;
}

function labelSelector(src: SourceDoc, path: Path, v: unknown): LabelSelector {
  const o = obj(src, path, v);
  knownFields(src, path, o, F.LABEL_SELECTOR_FIELDS, "LabelSelector");
  const out: LabelSelector = {};
  const ml = optStringMap(src, [...path, "matchLabels"], o.matchLabels);
  if (ml && Object.keys(ml).length > 0) out.matchLabels = ml;
  if (o.matchExpressions != null) {
    const p = [...path, "matchExpressions"];
    const exprs = list(src, p, o.matchExpressions).map((e, i): LabelSelectorRequirement => {
      const ep = [...p, i];
      const eo = obj(src, ep, e);
      knownFields(src, ep, eo, F.LABEL_SELECTOR_REQUIREMENT_FIELDS, "LabelSelectorRequirement");
      const key = str(src, [...ep, "key"], required(src, ep, eo, "key", "LabelSelectorRequirement"));
      const operator = oneOf(src, [...ep, "operator"], required(src, ep, eo, "operator"), [
        "In",
        "NotIn",
        "Exists",
        "DoesNotExist",
      ] as const);
      const values =
        eo.values == null
          ? []
          : list(src, [...ep, "values"], eo.values).map((x, j) => str(src, [...ep, "values", j], x));
      if ((operator === "In" || operator === "NotIn") && values.length === 0) {
        fail(src, [...ep, "values"], "invalid-value", `must be specified when operator is ${operator}`);
      }
      if ((operator === "Exists" || operator === "DoesNotExist") && values.length > 0) {
        fail(src, [...ep, "values"], "invalid-value", `may not be specified when operator is ${operator}`);
      }
      return values.length > 0 ? { key, operator, values } : { key, operator };
    });
    if (exprs.length > 0) out.matchExpressions = exprs;
  }
  return out;
}

function podSpec(src: SourceDoc, path: Path, v: unknown): PodSpec {
  const o = obj(src, path, v);
  knownFields(src, path, o, F.POD_SPEC_FIELDS, "PodSpec");
  const cp = [...path, "containers"];
  const containers = list(src, cp, required(src, path, o, "containers", "PodSpec")).map((c, i) =>
    container(src, [...cp, i], c),
  );
  if (containers.length === 0) fail(src, cp, "missing-field", "a pod needs at least one container");
  const spec: PodSpec = { containers };
  const names = new Map<string, Path>();
  const noteName = (c: Container, p: Path) => {
    const first = names.get(c.name);
    if (first) {
      fail(
        src,
        [...p, "name"],
        "invalid-value",
        `Duplicate value: "${c.name}": container names must be unique in a pod`,
      );
    }
    names.set(c.name, p);
  };
  containers.forEach((c, i) => {
    noteName(c, [...cp, i]);
  });
  if (o.initContainers != null) {
    const ip = [...path, "initContainers"];
    spec.initContainers = list(src, ip, o.initContainers).map((c, i) => container(src, [...ip, i], c));
    spec.initContainers.forEach((c, i) => {
      noteName(c, [...ip, i]);
    });
  }
  const nodeName = optStr(src, [...path, "nodeName"], o.nodeName);
  if (nodeName !== undefined) spec.nodeName = nodeName;
  const nodeSelector = optStringMap(src, [...path, "nodeSelector"], o.nodeSelector);
  if (nodeSelector) spec.nodeSelector = nodeSelector;
  if (o.tolerations != null) {
    const tp = [...path, "tolerations"];
    spec.tolerations = list(src, tp, o.tolerations).map((t, i) => toleration(src, [...tp, i], t));
  }
  const restartPolicy = optOneOf(src, [...path, "restartPolicy"], o.restartPolicy, [
    "Always",
    "OnFailure",
    "Never",
  ] as const);
  if (restartPolicy) spec.restartPolicy = restartPolicy;
  const grace = optInt(src, [...path, "terminationGracePeriodSeconds"], o.terminationGracePeriodSeconds, {
    min: 0,
  });
  if (grace !== undefined) spec.terminationGracePeriodSeconds = grace;
  if (o.affinity != null) spec.affinity = affinity(src, [...path, "affinity"], o.affinity);
  if (o.topologySpreadConstraints != null) {
    const tp = [...path, "topologySpreadConstraints"];
    spec.topologySpreadConstraints = list(src, tp, o.topologySpreadConstraints).map((t, i) =>
      topologySpreadConstraint(src, [...tp, i], t),
    );
  }
  if (o.volumes != null) {
    const vp = [...path, "volumes"];
    spec.volumes = list(src, vp, o.volumes).map((x, i) => volume(src, [...vp, i], x));
  }
  if (o.readinessGates != null) {
    const rp = [...path, "readinessGates"];
    spec.readinessGates = list(src, rp, o.readinessGates).map((g, i) => {
      const go = obj(src, [...rp, i], g);
      knownFields(src, [...rp, i], go, ["conditionType"], "PodReadinessGate");
      return {
        conditionType: str(src, [...rp, i, "conditionType"], required(src, [...rp, i], go, "conditionType")),
      };
    });
  }
  const hostNetwork = optBool(src, [...path, "hostNetwork"], o.hostNetwork);
  if (hostNetwork !== undefined) spec.hostNetwork = hostNetwork;
  const hostname = optStr(src, [...path, "hostname"], o.hostname);
  if (hostname !== undefined) spec.hostname = hostname;
  const subdomain = optStr(src, [...path, "subdomain"], o.subdomain);
  if (subdomain !== undefined) spec.subdomain = subdomain;
  return spec;
}

function container(src: SourceDoc, path: Path, v: unknown): Container {
  const o = obj(src, path, v);
  knownFields(src, path, o, F.CONTAINER_FIELDS, "Container");
  const c: Container = {
    name: dnsLabel(src, [...path, "name"], required(src, path, o, "name", "Container")),
  };
  const image = optStr(src, [...path, "image"], o.image);
  if (image !== undefined) c.image = image;
  if (o.ports != null) {
    const pp = [...path, "ports"];
    c.ports = list(src, pp, o.ports).map((p, i) => {
      const ip = [...pp, i];
      const po = obj(src, ip, p);
      knownFields(src, ip, po, F.CONTAINER_PORT_FIELDS, "ContainerPort");
      const port: { containerPort: number; name?: string; protocol?: string } = {
        containerPort: int(
          src,
          [...ip, "containerPort"],
          required(src, ip, po, "containerPort", "ContainerPort"),
          {
            min: 1,
            max: 65535,
          },
        ),
      };
      const name = optStr(src, [...ip, "name"], po.name);
      if (name !== undefined) port.name = name;
      const protocol = optOneOf(src, [...ip, "protocol"], po.protocol, ["TCP", "UDP", "SCTP"] as const);
      if (protocol) port.protocol = protocol;
      return port;
    });
  }
  if (o.resources != null) c.resources = resources(src, [...path, "resources"], o.resources);
  for (const kind of ["startupProbe", "livenessProbe", "readinessProbe"] as const) {
    if (o[kind] != null) c[kind] = probe(src, [...path, kind], o[kind], kind);
  }
  if (o.lifecycle != null) {
    const lp = [...path, "lifecycle"];
    const l = obj(src, lp, o.lifecycle);
    knownFields(src, lp, l, F.LIFECYCLE_FIELDS, "Lifecycle");
    if (l.postStart != null) lifecycleHandler(src, [...lp, "postStart"], l.postStart);
    if (l.preStop != null) c.lifecycle = { preStop: lifecycleHandler(src, [...lp, "preStop"], l.preStop) };
  }
  return c;
}

function lifecycleHandler(
  src: SourceDoc,
  path: Path,
  v: unknown,
): { sleep?: { seconds: number }; exec?: unknown; httpGet?: unknown } {
  const o = obj(src, path, v);
  knownFields(src, path, o, F.LIFECYCLE_HANDLERS, "LifecycleHandler");
  const handlers = F.LIFECYCLE_HANDLERS.filter((h) => o[h] != null);
  if (handlers.length === 0) {
    fail(
      src,
      path,
      "missing-field",
      `must specify a handler type: one of ${F.LIFECYCLE_HANDLERS.join(", ")}`,
    );
  }
  if (handlers.length > 1) {
    fail(
      src,
      [...path, handlers[1]!],
      "invalid-value",
      `may not specify more than 1 handler type (found ${handlers.join(" and ")})`,
      "key",
    );
  }
  const out: { sleep?: { seconds: number }; exec?: unknown; httpGet?: unknown } = {};
  if (o.sleep != null) {
    const sp = [...path, "sleep"];
    const so = obj(src, sp, o.sleep);
    knownFields(src, sp, so, F.SLEEP_ACTION_FIELDS, "SleepAction");
    out.sleep = {
      seconds: int(src, [...sp, "seconds"], required(src, sp, so, "seconds", "SleepAction"), { min: 0 }),
    };
  }
  if (o.exec != null) out.exec = execAction(src, [...path, "exec"], o.exec);
  if (o.httpGet != null) out.httpGet = httpGetAction(src, [...path, "httpGet"], o.httpGet);
  if (o.tcpSocket != null) tcpSocketAction(src, [...path, "tcpSocket"], o.tcpSocket);
  return out;
}

function resources(
  src: SourceDoc,
  path: Path,
  v: unknown,
): { requests?: ResourceList; limits?: ResourceList } {
  const o = obj(src, path, v);
  knownFields(src, path, o, F.RESOURCE_REQUIREMENTS_FIELDS, "ResourceRequirements");
  const limits = o.limits == null ? undefined : resourceList(src, [...path, "limits"], o.limits);
  let requests = o.requests == null ? undefined : resourceList(src, [...path, "requests"], o.requests);
  if (limits) {
    // API defaulting (core/v1 SetDefaults_Pod): a limit without a request sets the request.
    requests = { ...limits, ...requests };
    for (const key of ["cpu", "memory"] as const) {
      const r = requests[key];
      const l = limits[key];
      if (r !== undefined && l !== undefined && r > l) {
        fail(
          src,
          [...path, "requests", key],
          "invalid-value",
          `request ${show((o.requests as Obj)[key])} is more than the ${key} limit ${show((o.limits as Obj)[key])}: must be less than or equal to ${key} limit`,
        );
      }
    }
  }
  const out: { requests?: ResourceList; limits?: ResourceList } = {};
  if (requests) out.requests = requests;
  if (limits) out.limits = limits;
  return out;
}

/** cpu in cores, memory in bytes; other resources are checked as quantities and not kept. */
export function resourceList(src: SourceDoc, path: Path, v: unknown): ResourceList {
  const o = obj(src, path, v);
  const out: ResourceList = {};
  for (const [key, value] of Object.entries(o)) {
    const n = quantity(src, [...path, key], value);
    if (key === "cpu" || key === "memory") out[key] = n;
    if (key === "pods") out.pods = int(src, [...path, key], n, { min: 0 });
  }
  return out;
}

type ProbeKind = "startupProbe" | "livenessProbe" | "readinessProbe";

function probe(src: SourceDoc, path: Path, v: unknown, kind: ProbeKind): Probe {
  const o = obj(src, path, v);
  knownFields(src, path, o, F.PROBE_FIELDS, "Probe");
  const handlers = F.PROBE_HANDLERS.filter((h) => o[h] != null);
  if (handlers.length === 0) {
    fail(
      src,
      path,
      "missing-field",
      `a probe needs exactly one handler: exec, grpc, httpGet or tcpSocket (${kind} has none)`,
    );
  }
  if (handlers.length > 1) {
    fail(
      src,
      [...path, handlers[1]!],
      "invalid-value",
      `may not specify more than 1 handler type (found ${handlers.join(" and ")}); a probe has exactly one`,
      "key",
    );
  }
  const p: Probe = {};
  if (o.exec != null) p.exec = execAction(src, [...path, "exec"], o.exec);
  if (o.httpGet != null) p.httpGet = httpGetAction(src, [...path, "httpGet"], o.httpGet);
  if (o.tcpSocket != null) p.tcpSocket = tcpSocketAction(src, [...path, "tcpSocket"], o.tcpSocket);
  if (o.grpc != null) {
    const gp = [...path, "grpc"];
    const g = obj(src, gp, o.grpc);
    knownFields(src, gp, g, F.GRPC_ACTION_FIELDS, "GRPCAction");
    p.grpc = {
      port: int(src, [...gp, "port"], required(src, gp, g, "port", "GRPCAction"), { min: 1, max: 65535 }),
    };
    const service = optStr(src, [...gp, "service"], g.service);
    if (service !== undefined) p.grpc.service = service;
  }
  // Ranges from the API's validation (kubernetes.md §7.1).
  const ranges = {
    initialDelaySeconds: 0,
    periodSeconds: 1,
    timeoutSeconds: 1,
    successThreshold: 1,
    failureThreshold: 1,
  } as const;
  for (const [field, min] of Object.entries(ranges) as [keyof typeof ranges, number][]) {
    const n = optInt(src, [...path, field], o[field], { min });
    if (n !== undefined) p[field] = n;
  }
  if (kind !== "readinessProbe" && p.successThreshold !== undefined && p.successThreshold !== 1) {
    fail(
      src,
      [...path, "successThreshold"],
      "invalid-value",
      `${p.successThreshold} is invalid: must be 1 for ${kind}s (only a readiness probe may require several successes)`,
    );
  }
  if (o.terminationGracePeriodSeconds != null) {
    if (kind === "readinessProbe") {
      fail(
        src,
        [...path, "terminationGracePeriodSeconds"],
        "invalid-value",
        "must not be set for readinessProbes (a readiness failure never kills the container)",
        "key",
      );
    }
    p.terminationGracePeriodSeconds = int(
      src,
      [...path, "terminationGracePeriodSeconds"],
      o.terminationGracePeriodSeconds,
      {
        min: 1,
      },
    );
  }
  return p;
}

function execAction(src: SourceDoc, path: Path, v: unknown): { command: string[] } {
  const o = obj(src, path, v);
  knownFields(src, path, o, F.EXEC_ACTION_FIELDS, "ExecAction");
  const cp = [...path, "command"];
  const command = list(src, cp, required(src, path, o, "command", "ExecAction")).map((x, i) =>
    str(src, [...cp, i], x),
  );
  if (command.length === 0) fail(src, cp, "missing-field", "exec needs a command");
  return { command };
}

function httpGetAction(src: SourceDoc, path: Path, v: unknown): HTTPGetAction {
  const o = obj(src, path, v);
  knownFields(src, path, o, F.HTTP_GET_ACTION_FIELDS, "HTTPGetAction");
  const h: HTTPGetAction = {
    port: port(src, [...path, "port"], required(src, path, o, "port", "HTTPGetAction")),
  };
  const p = optStr(src, [...path, "path"], o.path);
  if (p !== undefined) h.path = p;
  const scheme = optOneOf(src, [...path, "scheme"], o.scheme, ["HTTP", "HTTPS"] as const);
  if (scheme) h.scheme = scheme;
  optStr(src, [...path, "host"], o.host);
  if (o.httpHeaders != null) list(src, [...path, "httpHeaders"], o.httpHeaders);
  return h;
}

function tcpSocketAction(src: SourceDoc, path: Path, v: unknown): { port: number | string } {
  const o = obj(src, path, v);
  knownFields(src, path, o, F.TCP_SOCKET_ACTION_FIELDS, "TCPSocketAction");
  optStr(src, [...path, "host"], o.host);
  return { port: port(src, [...path, "port"], required(src, path, o, "port", "TCPSocketAction")) };
}

const IANA_SVC_NAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;

/** A port number (1–65535) or a named container port (an IANA service name). */
function port(src: SourceDoc, path: Path, v: unknown): number | string {
  if (typeof v === "string") {
    if (v.length > 15 || !IANA_SVC_NAME.test(v) || !/[a-z]/.test(v) || v.includes("--")) {
      fail(
        src,
        path,
        "invalid-value",
        `${show(v)} is not a port number or a port name (at most 15 of a-z, 0-9, '-')`,
      );
    }
    return v;
  }
  return int(src, path, v, { min: 1, max: 65535 });
}

function toleration(src: SourceDoc, path: Path, v: unknown): Toleration {
  const o = obj(src, path, v);
  knownFields(src, path, o, F.TOLERATION_FIELDS, "Toleration");
  const t: Toleration = {};
  const key = optStr(src, [...path, "key"], o.key);
  if (key !== undefined) t.key = key;
  const operator = optOneOf(src, [...path, "operator"], o.operator, ["Exists", "Equal"] as const);
  if (operator) t.operator = operator;
  const value = optStr(src, [...path, "value"], o.value);
  if (value !== undefined) t.value = value;
  if (operator === "Exists" && value) {
    fail(src, [...path, "value"], "invalid-value", "value must be empty when `operator` is 'Exists'");
  }
  if (o.effect != null) {
    t.effect = oneOf(src, [...path, "effect"], o.effect, [
      "",
      "NoSchedule",
      "PreferNoSchedule",
      "NoExecute",
    ] as const);
  }
  if (o.tolerationSeconds != null) {
    t.tolerationSeconds = int(src, [...path, "tolerationSeconds"], o.tolerationSeconds);
    if (t.effect !== "NoExecute") {
      fail(
        src,
        [...path, "tolerationSeconds"],
        "invalid-value",
        "effect must be 'NoExecute' when `tolerationSeconds` is set",
        "key",
      );
    }
  }
  return t;
}

function affinity(src: SourceDoc, path: Path, v: unknown): Affinity {
  const o = obj(src, path, v);
  knownFields(src, path, o, F.AFFINITY_FIELDS, "Affinity");
  for (const key of ["podAffinity", "podAntiAffinity"] as const) {
    if (o[key] != null)
      knownFields(src, [...path, key], obj(src, [...path, key], o[key]), F.POD_AFFINITY_FIELDS, key);
  }
  // Affinity terms are kept as written; the scheduler model reads the parts it understands.
  return o as Affinity;
}

function topologySpreadConstraint(src: SourceDoc, path: Path, v: unknown): TopologySpreadConstraint {
  const o = obj(src, path, v);
  knownFields(src, path, o, F.TOPOLOGY_SPREAD_CONSTRAINT_FIELDS, "TopologySpreadConstraint");
  const t: TopologySpreadConstraint = {
    maxSkew: int(src, [...path, "maxSkew"], required(src, path, o, "maxSkew", "TopologySpreadConstraint"), {
      min: 1,
    }),
    topologyKey: str(
      src,
      [...path, "topologyKey"],
      required(src, path, o, "topologyKey", "TopologySpreadConstraint"),
    ),
    whenUnsatisfiable: oneOf(
      src,
      [...path, "whenUnsatisfiable"],
      required(src, path, o, "whenUnsatisfiable"),
      ["DoNotSchedule", "ScheduleAnyway"] as const,
    ),
  };
  if (o.labelSelector != null)
    t.labelSelector = labelSelector(src, [...path, "labelSelector"], o.labelSelector);
  return t;
}

function volume(src: SourceDoc, path: Path, v: unknown): Volume {
  const o = obj(src, path, v);
  const vol: Volume = { name: dnsLabel(src, [...path, "name"], required(src, path, o, "name", "Volume")) };
  if (o.persistentVolumeClaim != null) {
    const pp = [...path, "persistentVolumeClaim"];
    const p = obj(src, pp, o.persistentVolumeClaim);
    knownFields(src, pp, p, ["claimName", "readOnly"], "PersistentVolumeClaimVolumeSource");
    vol.persistentVolumeClaim = {
      claimName: str(
        src,
        [...pp, "claimName"],
        required(src, pp, p, "claimName", "PersistentVolumeClaimVolumeSource"),
      ),
    };
  }
  return vol;
}

const ACCESS_MODES = ["ReadWriteOnce", "ReadOnlyMany", "ReadWriteMany", "ReadWriteOncePod"] as const;

function accessModes(src: SourceDoc, path: Path, v: unknown, needed: boolean): string[] {
  if (v == null) {
    if (needed) fail(src, path, "missing-field", "at least 1 access mode is required");
    return [];
  }
  const modes = list(src, path, v).map((m, i) => oneOf(src, [...path, i], m, ACCESS_MODES));
  if (needed && modes.length === 0) fail(src, path, "missing-field", "at least 1 access mode is required");
  return modes;
}

function claimTemplate(src: SourceDoc, path: Path, v: unknown): PersistentVolumeClaimTemplate {
  const o = obj(src, path, v);
  knownFields(src, path, o, F.PERSISTENT_VOLUME_CLAIM_TEMPLATE_FIELDS, "PersistentVolumeClaim");
  const mp = [...path, "metadata"];
  const m = obj(src, mp, required(src, path, o, "metadata", "PersistentVolumeClaim"));
  knownFields(src, mp, m, F.OBJECT_META_FIELDS, "ObjectMeta");
  const name = dnsSubdomain(src, [...mp, "name"], required(src, mp, m, "name", "ObjectMeta"));
  const sp = [...path, "spec"];
  const s = obj(src, sp, required(src, path, o, "spec", "PersistentVolumeClaim"));
  knownFields(src, sp, s, F.PERSISTENT_VOLUME_CLAIM_SPEC_FIELDS, "PersistentVolumeClaimSpec");
  return {
    metadata: { name },
    spec: { accessModes: accessModes(src, [...sp, "accessModes"], s.accessModes, true) },
  };
}

function service(src: SourceDoc, path: Path, metadata: Service["metadata"], v: unknown): Service {
  const s = v == null ? {} : obj(src, path, v);
  knownFields(src, path, s, F.SERVICE_SPEC_FIELDS, "ServiceSpec");
  const spec: Service["spec"] = {};
  const selector = optStringMap(src, [...path, "selector"], s.selector);
  if (selector) spec.selector = selector;
  const type = optOneOf(src, [...path, "type"], s.type, [
    "ClusterIP",
    "NodePort",
    "LoadBalancer",
    "ExternalName",
  ] as const);
  if (type) spec.type = type;
  const etp = optOneOf(src, [...path, "externalTrafficPolicy"], s.externalTrafficPolicy, [
    "Cluster",
    "Local",
  ] as const);
  if (etp) spec.externalTrafficPolicy = etp;
  const itp = optOneOf(src, [...path, "internalTrafficPolicy"], s.internalTrafficPolicy, [
    "Cluster",
    "Local",
  ] as const);
  if (itp) spec.internalTrafficPolicy = itp;
  const pnra = optBool(src, [...path, "publishNotReadyAddresses"], s.publishNotReadyAddresses);
  if (pnra !== undefined) spec.publishNotReadyAddresses = pnra;
  const clusterIP = optStr(src, [...path, "clusterIP"], s.clusterIP);
  if (clusterIP !== undefined) spec.clusterIP = clusterIP;
  if (s.ports != null) {
    const pp = [...path, "ports"];
    spec.ports = list(src, pp, s.ports).map((p, i): ServicePort => {
      const ip = [...pp, i];
      const po = obj(src, ip, p);
      knownFields(src, ip, po, F.SERVICE_PORT_FIELDS, "ServicePort");
      const sp: ServicePort = {
        port: int(src, [...ip, "port"], required(src, ip, po, "port", "ServicePort"), { min: 1, max: 65535 }),
      };
      const name = optStr(src, [...ip, "name"], po.name);
      if (name !== undefined) sp.name = name;
      if (po.targetPort != null) sp.targetPort = port(src, [...ip, "targetPort"], po.targetPort);
      const nodePort = optInt(src, [...ip, "nodePort"], po.nodePort, { min: 1, max: 65535 });
      if (nodePort !== undefined) sp.nodePort = nodePort;
      const protocol = optOneOf(src, [...ip, "protocol"], po.protocol, ["TCP", "UDP", "SCTP"] as const);
      if (protocol) sp.protocol = protocol;
      return sp;
    });
  }
  return { kind: "Service", metadata, spec };
}

function podDisruptionBudget(
  src: SourceDoc,
  path: Path,
  metadata: PodDisruptionBudget["metadata"],
  v: unknown,
): PodDisruptionBudget {
  const s = v == null ? {} : obj(src, path, v);
  knownFields(src, path, s, F.POD_DISRUPTION_BUDGET_SPEC_FIELDS, "PodDisruptionBudgetSpec");
  const spec: PodDisruptionBudget["spec"] = {};
  if (s.selector != null) spec.selector = labelSelector(src, [...path, "selector"], s.selector);
  if (s.minAvailable != null && s.maxUnavailable != null) {
    fail(
      src,
      [...path, "maxUnavailable"],
      "invalid-value",
      "minAvailable and maxUnavailable cannot be both set",
      "key",
    );
  }
  for (const key of ["minAvailable", "maxUnavailable"] as const) {
    if (s[key] != null) spec[key] = intOrPercent(src, [...path, key], s[key]);
  }
  optOneOf(src, [...path, "unhealthyPodEvictionPolicy"], s.unhealthyPodEvictionPolicy, [
    "IfHealthyBudget",
    "AlwaysAllow",
  ] as const);
  return { kind: "PodDisruptionBudget", metadata, spec };
}

function intOrPercent(src: SourceDoc, path: Path, v: unknown): number | string {
  if (typeof v === "string") {
    const m = /^(\d+)%$/.exec(v);
    if (!m || Number(m[1]) > 100) {
      fail(
        src,
        path,
        "invalid-value",
        `${show(v)} is not an integer or a percentage between "0%" and "100%"`,
      );
    }
    return v;
  }
  return int(src, path, v, { min: 0 });
}
