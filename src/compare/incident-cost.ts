// What an incident cost each workload, as its Events show it: the pods it had on the failed node
// (the dump's pods and their owners), when the node controller marked them not ready (NodeNotReady
// "Node is not ready", MarkPodsNotReady), and when a replacement's container started: its name from
// the controller's SuccessfulCreate ("Created pod: NAME", the ReplicaSet controller; "create Pod NAME
// in StatefulSet NAME successful", the StatefulSet controller), its start from the kubelet's Started.
// A pod is Ready when its readiness probe first passes, which no Event records: a start is a bound.

import type { KubeObject } from "../record/recording.ts";
import type { IncidentEvent } from "./events.ts";

export interface WorkloadCost {
  /** `Kind/namespace/name` */
  workload: string;
  /** its pods in the dump, and those on the failed node */
  pods: number;
  lost: number;
  /** seconds since the Unix epoch */
  notReadyAt?: number;
  replacement?: string;
  startedAt?: number;
}

type Owner = { kind?: string; name?: string; controller?: boolean };
const ownerOf = (o: KubeObject): Owner | undefined =>
  (o.metadata?.ownerReferences as Owner[] | undefined)?.find((r) => r.controller !== false);

/** The workload each dump pod belongs to (a ReplicaSet's Deployment), and the controllers' names. */
function workloads(dump: KubeObject[]) {
  const rsOwner = new Map<string, string>();
  for (const o of dump)
    if (o.kind === "ReplicaSet") {
      const w = ownerOf(o);
      if (w?.kind === "Deployment") rsOwner.set(`${o.metadata?.namespace}/${o.metadata?.name}`, w.name ?? "");
    }
  const pods: { key: string; workload: string; controller: string; node: string }[] = [];
  for (const p of dump) {
    if (p.kind !== "Pod") continue;
    const ns = p.metadata?.namespace ?? "";
    const w = ownerOf(p);
    if (!w?.kind || !w.name || w.kind === "DaemonSet") continue;
    const deploy = w.kind === "ReplicaSet" ? rsOwner.get(`${ns}/${w.name}`) : undefined;
    pods.push({
      key: `${ns}/${p.metadata?.name ?? ""}`,
      workload: deploy ? `Deployment/${ns}/${deploy}` : `${w.kind}/${ns}/${w.name}`,
      controller: `${w.kind}/${ns}/${w.name}`,
      node: (p.spec as { nodeName?: string } | undefined)?.nodeName ?? "",
    });
  }
  return pods;
}

const CREATED = [/^Created pod: (\S+)$/, /^create Pod (\S+) in StatefulSet \S+ successful$/];

/** Each workload with pods on `node`: what it lost and when a replacement started. */
export function costs(
  dump: KubeObject[],
  events: IncidentEvent[],
  node: string,
  since: number,
): WorkloadCost[] {
  const pods = workloads(dump);
  const after = events.filter((e) => e.first >= since);
  const hit = [...new Set(pods.filter((p) => p.node === node).map((p) => p.workload))].sort();
  return hit.map((workload) => {
    const mine = pods.filter((p) => p.workload === workload);
    const lost = mine.filter((p) => p.node === node);
    const lostKeys = new Set(lost.map((p) => p.key));
    const controllers = new Set(mine.map((p) => p.controller));
    const notReady = after.find(
      (e) => e.reason === "NodeNotReady" && e.kind === "Pod" && lostKeys.has(`${e.namespace}/${e.name}`),
    );
    const created = after
      .filter((e) => e.reason === "SuccessfulCreate" && controllers.has(`${e.kind}/${e.namespace}/${e.name}`))
      .map((e) => ({ ns: e.namespace, name: CREATED.map((re) => re.exec(e.message)?.[1]).find(Boolean) }))
      .filter((c): c is { ns: string; name: string } => c.name !== undefined);
    const names = new Set(created.map((c) => `${c.ns}/${c.name}`));
    const started = after.find(
      (e) => e.reason === "Started" && e.kind === "Pod" && names.has(`${e.namespace}/${e.name}`),
    );
    return {
      workload,
      pods: mine.length,
      lost: lost.length,
      ...(notReady ? { notReadyAt: notReady.first } : {}),
      ...(started ? { replacement: started.name, startedAt: started.first } : {}),
    };
  });
}

const s1 = (x: number) => `${x >= 0 ? "+" : "-"}${Math.abs(x).toFixed(1)}s`;
const span = (x: number) =>
  x >= 60 ? `${Math.floor(x / 60)}m${String(Math.round(x % 60)).padStart(2, "0")}s` : `${Math.round(x)}s`;

/** One line per workload, times after `base` (the last Lease renewal). */
export function costLines(cs: WorkloadCost[], node: string, base: number): string[] {
  return cs.map((c) => {
    const [kind, ns, name] = c.workload.split("/");
    const head = `${kind} ${ns}/${name}: ${c.pods === 1 ? "its only pod" : c.lost === c.pods ? `all ${c.pods} of its pods` : `${c.lost} of its ${c.pods} pods`} on ${node}`;
    const out = c.notReadyAt !== undefined ? `, marked not ready at ${s1(c.notReadyAt - base)}` : "";
    if (c.startedAt === undefined)
      return `${head}${out}; no replacement started by the last Event${kind === "StatefulSet" ? " (a StatefulSet waits until the old pod object is gone)" : ""}`;
    const gap = c.notReadyAt !== undefined ? c.startedAt - c.notReadyAt : undefined;
    const bound =
      c.lost === c.pods && gap !== undefined
        ? `: none Ready for at least ${span(gap)} (Ready follows the readiness probe, which no Event records)`
        : "";
    return `${head}${out}; replacement ${c.replacement} started at ${s1(c.startedAt - base)}${bound}`;
  });
}
