// The scenario's `timeline`: when each fault happens and to which node or pod.

import {
  type FaultAction,
  NODE_ACTIONS,
  type NodeSpec,
  POD_ACTIONS,
  type TimelineStep,
} from "../../scenario/types.ts";
import {
  bool,
  closest,
  duration,
  fail,
  knownFields,
  list,
  type Obj,
  obj,
  oneOf,
  type Range,
  show,
  str,
} from "../check.ts";
import type { Collected } from "../manifest/collect.ts";
import type { Path, SourceDoc } from "../source.ts";
import { formatDuration } from "../units.ts";
import { MAX_DURATION_SECONDS } from "./limits.ts";
import { resolvePodTarget, targetWorkloads } from "./targets.ts";

const STEP_FIELDS = ["at", "do", "node", "pod", "force", "deleteEmptyDirData", "ignoreDaemonSets"] as const;
/** kubectl drain's flags, as step fields. */
const DRAIN_FLAGS = {
  force: "--force",
  deleteEmptyDirData: "--delete-emptydir-data",
  ignoreDaemonSets: "--ignore-daemonsets",
} as const;
const DRAIN_FIELDS = Object.keys(DRAIN_FLAGS) as (keyof typeof DRAIN_FLAGS)[];

const FAULT_ACTIONS: readonly FaultAction[] = [...NODE_ACTIONS, ...POD_ACTIONS];

export function parseTimeline(
  src: SourceDoc,
  v: unknown,
  nodes: NodeSpec[],
  c: Collected,
  runDuration: number,
): TimelineStep[] {
  if (v == null) return [];
  const path = ["timeline"];
  const items = list(src, path, v, "a list of steps such as {at: 10s, do: power-off, node: worker-1}");
  const nodeNames = nodes.map((n) => n.name);
  const workloads = targetWorkloads(c.manifests, nodes.length);
  const range: Range = { min: 0, max: MAX_DURATION_SECONDS, maxText: "7 days (168h)" };
  const steps = items.map((item, i): TimelineStep => {
    const p = [...path, i];
    const o = obj(src, p, item, "a step (a mapping such as {at: 10s, do: power-off, node: worker-1})");
    knownFields(src, p, o, STEP_FIELDS, "a timeline step");
    if (o.at == null)
      fail(src, [...p, "at"], "missing-field", 'missing required field "at" (when, e.g. at: 10s)');
    const at = duration(src, [...p, "at"], o.at, range);
    // A step after the end of the run would never happen: a mistake, not a no-op.
    if (at > runDuration)
      fail(
        src,
        [...p, "at"],
        "invalid-value",
        `${show(o.at)} is after the end of the run (duration: ${formatDuration(runDuration)}): the step would never happen`,
      );
    if (o.do == null)
      fail(
        src,
        [...p, "do"],
        "missing-field",
        'missing required field "do" (the action, e.g. do: power-off)',
      );
    const action = oneOf(src, [...p, "do"], o.do, FAULT_ACTIONS);
    const { line, col } = src.locate(p);
    const step: TimelineStep = { at, do: action, pos: { file: src.file, line, col } };
    for (const f of DRAIN_FIELDS) {
      if (o[f] == null) continue;
      if (action !== "drain")
        fail(
          src,
          [...p, f],
          "invalid-value",
          `${f} is an option of drain (kubectl drain ${DRAIN_FLAGS[f]})`,
          "key",
        );
      step[f] = bool(src, [...p, f], o[f]);
    }
    if (NODE_ACTIONS.includes(action)) step.node = nodeOfStep(src, p, o, action, nodeNames);
    else {
      step.pod = podOfStep(src, p, o, action);
      step.target = resolvePodTarget(src, [...p, "pod"], step.pod, workloads);
      if (
        action === "rollout-restart" &&
        (step.target.kind !== "StatefulSet" || step.target.index !== undefined)
      )
        fail(
          src,
          [...p, "pod"],
          "invalid-value",
          "rollout-restart acts on a StatefulSet: use pod: StatefulSet/<name> (kubectl rollout restart statefulset/<name>); a Deployment's or DaemonSet's rollout is not modelled",
        );
    }
    return step;
  });
  // Array.prototype.sort is stable: steps at the same time keep the file's order.
  return steps.sort((a, b) => a.at - b.at);
}

function listNames(names: string[]): string {
  return names.length <= 6 ? names.join(", ") : `${names.slice(0, 5).join(", ")}, … (${names.length} in all)`;
}

/** A node action's node: given, not a pod, and one of the scenario's nodes. */
function nodeOfStep(src: SourceDoc, p: Path, o: Obj, action: FaultAction, nodeNames: string[]): string {
  if (o.pod != null)
    fail(src, [...p, "pod"], "invalid-value", `${action} acts on a node: use node: <name>, not pod`, "key");
  if (o.node == null)
    fail(
      src,
      [...p, "node"],
      "missing-field",
      `${action} needs node: <name> (one of ${listNames(nodeNames)})`,
    );
  const node = str(src, [...p, "node"], o.node);
  if (!nodeNames.includes(node)) {
    const near = closest(node, nodeNames);
    fail(
      src,
      [...p, "node"],
      "unknown-node",
      `no node named "${node}"${near ? ` (did you mean "${near}"?)` : ""}; nodes: ${listNames(nodeNames)}`,
    );
  }
  return node;
}

/** A pod action's pod, as written (resolved against the workloads by the caller). */
function podOfStep(src: SourceDoc, p: Path, o: Obj, action: FaultAction): string {
  if (o.node != null)
    fail(
      src,
      [...p, "node"],
      "invalid-value",
      `${action} acts on a pod: use pod: <namespace>/<name> or <Kind>/<name>[i], not node`,
      "key",
    );
  if (o.pod == null)
    fail(
      src,
      [...p, "pod"],
      "missing-field",
      `${action} needs pod: <namespace>/<name>, <Kind>/<name> or <Kind>/<name>[i]`,
    );
  return str(src, [...p, "pod"], o.pod);
}
