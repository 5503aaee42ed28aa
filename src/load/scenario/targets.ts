// Timeline pod targets: `<namespace>/<name>`, `<Kind>/<name>` or `<Kind>/<name>[i]`, checked
// against the workloads the manifests declare. Pod names of Deployments, ReplicaSets and
// DaemonSets are generated, so `<namespace>/<name>` only has to start with `<workload>-`;
// StatefulSet pods are `<sts>-<ordinal>` with the ordinal below replicas.

import type { ManifestObject, PodTarget } from "../../scenario/types.ts";
import { workloadsOf } from "../../trace/workloads.ts";
import { closest, fail } from "../check.ts";
import type { Path, SourceDoc } from "../source.ts";

export const TARGET_KINDS = ["Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Pod"] as const;
type TargetKind = (typeof TARGET_KINDS)[number];

interface Workload {
  kind: TargetKind;
  namespace: string;
  name: string;
  /** How many pods it has: replicas, 1 for a Pod, the node count for a DaemonSet. */
  pods: number;
}

/** The workloads timeline steps can name (trace/workloads.ts), with their pod counts. */
export function targetWorkloads(manifests: readonly ManifestObject[], nodeCount: number): Workload[] {
  return workloadsOf(manifests).map((w) => ({
    kind: w.kind,
    namespace: w.namespace,
    name: w.name,
    pods: w.replicas ?? nodeCount,
  }));
}

const HINT = "name a pod as <namespace>/<name>, <Kind>/<name> or <Kind>/<name>[i]";

export function resolvePodTarget(
  src: SourceDoc,
  path: Path,
  text: string,
  workloads: readonly Workload[],
): PodTarget {
  const kindForm = /^([A-Za-z]+)\/([^/[\]]+)(?:\[(\d+)\])?$/.exec(text);
  if (kindForm && (TARGET_KINDS as readonly string[]).includes(kindForm[1]!))
    return byKind(src, path, kindForm, workloads);
  return byPodName(src, path, text, workloads);
}

/** `<Kind>/<name>` or `<Kind>/<name>[i]`: a workload of that kind and name, one of its pods by index. */
function byKind(
  src: SourceDoc,
  path: Path,
  kindForm: RegExpExecArray,
  workloads: readonly Workload[],
): PodTarget {
  const kind = kindForm[1] as TargetKind;
  const name = kindForm[2]!;
  const matches = workloads.filter((w) => w.kind === kind && w.name === name);
  if (matches.length === 0) {
    const near = closest(
      name,
      workloads.filter((w) => w.kind === kind).map((w) => w.name),
    );
    fail(
      src,
      path,
      "unknown-pod",
      `no ${kind} named "${name}" in the manifests${near ? ` (did you mean "${kind}/${near}"?)` : ""}`,
    );
  }
  if (matches.length > 1) {
    fail(
      src,
      path,
      "unknown-pod",
      `${kind} "${name}" exists in namespaces ${matches.map((m) => m.namespace).join(", ")}; name the pod as <namespace>/<name>`,
    );
  }
  const w = matches[0]!;
  const target: PodTarget = { namespace: w.namespace, kind, workload: name };
  if (kindForm[3] !== undefined) {
    const index = Number(kindForm[3]);
    if (index >= w.pods) {
      const what =
        kind === "DaemonSet"
          ? `one pod per node (${w.pods} nodes)`
          : `${w.pods} replica${w.pods === 1 ? "" : "s"}`;
      fail(
        src,
        path,
        "unknown-pod",
        `${kind}/${name} has ${what}, so [${index}] does not exist (indices start at 0)`,
      );
    }
    target.index = index;
  }
  return target;
}

/** `<namespace>/<name>`: a bare Pod, a StatefulSet's ordinal pod, or a generated name's workload. */
function byPodName(src: SourceDoc, path: Path, text: string, workloads: readonly Workload[]): PodTarget {
  const nsForm = /^([^/]+)\/([^/]+)$/.exec(text);
  if (!nsForm) fail(src, path, "unknown-pod", `${JSON.stringify(text)} is not a pod: ${HINT}`);
  const [, namespace = "", podName = ""] = nsForm;
  const kindLike = TARGET_KINDS.find((k) => k.toLowerCase() === namespace.toLowerCase());
  if (kindLike && !workloads.some((w) => w.namespace === namespace)) {
    fail(
      src,
      path,
      "unknown-pod",
      `${JSON.stringify(text)}: kinds are capitalised; did you mean "${kindLike}/${podName}"?`,
    );
  }
  const inNs = workloads.filter((w) => w.namespace === namespace);
  const pod = inNs.find((w) => w.kind === "Pod" && w.name === podName);
  if (pod) return { namespace, kind: "Pod", workload: podName, podName };
  let sts: Workload | undefined;
  for (const w of inNs) {
    if (w.kind !== "StatefulSet") continue;
    const m = /^(.*)-(\d+)$/.exec(podName);
    if (m && m[1] === w.name) {
      const index = Number(m[2]);
      if (String(index) === m[2] && index < w.pods)
        return { namespace, kind: w.kind, workload: w.name, index, podName };
      sts = w;
    }
  }
  if (sts) {
    fail(
      src,
      path,
      "unknown-pod",
      `no pod "${text}": StatefulSet "${sts.name}" has ${sts.pods} replica${sts.pods === 1 ? "" : "s"} (${
        sts.pods === 0 ? "no pods" : `${sts.name}-0 … ${sts.name}-${sts.pods - 1}`
      })`,
    );
  }
  // Generated names: the longest matching `<workload>-` prefix wins (web-api-x belongs to web-api, not web).
  let best: Workload | undefined;
  for (const w of inNs) {
    if (w.kind === "Deployment" || w.kind === "ReplicaSet" || w.kind === "DaemonSet") {
      if (podName.startsWith(`${w.name}-`) && podName.length > w.name.length + 1) {
        if (!best || w.name.length > best.name.length) best = w;
      }
    }
  }
  if (best) return { namespace, kind: best.kind, workload: best.name, podName };
  const candidates = workloads.map((w) => `${w.namespace}/${w.name}`);
  const near = closest(text, candidates);
  const known =
    inNs.length === 0
      ? `no workloads in namespace "${namespace}"`
      : `not a pod of any workload in "${namespace}"`;
  fail(
    src,
    path,
    "unknown-pod",
    `no pod "${text}": ${known}${near ? ` (did you mean "${near}…"?)` : ""}; ${HINT}`,
  );
}
