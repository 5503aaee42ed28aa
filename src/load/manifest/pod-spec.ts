// PodSpec (core/v1): containers (container.ts), scheduling constraints (nodeSelector, tolerations,
// affinity, topology spread), volumes, readiness gates; and the bare Pod object.

import type {
  Container,
  Pod,
  PodSpec,
  Toleration,
  TopologySpreadConstraint,
  Volume,
} from "../../kubernetes/objects.ts";
import {
  fail,
  int,
  knownFields,
  list,
  type Obj,
  obj,
  oneOf,
  optBool,
  optInt,
  optOneOf,
  optStr,
  required,
  str,
} from "../check.ts";
import type { Path, SourceDoc } from "../source.ts";
import { affinity } from "./affinity.ts";
import { container } from "./container.ts";
import * as F from "./fields.ts";
import { check, dnsLabel, type Meta, optLabelMap } from "./meta.ts";
import { isLabelKey, isLabelValue } from "./names.ts";
import { podSpecPriority } from "./priority.ts";
import { labelSelector } from "./selector.ts";

export function pod(src: SourceDoc, path: Path, metadata: Meta, o: Obj): Pod {
  const spec = podSpec(src, [...path, "spec"], required(src, path, o, "spec", "Pod"));
  return { kind: "Pod", metadata, spec, status: { phase: "Pending", conditions: [], containerStatuses: [] } };
}

export function podSpec(src: SourceDoc, path: Path, v: unknown): PodSpec {
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
      checkInitContainer(src, [...ip, i], c);
    });
  }
  const nodeName = optStr(src, [...path, "nodeName"], o.nodeName);
  if (nodeName !== undefined) spec.nodeName = nodeName;
  const nodeSelector = optLabelMap(src, [...path, "nodeSelector"], o.nodeSelector);
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
  // serviceAccount is the deprecated alias: the v1→internal conversion takes it when
  // serviceAccountName is empty (Convert_v1_PodSpec_To_core_PodSpec, pkg/apis/core/v1/conversion.go, 1.32).
  const account =
    optStr(src, [...path, "serviceAccountName"], o.serviceAccountName) ||
    optStr(src, [...path, "serviceAccount"], o.serviceAccount);
  if (account) spec.serviceAccountName = account;
  podSpecPriority(src, path, o, spec);
  return spec;
}

/** ValidateTolerations (pkg/apis/core/validation). */
function toleration(src: SourceDoc, path: Path, v: unknown): Toleration {
  const o = obj(src, path, v);
  knownFields(src, path, o, F.TOLERATION_FIELDS, "Toleration");
  const t: Toleration = {};
  const key = optStr(src, [...path, "key"], o.key);
  if (key) check(src, [...path, "key"], key, isLabelKey, "toleration key");
  if (key !== undefined) t.key = key;
  const operator = optOneOf(src, [...path, "operator"], o.operator, ["Exists", "Equal"] as const);
  if (operator) t.operator = operator;
  if (!key && operator !== "Exists") {
    fail(
      src,
      o.operator == null ? path : [...path, "operator"],
      "invalid-value",
      'operator must be Exists when `key` is empty, which means "match all values and all keys"',
    );
  }
  const value = optStr(src, [...path, "value"], o.value);
  if (value !== undefined) t.value = value;
  if (operator === "Exists" && value) {
    fail(src, [...path, "value"], "invalid-value", "value must be empty when `operator` is 'Exists'");
  }
  // Operator Equal (or empty): the value is a label value.
  if (operator !== "Exists") check(src, [...path, "value"], value ?? "", isLabelValue, "toleration value");
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
  // The fields the scheduler's PodTopologySpread filter reads (validateTopologySpreadConstraints).
  if (o.matchLabelKeys != null) {
    const kp = [...path, "matchLabelKeys"];
    t.matchLabelKeys = list(src, kp, o.matchLabelKeys).map((k, i) => {
      const key = str(src, [...kp, i], k);
      check(src, [...kp, i], key, isLabelKey, "label key");
      return key;
    });
  }
  if (o.minDomains != null) {
    t.minDomains = int(src, [...path, "minDomains"], o.minDomains, { min: 1 });
    if (t.whenUnsatisfiable !== "DoNotSchedule")
      fail(
        src,
        [...path, "minDomains"],
        "invalid-value",
        "can only use minDomains if whenUnsatisfiable=DoNotSchedule",
      );
  }
  const policies = ["Honor", "Ignore"] as const;
  const affinityPolicy = optOneOf(src, [...path, "nodeAffinityPolicy"], o.nodeAffinityPolicy, policies);
  if (affinityPolicy) t.nodeAffinityPolicy = affinityPolicy;
  const taintsPolicy = optOneOf(src, [...path, "nodeTaintsPolicy"], o.nodeTaintsPolicy, policies);
  if (taintsPolicy) t.nodeTaintsPolicy = taintsPolicy;
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
  // SetDefaults_Volume (pkg/apis/core/v1/defaults.go): a volume with no source is an emptyDir.
  const sources = Object.keys(o).filter((k) => k !== "name");
  if (o.emptyDir != null || sources.length === 0) vol.emptyDir = {};
  return vol;
}

/**
 * validation.go validateInitContainers: an init container that runs to completion (not a sidecar,
 * `restartPolicy: Always`) may have no probes and no lifecycle hooks.
 */
function checkInitContainer(src: SourceDoc, path: Path, c: Container): void {
  if (c.restartPolicy === "Always") return;
  for (const field of ["lifecycle", "livenessProbe", "readinessProbe", "startupProbe"] as const) {
    if (c[field] === undefined) continue;
    fail(
      src,
      [...path, field],
      "invalid-value",
      "Forbidden: may not be set for init containers without restartPolicy=Always",
      "key",
    );
  }
}
