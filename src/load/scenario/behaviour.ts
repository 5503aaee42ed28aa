// The scenario's `behaviour`: how the application in each workload (or workload/container) behaves.

import { isWorkload, podSpecOf } from "../../kubernetes/objects.ts";
import type { Behaviour } from "../../scenario/types.ts";
import { closest, duration, fail, int, knownFields, obj } from "../check.ts";
import type { Collected } from "../manifest/collect.ts";
import type { Path, SourceDoc } from "../source.ts";
import { MAX_DURATION_SECONDS } from "./limits.ts";
import { type FieldKind, typedField } from "./settings.ts";

const BEHAVIOUR_FIELDS: Record<keyof Behaviour, FieldKind> = {
  bootSeconds: "duration",
  readyAfterSeconds: "duration",
  exitCode: "int",
  shutdownSeconds: "duration",
  preStopSeconds: "duration",
  exitAfterSeconds: "duration",
  capacityRps: "number",
  serviceTimeMs: "number",
  healthSharesRequestQueue: "boolean",
};

export function parseBehaviour(src: SourceDoc, v: unknown, c: Collected): Record<string, Behaviour> {
  if (v == null) return {};
  const path = ["behaviour"];
  const o = obj(src, path, v, "a mapping from workload name (or name/container) to behaviour");
  const out: Record<string, Behaviour> = {};
  for (const [key, value] of Object.entries(o)) {
    const p = [...path, key];
    checkBehaviourKey(src, p, key, c);
    const b = obj(src, p, value, "a behaviour (a mapping such as {bootSeconds: 20, readyAfterSeconds: 30})");
    knownFields(src, p, b, Object.keys(BEHAVIOUR_FIELDS), "Behaviour");
    const parsed: Record<string, number | boolean> = {};
    for (const [field, raw] of Object.entries(b)) {
      if (raw == null) continue;
      const kind = BEHAVIOUR_FIELDS[field as keyof Behaviour];
      const fp = [...p, field];
      if (field === "exitCode") parsed[field] = int(src, fp, raw, { min: 0, max: 255 });
      else if (kind === "duration")
        parsed[field] = duration(src, fp, raw, {
          min: 0,
          max: MAX_DURATION_SECONDS,
          maxText: "7 days (168h)",
        });
      else parsed[field] = typedField(src, fp, raw, kind);
    }
    if (parsed.preStopSeconds !== undefined) checkPreStopSeconds(src, [...p, "preStopSeconds"], key, c);
    if (runsToCompletion(key, c)) checkInitBehaviour(src, p, key, parsed);
    out[key] = parsed as Behaviour;
  }
  return out;
}

/** What an init container that runs to completion (not a sidecar) can be given: how long it runs, how it ends. */
const INIT_FIELDS = new Set(["exitAfterSeconds", "exitCode", "shutdownSeconds"]);

/** `<workload>/<container>` names an init container without restartPolicy: Always in every matching workload. */
function runsToCompletion(key: string, c: Collected): boolean {
  const [workload = "", containerName] = key.split("/");
  if (containerName === undefined) return false;
  const matches = c.manifests.filter((m) => isWorkload(m.kind) && m.object.metadata.name === workload);
  return (
    matches.length > 0 &&
    matches.every((m) =>
      (podSpecOf(m.object)?.initContainers ?? []).some(
        (ctr) => ctr.name === containerName && ctr.restartPolicy !== "Always",
      ),
    )
  );
}

/**
 * An init container runs to completion (kuberuntime_manager.go computeInitContainerActions): it is
 * never probed nor serves, so only exitAfterSeconds (its run), exitCode (default 0) and
 * shutdownSeconds apply.
 */
function checkInitBehaviour(src: SourceDoc, path: Path, key: string, parsed: Record<string, unknown>): void {
  for (const field of Object.keys(parsed)) {
    if (INIT_FIELDS.has(field)) continue;
    fail(
      src,
      [...path, field],
      "invalid-value",
      `"${key}" is an init container: it runs to completion, so only exitAfterSeconds (how long it runs, default 0), exitCode (default 0) and shutdownSeconds apply; ${field} is for app containers and sidecars (restartPolicy: Always)`,
      "key",
    );
  }
}

/** preStopSeconds times an exec or httpGet preStop hook: one of the key's containers must have one. */
function checkPreStopSeconds(src: SourceDoc, path: Path, key: string, c: Collected): void {
  const [workload = "", containerName] = key.split("/");
  const timed = c.manifests.some(
    (m) =>
      isWorkload(m.kind) &&
      m.object.metadata.name === workload &&
      (podSpecOf(m.object)?.containers ?? []).some((ctr) => {
        const h = ctr.lifecycle?.preStop;
        return (containerName === undefined || ctr.name === containerName) && (h?.exec || h?.httpGet);
      }),
  );
  if (!timed)
    fail(
      src,
      path,
      "invalid-value",
      `"${key}" has no container with an exec or httpGet preStop hook for preStopSeconds to time (a sleep action takes its own seconds)`,
      "key",
    );
}

function checkBehaviourKey(src: SourceDoc, path: Path, key: string, c: Collected): void {
  const [workload = "", containerName, ...more] = key.split("/");
  if (more.length > 0) {
    fail(
      src,
      path,
      "unknown-workload",
      `${JSON.stringify(key)}: use a workload name or <workload>/<container>`,
      "key",
    );
  }
  const matches = c.manifests.filter((m) => isWorkload(m.kind) && m.object.metadata.name === workload);
  if (matches.length === 0) {
    const names = c.manifests.filter((m) => isWorkload(m.kind)).map((m) => m.object.metadata.name);
    const near = closest(workload, names);
    fail(
      src,
      path,
      "unknown-workload",
      `no workload named "${workload}" in the manifests${near ? ` (did you mean "${near}"?)` : ""}`,
      "key",
    );
  }
  if (containerName === undefined) return;
  const containers = new Set<string>();
  for (const { object } of matches) {
    const spec = podSpecOf(object);
    for (const ctr of [...(spec?.containers ?? []), ...(spec?.initContainers ?? [])])
      containers.add(ctr.name);
  }
  if (!containers.has(containerName)) {
    const near = closest(containerName, [...containers]);
    fail(
      src,
      path,
      "unknown-workload",
      `"${workload}" has no container named "${containerName}" (containers: ${[...containers].join(", ")})${near ? `; did you mean "${workload}/${near}"?` : ""}`,
      "key",
    );
  }
}
