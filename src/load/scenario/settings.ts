// The scenario's `controlPlane` and `kubelet` sections: flags and KubeletConfiguration fields in
// camelCase, each with its type and range; the kubelet feature gates the models read.

import { KUBELET_FEATURE_GATES } from "../../kubernetes/defaults.ts";
import type {
  ControlPlaneOverrides,
  KubeletFeatureGates,
  KubeletOverrides,
  KubernetesVersion,
} from "../../scenario/types.ts";
import { bool, duration, fail, int, knownFields, num, obj, oneOf } from "../check.ts";
import type { Path, SourceDoc } from "../source.ts";
import { EVICTION_RATE, PERIOD } from "./limits.ts";
import { parseShutdown, SHUTDOWN_FIELDS } from "./shutdown-settings.ts";

export type FieldKind = "duration" | "number" | "rate" | "fraction" | "int" | "boolean";

/** kube-controller-manager flags: durations for periods, numbers for rates and thresholds. */
export const CONTROL_PLANE_FIELDS: Record<keyof ControlPlaneOverrides, FieldKind> = {
  nodeMonitorGracePeriod: "duration",
  nodeMonitorPeriod: "duration",
  nodeStartupGracePeriod: "duration",
  nodeEvictionRate: "rate",
  secondaryNodeEvictionRate: "rate",
  largeClusterSizeThreshold: "int",
  unhealthyZoneThreshold: "fraction",
  defaultNotReadyTolerationSeconds: "int",
  defaultUnreachableTolerationSeconds: "int",
  disableForceDetachOnTimeout: "boolean",
  terminatedPodGCThreshold: "int",
  taintEvictionController: "boolean",
};

const KUBELET_FIELDS: Record<
  Exclude<
    keyof KubeletOverrides,
    "probeSchedule" | "crashLoopBackOff" | "featureGates" | (typeof SHUTDOWN_FIELDS)[number]
  >,
  FieldKind
> = {
  nodeLeaseDurationSeconds: "int",
  nodeStatusUpdateFrequency: "duration",
  nodeStatusReportFrequency: "duration",
};

export function typedField(src: SourceDoc, path: Path, v: unknown, kind: FieldKind): number | boolean {
  switch (kind) {
    case "duration": {
      return duration(src, path, v, PERIOD);
    }
    case "number":
      return num(src, path, v, { min: 0 });
    case "rate": {
      const r = num(src, path, v, { min: 0, max: EVICTION_RATE.max, maxText: EVICTION_RATE.maxText });
      if (r > 0 && r < EVICTION_RATE.minPositive)
        fail(
          src,
          path,
          "invalid-value",
          `${r} nodes per second is below ${EVICTION_RATE.minText}: the flag's float32 would hold 0 (no eviction); write 0 for that`,
        );
      return r;
    }
    case "fraction":
      return num(src, path, v, { min: 0, max: 1 });
    case "int":
      return int(src, path, v, { min: 0 });
    case "boolean":
      return bool(src, path, v);
  }
}

export function overrides(
  src: SourceDoc,
  path: Path,
  v: unknown,
  fields: Record<string, FieldKind>,
): Record<string, number | boolean> {
  if (v == null) return {};
  const o = obj(src, path, v);
  knownFields(src, path, o, Object.keys(fields));
  const out: Record<string, number | boolean> = {};
  for (const [key, value] of Object.entries(o)) {
    if (value == null) continue;
    out[key] = typedField(src, [...path, key], value, fields[key]!);
  }
  return out;
}

export function parseKubelet(src: SourceDoc, v: unknown, version: KubernetesVersion): KubeletOverrides {
  if (v == null) return {};
  const path = ["kubelet"];
  const o = obj(src, path, v);
  const {
    probeSchedule,
    crashLoopBackOff,
    featureGates,
    shutdownGracePeriod,
    shutdownGracePeriodCriticalPods,
    shutdownGracePeriodByPodPriority,
    ...rest
  } = o;
  knownFields(src, path, o, [
    ...Object.keys(KUBELET_FIELDS),
    "probeSchedule",
    "crashLoopBackOff",
    "featureGates",
    ...SHUTDOWN_FIELDS,
  ]);
  const out = overrides(src, path, rest, KUBELET_FIELDS) as KubeletOverrides;
  Object.assign(
    out,
    parseShutdown(src, path, {
      shutdownGracePeriod,
      shutdownGracePeriodCriticalPods,
      shutdownGracePeriodByPodPriority,
    }),
  );
  if (featureGates != null)
    out.featureGates = parseKubeletGates(src, [...path, "featureGates"], featureGates, version);
  if (typeof crashLoopBackOff === "boolean") out.crashLoopBackOff = crashLoopBackOff;
  else if (crashLoopBackOff != null) {
    // KubeletConfiguration's crashLoopBackOff: {maxContainerRestartPeriod} (KEP-4603).
    const p = [...path, "crashLoopBackOff"];
    const c = obj(src, p, crashLoopBackOff, "true, false, or {maxContainerRestartPeriod: 1m}");
    knownFields(src, p, c, ["maxContainerRestartPeriod"]);
    const o2 = overrides(src, p, c, { maxContainerRestartPeriod: "duration" }) as {
      maxContainerRestartPeriod?: number;
    };
    const max = o2.maxContainerRestartPeriod;
    if (max !== undefined && (max < 1 || max > 300))
      fail(
        src,
        [...p, "maxContainerRestartPeriod"],
        "invalid-value",
        `${max}s is out of range: it must be from 1s to 300s`,
      );
    const m = Number(version.split(".")[1]);
    const gateOn = out.featureGates?.KubeletCrashLoopBackOffMax ?? m >= 35;
    if (!gateOn)
      fail(
        src,
        p,
        "invalid-value",
        `crashLoopBackOff.maxContainerRestartPeriod needs the KubeletCrashLoopBackOffMax feature gate (alpha in 1.32, on by default from 1.35): set featureGates: {KubeletCrashLoopBackOffMax: true}`,
      );
    out.crashLoopBackOff = max === undefined ? {} : { maxContainerRestartPeriod: max };
  }
  if (out.nodeLeaseDurationSeconds === 0) {
    fail(src, [...path, "nodeLeaseDurationSeconds"], "invalid-value", "0 is too small: must be at least 1");
  }
  if (probeSchedule != null) {
    out.probeSchedule = oneOf(src, [...path, "probeSchedule"], probeSchedule, [
      "kubernetes",
      "period-end",
    ] as const);
  }
  return out;
}

/** The kubelet feature gates the models read, each only from the version that has it. */
function parseKubeletGates(
  src: SourceDoc,
  path: (string | number)[],
  v: unknown,
  version: string,
): KubeletFeatureGates {
  const o = obj(src, path, v, "a mapping from feature gate name to true or false");
  const names = Object.keys(KUBELET_FEATURE_GATES) as (keyof typeof KUBELET_FEATURE_GATES)[];
  knownFields(src, path, o, names, "the kubelet feature gates faultline models");
  const m = Number(version.split(".")[1]);
  const out: KubeletFeatureGates = {};
  for (const name of names) {
    const raw = o[name];
    if (raw == null) continue;
    if (typeof raw !== "boolean")
      fail(src, [...path, name], "invalid-type", `${JSON.stringify(raw)} is not true or false`);
    if (m < KUBELET_FEATURE_GATES[name].since)
      fail(
        src,
        [...path, name],
        "invalid-value",
        `${name} is not a feature gate of Kubernetes ${version} (it appeared in 1.${KUBELET_FEATURE_GATES[name].since})`,
      );
    out[name] = raw as boolean;
  }
  return out;
}
