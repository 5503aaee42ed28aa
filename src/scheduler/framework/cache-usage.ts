// What a counted pod adds to its node's row beyond the typed arrays (framework.NodeInfo's Requested
// scalar resources and UsedPorts), kept per row by the scheduler cache (cache.ts).

import type { PodRequest } from "../../kubernetes/pod-resources.ts";
import type { HostPort, UsedPorts } from "../plugins/node-ports.ts";
import type { PodInfo } from "./pod-info.ts";

/**
 * What a counted pod adds to its node's row, beside where: its requests, ports, owner and terms,
 * the same for every pod of one PodInfo, so one object for them all (pod-info.ts shares a PodInfo
 * among a template's pods): each counted pod keeps its row, whether it is terminating and this.
 */
export interface Usage {
  cpuMilli: number;
  memory: number;
  /** ephemeral-storage and the scalar resources it requests (most pods: none) */
  scalar: PodRequest["scalar"];
  /** the host ports its containers use (most pods: none) */
  hostPorts: readonly HostPort[];
  owner: string | undefined;
  /** the pod has required anti-affinity terms (the symmetric check reads them) */
  antiAffinity: boolean;
}

/** What a counted pod adds to its node's row. */
export interface Counted {
  row: number;
  terminating: boolean;
  usage: Usage;
}

const USAGE = new WeakMap<PodInfo, Usage>();

/** A PodInfo's usage, made once. */
export function usageOf(info: PodInfo): Usage {
  let u = USAGE.get(info);
  if (!u) {
    u = Object.freeze({
      cpuMilli: info.cpuMilli,
      memory: info.memory,
      scalar: info.scalar,
      hostPorts: info.hostPorts,
      owner: info.owner,
      antiAffinity: info.requiredAntiAffinity.length > 0,
    });
    USAGE.set(info, u);
  }
  return u;
}

/** What a pod adds to a row, from its requirements worked out once (pod-info.ts). */
export function countedFrom(info: PodInfo, row: number, terminating: boolean): Counted {
  return { row, terminating, usage: usageOf(info) };
}

/** NodeInfo.Requested's ephemeral-storage and scalar resources: a pod's added (sign 1) or taken off (−1). */
export function addScalar(
  requested: (Map<string, number> | undefined)[],
  row: number,
  scalar: Usage["scalar"],
  sign: 1 | -1,
): void {
  let m = requested[row];
  if (!m) {
    m = new Map();
    requested[row] = m;
  }
  for (const [name, v] of scalar) m.set(name, (m.get(name) ?? 0) + sign * v);
}

/** NodeInfo's updateUsedPorts: counted per pod, so that a pod removed frees only its own use. */
export function addPorts(
  usedPorts: (UsedPorts | undefined)[],
  row: number,
  ports: readonly HostPort[],
  sign: 1 | -1,
): void {
  let used = usedPorts[row];
  if (!used) {
    used = new Map();
    usedPorts[row] = used;
  }
  for (const p of ports) {
    let ips = used.get(p.key);
    if (!ips) {
      ips = new Map();
      used.set(p.key, ips);
    }
    ips.set(p.ip, (ips.get(p.ip) ?? 0) + sign);
  }
}
