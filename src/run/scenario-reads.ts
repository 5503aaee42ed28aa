// What a run reads of its scenario beside the objects: whether it declares a StorageClass, the order
// its manifests are created in, and the behaviour it gives each container (moved out of simulate.ts).

import { behaviourKey } from "../scenario/behaviour.ts";
import type { Behaviour, Scenario } from "../scenario/types.ts";

/**
 * The platform installs its StorageClass in every new cluster; the scenario's manifests (a dump's
 * StorageClasses among them) stand for the cluster's own when they have it, or any default class.
 */
export function declaresClass(scenario: Scenario, name: string): boolean {
  return scenario.manifests.some(
    (m) =>
      m.object.kind === "StorageClass" &&
      (m.object.metadata.name === name ||
        m.object.metadata.annotations?.["storageclass.kubernetes.io/is-default-class"] === "true"),
  );
}

/** PriorityClasses before every other object, the rest in their order (a stable sort). */
export function classesFirst(a: { kind: string }, b: { kind: string }): number {
  return (a.kind === "PriorityClass" ? 0 : 1) - (b.kind === "PriorityClass" ? 0 : 1);
}

/** The behaviour of a container the scenario says nothing of: one for all of them, never written. */
const NO_BEHAVIOUR: Behaviour = Object.freeze({});

/** A Job's app container without a behaviour of its own: it exits 0 at once. */
const JOB_BEHAVIOUR: Behaviour = Object.freeze({ exitAfterSeconds: 0, exitCode: 0 });

/** `behaviour.<workload>` and `behaviour.<workload>/<container>` of the scenario, for one pod's container. */
export function behaviourFor(
  scenario: Scenario,
  _ns: string,
  owner: string | undefined,
  podName: string,
  container?: string,
  init = false,
): Behaviour {
  const workload = behaviourKey(owner, podName);
  // The workload's own entry describes its app; an init container (or sidecar) has only its own.
  const own = init ? undefined : scenario.behaviour[workload];
  const containers = container ? scenario.behaviour[`${workload}/${container}`] : undefined;
  // A Job's (or a CronJob's Job's) app container runs to completion: without a behaviour it exits 0
  // at once, as an init container does (docs/jobs.md).
  const job =
    !init && (owner?.startsWith("Job/") || owner?.startsWith("CronJob/")) ? JOB_BEHAVIOUR : undefined;
  if (own === undefined && containers === undefined) return job ?? NO_BEHAVIOUR;
  return { ...(job ?? {}), ...(own ?? {}), ...(containers ?? {}) };
}
