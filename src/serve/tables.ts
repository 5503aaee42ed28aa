// Server-side printing: the columns and cells kube-apiserver returns for
// `Accept: application/json;as=Table;v=v1;g=meta.k8s.io`, written from the real printers
// (pkg/printers/internalversion/printers.go, the 1.32 version: the *ColumnDefinitions in AddHandlers
// and printPod, printNode, printEvent, …). The server always generates the wide cells
// (printers.GenerateOptions{Wide: true} in pkg/printers/storage); kubectl hides the columns of
// priority 1 unless `-o wide`. Ages are computed against the virtual now.

import type { ApiObject, EventJ } from "./api-types.ts";
import { CONFIG_PRINTERS } from "./config-objects.ts";
import { AGE, age, type Cell, col, NAME, type Printer, vt } from "./table-format.ts";
import { RESOURCE_PRINTERS } from "./tables-resources.ts";
import { ageString, microAgeString } from "./time.ts";

export type { Cell, Column, Printer } from "./table-format.ts";

interface ContainerStatusJ {
  ready: boolean;
  restartCount: number;
  state: {
    running?: unknown;
    waiting?: { reason?: string };
    terminated?: { reason?: string; exitCode: number; signal?: number };
  };
  lastState: { terminated?: { finishedAt?: string } };
}

/**
 * printPod's pass over the init containers (pkg/printers/internalversion/printers.go): the first
 * that has not completed gives `Init:<i>/<n>`, `Init:<reason>` (failed or waiting); a started
 * sidecar (restartPolicy: Always) counts as done and, when ready, in READY, and in the total.
 */
function initCells(pod: ApiObject): {
  reason?: string;
  restarts: number;
  sidecarRestarts: number;
  sidecarsReady: number;
  sidecars: number;
} {
  const specs: { name: string; restartPolicy?: string }[] = pod.spec?.initContainers ?? [];
  const sidecar = (name: string) => specs.find((c) => c.name === name)?.restartPolicy === "Always";
  const out = {
    restarts: 0,
    sidecarRestarts: 0,
    sidecarsReady: 0,
    sidecars: specs.filter((c) => sidecar(c.name)).length,
  };
  const statuses: (ContainerStatusJ & { name: string; started?: boolean })[] =
    pod.status?.initContainerStatuses ?? [];
  for (let i = 0; i < statuses.length; i++) {
    const c = statuses[i]!;
    out.restarts += c.restartCount;
    if (sidecar(c.name)) out.sidecarRestarts += c.restartCount;
    const t = c.state.terminated;
    if (t && t.exitCode === 0) continue;
    if (sidecar(c.name) && c.started) {
      if (c.ready) out.sidecarsReady++;
      continue;
    }
    let reason: string;
    if (t)
      reason = t.reason
        ? `Init:${t.reason}`
        : t.signal
          ? `Init:Signal:${t.signal}`
          : `Init:ExitCode:${t.exitCode}`;
    else if (c.state.waiting?.reason && c.state.waiting.reason !== "PodInitializing")
      reason = `Init:${c.state.waiting.reason}`;
    else reason = `Init:${i}/${specs.length}`;
    return { ...out, reason };
  }
  return out;
}

/** printPod: the init containers (initCells), then the app containers, last first. */
function podCells(pod: ApiObject, now: number): Cell[] {
  const status = pod.status ?? {};
  const init = initCells(pod);
  let reason: string = init.reason ?? (status.reason || status.phase);
  const initialized = (status.conditions ?? []).some(
    (c: { type: string; status: string }) => c.type === "Initialized" && c.status === "True",
  );
  let restarts = init.restarts;
  let ready = init.sidecarsReady;
  let lastRestart: number | undefined;
  let hasRunning = false;
  const statuses: ContainerStatusJ[] =
    init.reason === undefined || initialized ? (status.containerStatuses ?? []) : [];
  if (init.reason === undefined || initialized) restarts = init.sidecarRestarts;
  for (let i = statuses.length - 1; i >= 0; i--) {
    const c = statuses[i]!;
    restarts += c.restartCount;
    const finished = vt(c.lastState?.terminated?.finishedAt);
    if (finished !== undefined && (lastRestart === undefined || finished > lastRestart))
      lastRestart = finished;
    if (c.state.waiting?.reason) reason = c.state.waiting.reason;
    else if (c.state.terminated?.reason) reason = c.state.terminated.reason;
    else if (c.state.terminated) {
      reason = c.state.terminated.signal
        ? `Signal:${c.state.terminated.signal}`
        : `ExitCode:${c.state.terminated.exitCode}`;
    } else if (c.ready && c.state.running) {
      hasRunning = true;
      ready++;
    }
  }
  if (reason === "Completed" && hasRunning) {
    const podReady = (status.conditions ?? []).some(
      (c: { type: string; status: string }) => c.type === "Ready" && c.status === "True",
    );
    reason = podReady ? "Running" : "NotReady";
  }
  // NodeUnreachablePodReason is "NodeLost"; a terminating pod shows Terminating unless its phase is terminal.
  if (pod.metadata.deletionTimestamp && status.reason === "NodeLost") reason = "Unknown";
  else if (pod.metadata.deletionTimestamp && status.phase !== "Succeeded" && status.phase !== "Failed")
    reason = "Terminating";
  const restartsCell =
    restarts !== 0 && lastRestart !== undefined
      ? `${restarts} (${ageString(lastRestart, now)} ago)`
      : String(restarts);
  const gates: { conditionType: string }[] = pod.spec?.readinessGates ?? [];
  let readinessGates = "<none>";
  if (gates.length > 0) {
    const trueCount = gates.filter((g) =>
      (status.conditions ?? []).some(
        (c: { type: string; status: string }) => c.type === g.conditionType && c.status === "True",
      ),
    ).length;
    readinessGates = `${trueCount}/${gates.length}`;
  }
  return [
    pod.metadata.name,
    `${ready}/${(pod.spec?.containers ?? []).length + init.sidecars}`,
    reason,
    restartsCell,
    age(pod, now),
    status.podIPs?.[0]?.ip || "<none>",
    pod.spec?.nodeName || "<none>",
    status.nominatedNodeName || "<none>",
    readinessGates,
  ];
}

/** findNodeRoles: node-role.kubernetes.io/<role> labels and kubernetes.io/role. */
function nodeRoles(labels: Record<string, string> | undefined): string {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(labels ?? {})) {
    if (k.startsWith("node-role.kubernetes.io/") && k.length > "node-role.kubernetes.io/".length)
      roles.add(k.slice("node-role.kubernetes.io/".length));
    else if (k === "kubernetes.io/role" && v !== "") roles.add(v);
  }
  return roles.size === 0 ? "<none>" : [...roles].sort().join(",");
}

function nodeCells(node: ApiObject, now: number): Cell[] {
  const ready = (node.status?.conditions ?? []).find((c: { type: string }) => c.type === "Ready");
  const status: string[] = ready ? [ready.status === "True" ? "Ready" : "NotReady"] : ["Unknown"];
  if (node.spec?.unschedulable) status.push("SchedulingDisabled");
  const addr = (type: string) =>
    (node.status?.addresses ?? []).find((a: { type: string }) => a.type === type)?.address ?? "<none>";
  const info = node.status?.nodeInfo ?? {};
  return [
    node.metadata.name,
    status.join(","),
    nodeRoles(node.metadata.labels),
    age(node, now),
    info.kubeletVersion ?? "",
    addr("InternalIP"),
    addr("ExternalIP"),
    info.osImage || "<unknown>",
    info.kernelVersion || "<unknown>",
    info.containerRuntimeVersion || "<unknown>",
  ];
}

/** formatEventSource: component (or reportingController), then ", host" (or reportingInstance) when set. */
function eventSource(ev: EventJ): string {
  const component = ev.source.component || ev.reportingComponent;
  const instance = ev.source.host || ev.reportingInstance;
  return instance ? `${component}, ${instance}` : component;
}

function eventCells(ev: ApiObject, now: number): Cell[] {
  const e = ev as EventJ;
  const first = e.firstTimestamp
    ? ageString(vt(e.firstTimestamp), now)
    : microAgeString(vt(e.eventTime), now);
  let last = e.lastTimestamp ? ageString(vt(e.lastTimestamp), now) : first;
  let count = e.count ?? 0;
  if (e.series) {
    last = microAgeString(vt(e.series.lastObservedTime), now);
    count = e.series.count;
  } else if (count === 0) count = 1;
  const o = e.involvedObject;
  const target = o.name ? `${o.kind.toLowerCase()}/${o.name}` : o.kind.toLowerCase();
  return [
    last,
    e.type,
    e.reason,
    target,
    o.fieldPath ?? "",
    eventSource(e),
    e.message.trim(),
    first,
    count,
    e.metadata.name,
  ];
}

export const PRINTERS: Record<string, Printer> = {
  pods: {
    columns: [
      NAME,
      col("Ready", "string", "The aggregate readiness state of this pod for accepting traffic."),
      col("Status", "string", "The aggregate status of the containers in this pod."),
      col(
        "Restarts",
        "string",
        "The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.",
      ),
      AGE,
      col("IP", "string", "podIP address allocated to the pod.", 1),
      col("Node", "string", "NodeName indicates in which node this pod is scheduled.", 1),
      col(
        "Nominated Node",
        "string",
        "nominatedNodeName is set when this pod preempts other pods on the node.",
        1,
      ),
      col(
        "Readiness Gates",
        "string",
        "If specified, all readiness gates will be evaluated for pod readiness.",
        1,
      ),
    ],
    cells: podCells,
  },
  nodes: {
    columns: [
      NAME,
      col("Status", "string", "The status of the node"),
      col("Roles", "string", "The roles of the node"),
      AGE,
      col("Version", "string", "Kubelet Version reported by the node."),
      col("Internal-IP", "string", "List of addresses reachable to the node.", 1),
      col("External-IP", "string", "List of addresses reachable to the node.", 1),
      col("OS-Image", "string", "OS Image reported by the node from /etc/os-release.", 1),
      col("Kernel-Version", "string", "Kernel Version reported by the node from 'uname -r'.", 1),
      col(
        "Container-Runtime",
        "string",
        "ContainerRuntime Version reported by the node through runtime remote API.",
        1,
      ),
    ],
    cells: nodeCells,
  },
  events: {
    columns: [
      col("Last Seen", "string", "The time at which the most recent occurrence of this event was recorded."),
      col("Type", "string", "Type of this event (Normal, Warning), new types could be added in the future"),
      col(
        "Reason",
        "string",
        "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.",
      ),
      col("Object", "string", "The object that this event is about."),
      col(
        "Subobject",
        "string",
        "If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go-field access statement.",
        1,
      ),
      col("Source", "string", "The component reporting this event.", 1),
      col("Message", "string", "A human-readable description of the status of this operation."),
      col("First Seen", "string", "The time at which the event was first recorded.", 1),
      col("Count", "string", "The number of times this event has occurred.", 1),
      col("Name", "string", "Name must be unique within a namespace.", 1, "name"),
    ],
    cells: eventCells,
  },
  ...RESOURCE_PRINTERS,
  ...CONFIG_PRINTERS,
};
