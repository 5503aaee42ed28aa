// Fields that are valid Kubernetes and change what a failure does, but that no model reads: each is
// reported once (the first place it appears) as "not modelled", never silently dropped
// ("never silent"). Decided field by field from what the models use (grep the field's name in
// src/kubelet, src/controllers, src/faults, src/network, src/traffic):
// - not listed: fields with no bearing on failure handling (image, env, command, securityContext,
//   dnsPolicy, serviceAccountName, revisionHistoryLimit, clusterIP, ports of a Service…; a reference
//   to an object not among the manifests is listed by references.ts) and fields
//   the models read (replicas, selectors, probes, tolerations, nodeSelector, affinity: node, pod and
//   anti-affinity with namespaces and namespaceSelector, topologySpreadConstraints, requests,
//   terminationGracePeriodSeconds, readinessGates, hostNetwork, podManagementPolicy, serviceName,
//   publishNotReadyAddresses, externalTrafficPolicy, trafficDistribution, a StatefulSet's updateStrategy, minAvailable/maxUnavailable…);
// - listed: what follows, a field only when its value differs from the behaviour the models assume
//   (schedulerName other than default-scheduler, sessionAffinity ClientIP…).
// When a model starts reading one of these, delete its line here in the same commit.

import { isObj, type Obj } from "../check.ts";
import type { Path, SourceDoc } from "../source.ts";

type When = (v: unknown) => boolean;

const present: When = (v) => v !== undefined && v !== null;
const nonEmpty: When = (v) =>
  Array.isArray(v) ? v.length > 0 : isObj(v) ? Object.keys(v).length > 0 : present(v);
const notZero: When = (v) => present(v) && v !== 0;
const not =
  (value: unknown): When =>
  (v) =>
    present(v) && v !== value;

/** API type → field (dotted below the type) → when it counts as used. */
const RULES: Record<string, Record<string, When>> = {
  ObjectMeta: { finalizers: nonEmpty },
  DeploymentSpec: { minReadySeconds: notZero, strategy: present },
  ReplicaSetSpec: { minReadySeconds: notZero },
  StatefulSetSpec: {
    minReadySeconds: notZero,
    ordinals: present,
    persistentVolumeClaimRetentionPolicy: present,
  },
  DaemonSetSpec: { minReadySeconds: notZero, updateStrategy: present },
  // The Job controller (job-controller.ts) reads the rest; per-index back-off, success policies and
  // another controller's management are not modelled.
  // Only UTC schedules are modelled (kubernetes/cron.ts).
  CronJobSpec: { timeZone: (v) => present(v) && v !== "UTC" && v !== "Etc/UTC" },
  JobSpec: {
    backoffLimitPerIndex: present,
    maxFailedIndexes: present,
    successPolicy: present,
    managedBy: not("kubernetes.io/job-controller"),
  },
  PodSpec: {
    activeDeadlineSeconds: present,
    overhead: nonEmpty,
    resourceClaims: nonEmpty,
    resources: nonEmpty,
    runtimeClassName: present,
    schedulerName: not("default-scheduler"),
    schedulingGates: nonEmpty,
    workloadRef: present,
  },
  PodAffinityTerm: {
    matchLabelKeys: nonEmpty,
    mismatchLabelKeys: nonEmpty,
  },
  Container: {
    "lifecycle.postStart": present,
    "lifecycle.stopSignal": present,
    "resources.claims": nonEmpty,
    "resources.limits": nonEmpty,
  },
  // An init container's restartPolicy other than Always (a sidecar, modelled), and its rules
  // (KEP-5307); an app container's are modelled from 1.35 and listed before (manifests.ts).
  InitContainer: { restartPolicy: not("Always"), restartPolicyRules: nonEmpty },
  ServiceSpec: {
    internalTrafficPolicy: not("Cluster"),
    sessionAffinity: not("None"),
  },
  // Dynamic provisioning refuses a claim with a selector ("claim Selector is not supported",
  // kubernetes-csi/external-provisioner pkg/controller/controller.go); faultline provisions it.
  PersistentVolumeClaimSpec: { selector: nonEmpty },
};

/** RULES as lists, each field's name and path made once (a dump runs them on 10,000s of objects). */
const RULE_LISTS: Record<string, { name: string; parts: string[]; when: When }[]> = Object.fromEntries(
  Object.entries(RULES).map(([type, fields]) => [
    type,
    Object.entries(fields).map(([field, when]) => ({
      // The app and init containers' own rules are reported under the API type's name.
      name: `${type === "InitContainer" ? "Container" : type}.${field}`,
      parts: field.split("."),
      when,
    })),
  ]),
);

/** `field` (e.g. `Container.resources.limits`) → where it first appears: `file:line`, and its order. */
export type NotModelled = Map<string, { where: string; object: number; line: number }>;

/** The fields in the order they appear: by object (load order), then line. */
export function notModelledInOrder(notModelled: NotModelled): { field: string; where: string }[] {
  return [...notModelled]
    .sort(([, a], [, b]) => a.object - b.object || a.line - b.line)
    .map(([field, { where }]) => ({ field, where }));
}

/**
 * Notes the not-modelled fields of a loaded object (the `object`-th), its raw value at `path` in
 * `src`.
 */
export function noteNotModelled(
  src: SourceDoc,
  path: Path,
  kind: string,
  o: Obj,
  object: number,
  out: NotModelled,
): void {
  const visit = (type: string, p: Path, v: unknown) => {
    if (!isObj(v)) return;
    for (const { name, parts, when } of RULE_LISTS[type] ?? []) {
      if (out.has(name)) continue;
      let value: unknown = v;
      for (const k of parts) value = isObj(value) ? value[k] : undefined;
      if (!when(value)) continue;
      const { line } = src.locate([...p, ...parts], "key");
      out.set(name, { where: `${src.file}:${line}`, object, line });
    }
  };
  const each = (type: string, p: Path, v: unknown, visitItem = visit) => {
    if (!Array.isArray(v)) return;
    v.forEach((x, i) => {
      visitItem(type, [...p, i], x);
    });
  };
  const podSpec = (p: Path, spec: unknown) => {
    if (!isObj(spec)) return;
    visit("PodSpec", p, spec);
    for (const list of ["containers", "initContainers"] as const) {
      each("Container", [...p, list], spec[list]);
    }
    each("InitContainer", [...p, "initContainers"], spec.initContainers);
    if (isObj(spec.affinity)) {
      visit("Affinity", [...p, "affinity"], spec.affinity);
      for (const a of ["podAffinity", "podAntiAffinity"] as const) {
        const pa = spec.affinity[a];
        if (!isObj(pa)) continue;
        const ap = [...p, "affinity", a];
        each(
          "PodAffinityTerm",
          [...ap, "requiredDuringSchedulingIgnoredDuringExecution"],
          pa.requiredDuringSchedulingIgnoredDuringExecution,
        );
        const preferred = pa.preferredDuringSchedulingIgnoredDuringExecution;
        if (Array.isArray(preferred))
          preferred.forEach((w, i) => {
            if (isObj(w))
              visit(
                "PodAffinityTerm",
                [...ap, "preferredDuringSchedulingIgnoredDuringExecution", i, "podAffinityTerm"],
                w.podAffinityTerm,
              );
          });
      }
    }
    each("TopologySpreadConstraint", [...p, "topologySpreadConstraints"], spec.topologySpreadConstraints);
  };

  visit("ObjectMeta", [...path, "metadata"], o.metadata);
  const sp = [...path, "spec"];
  const spec = o.spec;
  switch (kind) {
    case "Pod":
      podSpec(sp, spec);
      break;
    case "CronJob":
      visit("CronJobSpec", sp, spec);
      // Its jobTemplate holds a Job's metadata and spec.
      if (isObj(spec) && isObj(spec.jobTemplate))
        noteNotModelled(src, [...sp, "jobTemplate"], "Job", spec.jobTemplate, object, out);
      break;
    case "Deployment":
    case "ReplicaSet":
    case "StatefulSet":
    case "DaemonSet":
    case "Job":
      visit(`${kind}Spec`, sp, spec);
      if (isObj(spec))
        each(
          "PersistentVolumeClaimTemplate",
          [...sp, "volumeClaimTemplates"],
          spec.volumeClaimTemplates,
          (_, tp, t) => {
            if (isObj(t)) visit("PersistentVolumeClaimSpec", [...tp, "spec"], t.spec);
          },
        );
      if (isObj(spec) && isObj(spec.template)) {
        visit("ObjectMeta", [...sp, "template", "metadata"], spec.template.metadata);
        podSpec([...sp, "template", "spec"], spec.template.spec);
      }
      break;
    case "Service":
      visit("ServiceSpec", sp, spec);
      break;
    case "PersistentVolumeClaim":
      visit("PersistentVolumeClaimSpec", sp, spec);
      break;
    default:
      break;
  }
}
