// apps/v1 workloads: Deployment, ReplicaSet, StatefulSet, DaemonSet. Each has a selector that must
// select its own template's labels (apps validation), and a pod template whose restartPolicy is Always.

import { matchesSelector } from "../../kubernetes/labels.ts";
import type {
  DaemonSet,
  Deployment,
  LabelSelector,
  PodTemplateSpec,
  ReplicaSet,
  StatefulSet,
} from "../../kubernetes/objects.ts";
import { fail, int, knownFields, list, type Obj, obj, optOneOf, optStr, required } from "../check.ts";
import type { Path, SourceDoc } from "../source.ts";
import * as F from "./fields.ts";
import { annotationMap, type Meta, optLabelMap } from "./meta.ts";
import { podSpec } from "./pod-spec.ts";
import { labelSelector } from "./selector.ts";
import { claimTemplate } from "./storage.ts";

/** More replicas than this in one workload is refused (the documented limit of 150,000 pods per cluster). */
export const MAX_REPLICAS = 150_000;

export function deployment(src: SourceDoc, path: Path, metadata: Meta, o: Obj): Deployment {
  const specPath = [...path, "spec"];
  const s = obj(src, specPath, required(src, path, o, "spec", "Deployment"));
  knownFields(src, specPath, s, F.DEPLOYMENT_SPEC_FIELDS, "DeploymentSpec");
  return { kind: "Deployment", metadata, spec: workloadSpec(src, specPath, s, "Deployment") };
}

export function replicaSet(src: SourceDoc, path: Path, metadata: Meta, o: Obj): ReplicaSet {
  const specPath = [...path, "spec"];
  const s = obj(src, specPath, required(src, path, o, "spec", "ReplicaSet"));
  knownFields(src, specPath, s, F.REPLICA_SET_SPEC_FIELDS, "ReplicaSetSpec");
  return { kind: "ReplicaSet", metadata, spec: workloadSpec(src, specPath, s, "ReplicaSet") };
}

export function statefulSet(src: SourceDoc, path: Path, metadata: Meta, o: Obj): StatefulSet {
  const specPath = [...path, "spec"];
  const s = obj(src, specPath, required(src, path, o, "spec", "StatefulSet"));
  knownFields(src, specPath, s, F.STATEFUL_SET_SPEC_FIELDS, "StatefulSetSpec");
  const spec: StatefulSet["spec"] = { ...workloadSpec(src, specPath, s, "StatefulSet") };
  const serviceName = optStr(src, [...specPath, "serviceName"], s.serviceName);
  if (serviceName !== undefined) spec.serviceName = serviceName;
  const policy = optOneOf(src, [...specPath, "podManagementPolicy"], s.podManagementPolicy, [
    "OrderedReady",
    "Parallel",
  ] as const);
  if (policy) spec.podManagementPolicy = policy;
  const strategy = updateStrategy(src, [...specPath, "updateStrategy"], s.updateStrategy);
  if (strategy) spec.updateStrategy = strategy;
  if (s.volumeClaimTemplates != null) {
    const p = [...specPath, "volumeClaimTemplates"];
    spec.volumeClaimTemplates = list(src, p, s.volumeClaimTemplates).map((t, i) =>
      claimTemplate(src, [...p, i], t),
    );
  }
  return { kind: "StatefulSet", metadata, spec };
}

/**
 * StatefulSetUpdateStrategy (apps/v1): its type and rollingUpdate's partition and maxUnavailable as
 * written; maxUnavailable is checked against the version's gate by load/scenario/
 * statefulset-max-unavailable.ts (the API server drops it where MaxUnavailableStatefulSet is off).
 */
function updateStrategy(src: SourceDoc, p: Path, v: unknown): StatefulSet["spec"]["updateStrategy"] {
  if (v == null) return undefined;
  const o = obj(src, p, v);
  knownFields(src, p, o, ["type", "rollingUpdate"], "StatefulSetUpdateStrategy");
  const out: NonNullable<StatefulSet["spec"]["updateStrategy"]> = {};
  const type = optOneOf(src, [...p, "type"], o.type, ["RollingUpdate", "OnDelete"] as const);
  if (type) out.type = type;
  if (o.rollingUpdate == null) return out;
  const rp = [...p, "rollingUpdate"];
  const r = obj(src, rp, o.rollingUpdate);
  knownFields(src, rp, r, ["partition", "maxUnavailable"], "RollingUpdateStatefulSetStrategy");
  out.rollingUpdate = {};
  if (r.partition != null)
    out.rollingUpdate.partition = int(src, [...rp, "partition"], r.partition, { min: 0 });
  if (r.maxUnavailable != null) {
    const mu = r.maxUnavailable;
    if (typeof mu !== "number" && typeof mu !== "string")
      fail(
        src,
        [...rp, "maxUnavailable"],
        "invalid-type",
        `${JSON.stringify(mu)} is not an integer or a percentage`,
      );
    out.rollingUpdate.maxUnavailable = mu;
  }
  return out;
}

export function daemonSet(src: SourceDoc, path: Path, metadata: Meta, o: Obj): DaemonSet {
  const specPath = [...path, "spec"];
  const s = obj(src, specPath, required(src, path, o, "spec", "DaemonSet"));
  knownFields(src, specPath, s, F.DAEMON_SET_SPEC_FIELDS, "DaemonSetSpec");
  const { selector, template } = workloadSpec(src, specPath, s, "DaemonSet");
  return { kind: "DaemonSet", metadata, spec: { selector, template } };
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
  const template = podTemplate(src, tp, required(src, path, s, "template", `${kind}Spec`));
  const labels = template.metadata?.labels ?? {};
  if (!matchesSelector(selector, labels)) {
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

/** A PodTemplateSpec: its metadata's labels and annotations, and its pod spec. */
export function podTemplate(src: SourceDoc, tp: Path, v: unknown): PodTemplateSpec {
  const t = obj(src, tp, v);
  knownFields(src, tp, t, F.POD_TEMPLATE_SPEC_FIELDS, "PodTemplateSpec");
  const template: PodTemplateSpec = { spec: podSpec(src, [...tp, "spec"], required(src, tp, t, "spec")) };
  if (t.metadata != null) {
    const mp = [...tp, "metadata"];
    const m = obj(src, mp, t.metadata);
    knownFields(src, mp, m, F.OBJECT_META_FIELDS, "ObjectMeta");
    template.metadata = {};
    const l = optLabelMap(src, [...mp, "labels"], m.labels);
    if (l) template.metadata.labels = l;
    if (m.annotations != null)
      template.metadata.annotations = annotationMap(src, [...mp, "annotations"], m.annotations);
  }
  return template;
}
