// What kubectl would print for an object at a moment: the "what you would see" of every step. A
// row (NodeRow, PodRow) is the columns an event carries; print*Row lays it out as kubectl does.
// Columns and wording follow kubectl's printers (k8s.io/kubernetes/pkg/printers/internalversion).

import type { Node, Pod } from "./objects.ts";

/** duration.HumanDuration (k8s.io/apimachinery/pkg/util/duration), which kubectl's AGE column uses. */
export function humanDuration(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 120) return `${s}s`;
  const minutes = Math.floor(s / 60);
  if (minutes < 10) return s % 60 === 0 ? `${minutes}m` : `${minutes}m${s % 60}s`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  if (hours < 48) return `${hours}h`;
  const days = Math.floor(hours / 24);
  if (hours < 24 * 8) return hours % 24 === 0 ? `${days}d` : `${days}d${hours % 24}h`;
  return `${days}d`;
}

function age(created: number | undefined, now: number): string {
  return humanDuration(now - (created ?? 0));
}

export function nodeStatus(node: Node): string {
  const ready = node.status.conditions.find((c) => c.type === "Ready");
  let s = ready?.status === "True" ? "Ready" : ready ? "NotReady" : "Unknown";
  if (node.spec.unschedulable) s += ",SchedulingDisabled";
  return s;
}

/** The columns of `kubectl get node` for one node at one moment: what an event carries to show it. */
export interface NodeRow {
  name: string;
  status: string;
  roles: string;
  age: string;
  version: string;
}

export function nodeRow(
  node: Node,
  now: number,
  version = node.status.nodeInfo?.kubeletVersion ?? "",
): NodeRow {
  return {
    name: node.metadata.name,
    status: nodeStatus(node),
    roles: "<none>",
    age: age(node.metadata.creationTimestamp, now),
    version,
  };
}

/** `$ kubectl get node <name>` and what it prints. */
export function printNodeRow(row: NodeRow): string {
  return `$ kubectl get node ${row.name}\n${table(["NAME", "STATUS", "ROLES", "AGE", "VERSION"], [row.name, row.status, row.roles, row.age, row.version])}`;
}

// kubectl's printPod (pkg/printers/internalversion/printers.go, 1.29+): while an init container
// has not completed, STATUS is `Init:<i>/<n>` (the first unfinished one, counted from 0),
// `Init:<reason>` for one that failed (`Init:Error`) or waits (`Init:CrashLoopBackOff`); a started
// sidecar (restartPolicy: Always) counts as done, and is counted in READY with the app containers.
// Once the pod is Initialized, the app containers' reasons as before (PodInitializing while they wait).

function isSidecar(pod: Pod, name: string): boolean {
  return pod.spec.initContainers?.find((c) => c.name === name)?.restartPolicy === "Always";
}

/** The init part of printPod's STATUS: undefined once no init container holds the pod back. */
function initStatus(pod: Pod): string | undefined {
  const statuses = pod.status.initContainerStatuses;
  if (!statuses) return undefined;
  const n = pod.spec.initContainers?.length ?? 0;
  for (let i = 0; i < statuses.length; i++) {
    const c = statuses[i]!;
    if (c.state === "terminated" && c.exitCode === 0) continue;
    if (c.started && isSidecar(pod, c.name)) continue;
    if (c.state === "terminated") return `Init:${c.reason ?? `ExitCode:${c.exitCode}`}`;
    if (c.state === "waiting" && c.reason && c.reason !== "PodInitializing") return `Init:${c.reason}`;
    return `Init:${i}/${n}`;
  }
  return undefined;
}

function initialized(pod: Pod): boolean {
  return pod.status.conditions.some((c) => c.type === "Initialized" && c.status === "True");
}

export function podStatusColumn(pod: Pod): string {
  if (pod.metadata.deletionTimestamp !== undefined) return "Terminating";
  const init = initStatus(pod);
  if (init !== undefined && !initialized(pod)) return init;
  for (const c of pod.status.containerStatuses) if (c.state === "waiting" && c.reason) return c.reason;
  for (const c of pod.status.containerStatuses) if (c.state === "terminated" && c.reason) return c.reason;
  return pod.status.phase;
}

/** The columns of `kubectl get pod -o wide` for one pod at one moment: what an event carries to show it. */
export interface PodRow {
  name: string;
  namespace: string;
  ready: string;
  status: string;
  restarts: number;
  age: string;
  ip: string;
  node: string;
}

export function podRow(pod: Pod, now: number): PodRow {
  let total = pod.spec.containers.length;
  let ready = pod.status.containerStatuses.filter((c) => c.ready).length;
  let restarts = pod.status.containerStatuses.reduce((n, c) => n + c.restartCount, 0);
  const inits = pod.status.initContainerStatuses;
  if (inits) {
    // printPod: sidecars count in READY (started and ready) and, once initialized, in RESTARTS;
    // while initializing, RESTARTS is the init containers' restarts.
    total += pod.spec.initContainers?.filter((c) => c.restartPolicy === "Always").length ?? 0;
    let sidecarRestarts = 0;
    let initRestarts = 0;
    for (const c of inits) {
      initRestarts += c.restartCount;
      if (!isSidecar(pod, c.name)) continue;
      sidecarRestarts += c.restartCount;
      if (c.started && c.ready) ready++;
    }
    restarts = initStatus(pod) === undefined || initialized(pod) ? restarts + sidecarRestarts : initRestarts;
  }
  return {
    name: pod.metadata.name,
    namespace: pod.metadata.namespace,
    ready: `${ready}/${total}`,
    status: podStatusColumn(pod),
    restarts,
    age: age(pod.metadata.creationTimestamp, now),
    ip: pod.status.podIP ?? "<none>",
    node: pod.spec.nodeName ?? "<none>",
  };
}

/** `$ kubectl get pod <name> [-n <ns>] -o wide` and what it prints. */
export function printPodRow(row: PodRow): string {
  const ns = row.namespace === "default" ? "" : ` -n ${row.namespace}`;
  return `$ kubectl get pod ${row.name}${ns} -o wide\n${table(
    ["NAME", "READY", "STATUS", "RESTARTS", "AGE", "IP", "NODE"],
    [row.name, row.ready, row.status, String(row.restarts), row.age, row.ip, row.node],
  )}`;
}

/** A header and one row, aligned as kubectl's tabwriter does (3 spaces of padding). */
export function table(header: string[], row: string[]): string {
  const widths = header.map((h, i) => Math.max(h.length, (row[i] ?? "").length));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]! + 3))).join("");
  return `${line(header)}\n${line(row)}`;
}
