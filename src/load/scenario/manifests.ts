// The scenario's `manifests`: paths (read through the caller's ReadManifest, so that this stays pure)
// or inline objects, collected into typed objects; and the totals Kubernetes' limits allow.

import {
  CONTAINER_RESTART_RULES_SINCE_MINOR,
  DEFAULT_TERMINATION_GRACE_PERIOD,
  JOB_POD_REPLACEMENT_POLICY_SINCE_MINOR,
  minor,
  POD_LIFECYCLE_SLEEP_ACTION_SINCE_MINOR,
  SIDECAR_CONTAINERS_SINCE_MINOR,
  SLEEP_ACTION_ALLOW_ZERO_SINCE_MINOR,
} from "../../kubernetes/defaults.ts";
import { type KubeObject, podSpecOf } from "../../kubernetes/objects.ts";
import type { KubernetesVersion, ManifestFile, NotModelledField, Scenario } from "../../scenario/types.ts";
import { fail, isObj, str } from "../check.ts";
import type { LoadErrorCode } from "../errors.ts";
import { type Collected, collectObjects, emptyCollected } from "../manifest/collect.ts";
import { collectDocument } from "../manifest/kept.ts";
import { notModelledInOrder } from "../manifest/not-modelled.ts";
import { withMissingReferences } from "../manifest/references.ts";
import { type DocTransform, type Path, parseYamlFile, type SourceDoc } from "../source.ts";
import { MAX_CONTAINERS, MAX_PODS } from "./limits.ts";

export type { ManifestFile };

/**
 * Reads a `manifests:` entry (a path relative to the scenario file): one file, or every
 * .yaml/.yml/.json file of a folder sorted by name. `undefined` when nothing exists there; throws
 * ManifestReadError when it exists but cannot be used (too large, not a file).
 */
export type ReadManifest = (path: string, maxBytes?: number) => ManifestFile[] | undefined;

export class ManifestReadError extends Error {
  readonly code: LoadErrorCode;
  constructor(code: LoadErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

export function readEntry(
  src: SourceDoc,
  path: Path,
  entry: unknown,
  readManifest: ReadManifest,
  out: Collected,
  transform?: DocTransform,
): void {
  if (isObj(entry)) {
    collectObjects(src, path, entry, out);
    return;
  }
  for (const f of readFiles(src, path, entry, readManifest)) {
    // The parse's own values (shared): a patch edits a copy of its document, and a document no patch
    // touches is collected once for every load of it (manifest/kept.ts).
    for (const parsed of parseYamlFile(f.text, f.file, undefined, true)) {
      const doc = transform ? transform(parsed, "manifest") : parsed;
      collectDocument(doc, out);
    }
  }
}

/** The files a path entry names (a file, or a folder's .yaml/.yml/.json files): never none. */
export function readFiles(
  src: SourceDoc,
  path: Path,
  entry: unknown,
  readManifest: ReadManifest,
  maxBytes?: number,
): ManifestFile[] {
  const p = str(src, path, entry);
  if (p.trim() === "") fail(src, path, "invalid-value", "an empty manifest path");
  let files: ManifestFile[] | undefined;
  try {
    files = readManifest(p, maxBytes);
  } catch (e) {
    if (e instanceof ManifestReadError) fail(src, path, e.code, e.message);
    throw e;
  }
  if (files === undefined) {
    fail(
      src,
      path,
      "file-not-found",
      `${JSON.stringify(p)}: no such file or folder (paths are relative to the scenario file)`,
    );
  }
  if (files.length === 0) {
    fail(src, path, "file-not-found", `${JSON.stringify(p)}: the folder holds no .yaml, .yml or .json files`);
  }
  return files;
}

/**
 * Plain Kubernetes manifest files (no scenario around them), validated as a scenario's manifests
 * are: for `faultline probes`.
 */
export function parseManifests(
  files: readonly ManifestFile[],
): Pick<Scenario, "manifests" | "ignored" | "notModelled"> {
  const out = emptyCollected();
  for (const f of files) {
    for (const doc of parseYamlFile(f.text, f.file)) collectObjects(doc, [], doc.value, out);
  }
  return { manifests: out.manifests, ignored: out.ignored, notModelled: notModelledList(out) };
}

/** The not-modelled fields, references to objects not among the manifests included (references.ts). */
export function notModelledList(c: Collected): NotModelledField[] {
  return notModelledInOrder(withMissingReferences(c.notModelled, c.references, c.present));
}

/** Pods and containers the manifests ask for, against Kubernetes' documented limits. */
export function checkTotals(c: Collected, nodeCount: number): void {
  let pods = 0;
  let containers = 0;
  c.manifests.forEach(({ object }, i) => {
    const spec = podSpecOf(object);
    if (!spec) return;
    const n = object.kind === "Pod" ? 1 : object.kind === "DaemonSet" ? nodeCount : replicasOf(object);
    pods += n;
    containers += n * (spec.containers.length + (spec.initContainers?.length ?? 0));
    const { src, path } = c.where[i]!;
    const at =
      object.kind === "Pod" || object.kind === "DaemonSet"
        ? [...path, "metadata", "name"]
        : [...path, "spec", "replicas"];
    if (pods > MAX_PODS) {
      fail(
        src,
        at,
        "too-large",
        `the manifests ask for ${pods.toLocaleString("en-US")} pods by here, more than Kubernetes' documented limit of ${MAX_PODS.toLocaleString("en-US")} pods per cluster`,
      );
    }
    if (containers > MAX_CONTAINERS) {
      fail(
        src,
        at,
        "too-large",
        `the manifests ask for ${containers.toLocaleString("en-US")} containers by here, more than Kubernetes' documented limit of ${MAX_CONTAINERS.toLocaleString("en-US")} containers per cluster`,
      );
    }
  });
}

/**
 * A preStop `sleep` action as the API server takes it. It needs PodLifecycleSleepAction
 * (pkg/features/kube_features.go): 1.28 has no such field and refuses it as unknown; 1.29 has it
 * alpha, off, and drops it, which leaves the hook without a handler; on by default from 1.30. Then
 * validateSleepAction (pkg/apis/core/validation/validation.go): its seconds at most the pod's
 * terminationGracePeriodSeconds (defaulted to 30 first), and above 0 unless
 * PodLifecycleSleepActionAllowZero (alpha 1.32, on by default from 1.33).
 */
export function checkSleepActions(c: Collected, version: KubernetesVersion): void {
  const m = minor(version);
  c.manifests.forEach(({ object }, i) => {
    const spec = podSpecOf(object);
    if (!spec) return;
    const specPath = podSpecPath(object);
    const grace = spec.terminationGracePeriodSeconds ?? DEFAULT_TERMINATION_GRACE_PERIOD;
    for (const field of ["initContainers", "containers"] as const) {
      (spec[field] ?? []).forEach((ctr, j) => {
        const sleep = ctr.lifecycle?.preStop?.sleep;
        if (!sleep) return;
        const { src, path } = c.where[i]!;
        const at = [...path, ...specPath, field, j, "lifecycle", "preStop", "sleep"];
        if (m < POD_LIFECYCLE_SLEEP_ACTION_SINCE_MINOR)
          fail(
            src,
            at,
            "invalid-value",
            `the sleep action needs Kubernetes 1.${POD_LIFECYCLE_SLEEP_ACTION_SINCE_MINOR} (PodLifecycleSleepAction: no such field in 1.28, alpha and off in 1.29); on Kubernetes ${version} use exec: {command: [sleep, "N"]}`,
            "key",
          );
        const zero = m >= SLEEP_ACTION_ALLOW_ZERO_SINCE_MINOR;
        if (sleep.seconds > grace || (!zero && sleep.seconds <= 0))
          fail(
            src,
            [...at, "seconds"],
            "invalid-value",
            `Invalid value: ${sleep.seconds}: must be ${zero ? "non-negative" : "greater than 0"} and less than terminationGracePeriodSeconds (${grace})`,
          );
      });
    }
  });
}

function replicasOf(object: KubeObject): number {
  return object.kind === "Deployment" || object.kind === "ReplicaSet" || object.kind === "StatefulSet"
    ? object.spec.replicas
    : 0;
}

/**
 * SidecarContainers (KEP-753) is alpha and off by default before 1.29: a 1.28 API server drops an
 * init container's `restartPolicy: Always` (dropDisabledPodFields), so its init container would
 * never complete. faultline does not model the gate off: it lists the field as not modelled there
 * and runs the container as a sidecar, as with the gate turned on.
 */
export function noteSidecarGate(c: Collected, version: KubernetesVersion): void {
  if (minor(version) >= SIDECAR_CONTAINERS_SINCE_MINOR || c.notModelled.has("Container.restartPolicy"))
    return;
  c.manifests.forEach(({ object }, i) => {
    const j = podSpecOf(object)?.initContainers?.findIndex((ctr) => ctr.restartPolicy === "Always") ?? -1;
    if (j < 0 || c.notModelled.has("Container.restartPolicy")) return;
    const { src, path } = c.where[i]!;
    const specPath = podSpecPath(object);
    const { line } = src.locate([...path, ...specPath, "initContainers", j, "restartPolicy"], "key");
    c.notModelled.set("Container.restartPolicy", { where: `${src.file}:${line}`, object: i, line });
  });
}

/**
 * KEP-5307: before 1.35 ContainerRestartRules is off and the API server drops an app container's
 * `restartPolicy` and `restartPolicyRules`: the pod's restartPolicy decides. Listed as not modelled
 * there (faultline does not model turning the alpha gate on in 1.34).
 */
export function noteContainerRestartRules(c: Collected, version: KubernetesVersion): void {
  if (minor(version) >= CONTAINER_RESTART_RULES_SINCE_MINOR) return;
  c.manifests.forEach(({ object }, i) => {
    const containers = podSpecOf(object)?.containers ?? [];
    const specPath = podSpecPath(object);
    containers.forEach((ctr, j) => {
      for (const field of ["restartPolicy", "restartPolicyRules"] as const) {
        const name = `Container.${field}`;
        if (ctr[field] === undefined || c.notModelled.has(name)) continue;
        const { src, path } = c.where[i]!;
        const { line } = src.locate([...path, ...specPath, "containers", j, field], "key");
        c.notModelled.set(name, { where: `${src.file}:${line}`, object: i, line });
      }
    });
  });
}

/** Where an object's pod spec is: a Pod's `spec`, a CronJob's `spec.jobTemplate.spec.template.spec`, else `spec.template.spec`. */
function podSpecPath(object: KubeObject): string[] {
  if (object.kind === "Pod") return ["spec"];
  if (object.kind === "CronJob") return ["spec", "jobTemplate", "spec", "template", "spec"];
  return ["spec", "template", "spec"];
}

/**
 * KEP-3939: before 1.29 JobPodReplacementPolicy is alpha and off, so the API server drops a Job's
 * `podReplacementPolicy` (the Job controller replaces a terminating pod at once there): listed as
 * not modelled on 1.28.
 */
export function notePodReplacementPolicy(c: Collected, version: KubernetesVersion): void {
  const name = "JobSpec.podReplacementPolicy";
  if (minor(version) >= JOB_POD_REPLACEMENT_POLICY_SINCE_MINOR) return;
  c.manifests.forEach(({ object }, i) => {
    const spec =
      object.kind === "Job"
        ? object.spec
        : object.kind === "CronJob"
          ? object.spec.jobTemplate.spec
          : undefined;
    if (spec?.podReplacementPolicy === undefined || c.notModelled.has(name)) return;
    const { src, path } = c.where[i]!;
    const at = object.kind === "Job" ? ["spec"] : ["spec", "jobTemplate", "spec"];
    const { line } = src.locate([...path, ...at, "podReplacementPolicy"], "key");
    c.notModelled.set(name, { where: `${src.file}:${line}`, object: i, line });
  });
}
