// `faultline simulate FILE --vary KEY=V1,V2`: the same scenario with one setting changed per
// variant, for the comparison table. Keys: externalTrafficPolicy, profile, seed,
// traffic.<field> (every traffic entry), network.<field> (dots for nested fields) and
// controlPlane.<field>.

import { parseDuration } from "../load/units.ts";
import { PROFILE_NAMES, type ProfileName, type Scenario, type TrafficSpec } from "../scenario/types.ts";
import { ENVOY_OUTLIER_DEFAULTS } from "./profiles.ts";

export class VaryError extends Error {}

export interface Variation {
  key: string;
  values: string[];
}

export function parseVary(text: string): Variation {
  const m = /^([A-Za-z][\w.]*)=(.+)$/.exec(text.trim());
  if (!m)
    throw new VaryError(`--vary: "${text}" is not KEY=V1,V2 (e.g. externalTrafficPolicy=Local,Cluster)`);
  const values = m[2]!.split(",").map((v) => v.trim());
  if (values.some((v) => v === "")) throw new VaryError(`--vary: "${text}" has an empty value`);
  return { key: m[1]!, values };
}

/** Every Service the scenario's callers use gets this policy. */
export function setServicePolicy(s: Scenario, policy: "Local" | "Cluster"): Scenario {
  const targets = new Set((s.traffic ?? []).map((t) => t.service));
  return {
    ...s,
    manifests: s.manifests.map((m) => {
      const o = m.object;
      if (o.kind !== "Service" || !targets.has(`${o.metadata.namespace ?? "default"}/${o.metadata.name}`))
        return m;
      return { ...m, object: { ...o, spec: { ...o.spec, externalTrafficPolicy: policy } } };
    }),
  };
}

const seconds = (key: string, v: string): number => {
  try {
    return parseDuration(/^\d+(\.\d+)?$/.test(v) ? Number(v) : v);
  } catch {
    throw new VaryError(`--vary ${key}: "${v}" is not a duration (e.g. 1s, 500ms, 1m30s)`);
  }
};
const number = (key: string, v: string, integer = false): number => {
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0 || (integer && !Number.isInteger(n)))
    throw new VaryError(`--vary ${key}: "${v}" is not a ${integer ? "whole " : ""}number ≥ 0`);
  return n;
};
const boolean = (key: string, v: string): boolean => {
  if (/^(true|on|yes)$/i.test(v)) return true;
  if (/^(false|off|no)$/i.test(v)) return false;
  throw new VaryError(`--vary ${key}: "${v}" is not true or false`);
};

const TRAFFIC_FIELDS: Record<string, (key: string, v: string) => Partial<TrafficSpec>> = {
  timeout: (k, v) => ({ timeout: seconds(k, v) }),
  rate: (k, v) => ({ rate: number(k, v) }),
  clients: (k, v) => ({ clients: Math.max(1, number(k, v, true)) }),
  poolSize: (k, v) => ({ poolSize: Math.max(1, number(k, v, true)) }),
  retries: (k, v) => ({ retries: number(k, v, true) }),
  keepAlive: (k, v) => ({ keepAlive: boolean(k, v) }),
  entry: (k, v) => {
    if (v !== "load-balancer" && v !== "node-port" && v !== "cluster-ip")
      throw new VaryError(`--vary ${k}: "${v}" is not load-balancer, node-port or cluster-ip`);
    return { entry: v };
  },
};

export function applyVariation(s: Scenario, key: string, value: string): Scenario {
  if (key === "externalTrafficPolicy") {
    if (value !== "Local" && value !== "Cluster")
      throw new VaryError(`--vary externalTrafficPolicy: "${value}" is not Local or Cluster`);
    return setServicePolicy(s, value);
  }
  if (key === "profile") {
    if (!(PROFILE_NAMES as readonly string[]).includes(value))
      throw new VaryError(`--vary profile: "${value}" is not one of ${PROFILE_NAMES.join(", ")}`);
    return { ...s, profile: value as ProfileName };
  }
  if (key === "seed") return { ...s, seed: number(key, value, true) };
  const [head, ...rest] = key.split(".");
  const field = rest.join(".");
  if (head === "traffic") {
    if (!s.traffic?.length) throw new VaryError(`--vary ${key}: the scenario has no traffic section`);
    if (field === "outlierDetection") {
      const on = boolean(key, value);
      return {
        ...s,
        traffic: s.traffic.map((t) => {
          const { outlierDetection: _, ...without } = t;
          return on ? { ...without, outlierDetection: { ...ENVOY_OUTLIER_DEFAULTS } } : without;
        }),
      };
    }
    const parse = TRAFFIC_FIELDS[field];
    if (!parse)
      throw new VaryError(
        `--vary ${key}: unknown traffic field (${[...Object.keys(TRAFFIC_FIELDS), "outlierDetection"].join(", ")})`,
      );
    const patch = parse(key, value);
    return { ...s, traffic: s.traffic.map((t) => ({ ...t, ...patch })) };
  }
  if (head === "network") {
    const n = structuredClone(s.network ?? {}) as Record<string, Record<string, number> | number>;
    const [a, b] = rest;
    const durationFields = ["endpointPropagationSeconds", "nodeLossEndpointDelay"];
    const nested: Record<string, string[]> = {
      kubeProxy: ["minSyncPeriod", "syncPeriod"],
      loadBalancer: ["healthCheckInterval", "healthCheckTimeout", "unhealthyThreshold", "healthyThreshold"],
    };
    if (a && !b && durationFields.includes(a)) n[a] = seconds(key, value);
    else if (a && b && nested[a]?.includes(b)) {
      const sub = (typeof n[a] === "object" ? n[a] : {}) as Record<string, number>;
      sub[b] = b.endsWith("Threshold") ? Math.max(1, number(key, value, true)) : seconds(key, value);
      n[a] = sub;
    } else throw new VaryError(`--vary ${key}: unknown network field`);
    return { ...s, network: n as Scenario["network"] };
  }
  if (head === "controlPlane" && field) {
    const durations = ["nodeMonitorGracePeriod", "nodeMonitorPeriod", "nodeStartupGracePeriod"];
    const v = durations.includes(field) ? seconds(key, value) : number(key, value);
    return { ...s, controlPlane: { ...s.controlPlane, [field]: v } };
  }
  throw new VaryError(
    `--vary ${key}: unknown setting (externalTrafficPolicy, profile, seed, traffic.<field>, network.<field>, controlPlane.<field>)`,
  );
}
