// NodePorts (pkg/scheduler/framework/plugins/nodeports/node_ports.go): a pod's containers' host
// ports must be free on the node, else Unschedulable ("node(s) didn't have free ports for the
// requested pod ports", ErrReason). The node's used ports are those of the pods bound to it
// (NodeInfo.UsedPorts, the cache's `usedPorts`), compared as framework.HostPortInfo.CheckConflict
// does (pkg/scheduler/framework/types.go):
// - a hostPort of 0 (unset) wants nothing; an unset hostIP is 0.0.0.0 and an unset protocol TCP
//   (sanitize);
// - a wanted port on 0.0.0.0 conflicts with the same protocol and port on any address;
// - a wanted port on an address conflicts with the same protocol and port on 0.0.0.0 or on that address.
// Only the pod's containers count (getContainerPorts reads pod.Spec.Containers): the model has no
// restartable init containers.

import type { Pod } from "../../kubernetes/objects.ts";
import { type FilterReasons, slot } from "../framework/filter-reasons.ts";
import { type FilterCode, PASS, UNSCHEDULABLE } from "../framework/status.ts";

/** DefaultBindAllHostIP (framework/types.go). */
export const BIND_ALL_HOST_IP = "0.0.0.0";

/** A host port a pod wants, sanitized: `key` is `<protocol>/<port>` (framework.ProtocolPort). */
export interface HostPort {
  ip: string;
  key: string;
}

const NONE: readonly HostPort[] = [];

/** getContainerPorts with HostPortInfo's sanitize: the host ports of the pod's containers. */
export function hostPortsOf(pod: Pod): readonly HostPort[] {
  let out: HostPort[] | undefined;
  for (const c of pod.spec.containers)
    for (const p of c.ports ?? []) {
      if (!p.hostPort || p.hostPort <= 0) continue;
      out ??= [];
      out.push({ ip: p.hostIP || BIND_ALL_HOST_IP, key: `${p.protocol || "TCP"}/${p.hostPort}` });
    }
  return out ?? NONE;
}

/** Per protocol/port, the addresses it is used on and by how many of the node's pods. */
export type UsedPorts = Map<string, Map<string, number>>;

/** HostPortInfo.CheckConflict for one wanted port. */
export function conflicts(used: UsedPorts | undefined, want: HostPort): boolean {
  const ips = used?.get(want.key);
  if (!ips) return false;
  if (want.ip === BIND_ALL_HOST_IP) {
    for (const n of ips.values()) if (n > 0) return true;
    return false;
  }
  return (ips.get(BIND_ALL_HOST_IP) ?? 0) > 0 || (ips.get(want.ip) ?? 0) > 0;
}

/** The filter on a node whose pods use `used` (the cache's usedPorts of its row). */
export function nodePortsFilter(
  used: UsedPorts | undefined,
  want: readonly HostPort[],
  reasons: FilterReasons,
): FilterCode {
  if (want.length === 0) return PASS;
  for (const p of want)
    if (conflicts(used, p)) {
      reasons.add(slot("NodePorts"));
      return UNSCHEDULABLE;
    }
  return PASS;
}
