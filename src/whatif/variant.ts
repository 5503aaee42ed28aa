// The one way to make a variant of a scenario: patches on top of the patches it already has, applied
// to its source and loaded again through load/ (same rules, defaults and messages as the file).

import { loadScenarioSource } from "../load/patch.ts";
import type { Patch, Scenario } from "../scenario/types.ts";

/** The scenario with `patches` applied; throws LoadError (naming the patch) for an invalid variant. */
export function variantOf(scenario: Scenario, patches: readonly Patch[]): Scenario {
  const origin = scenario.origin;
  if (!origin) {
    throw new Error(
      `scenario "${scenario.name}" was built by hand, not loaded through load/: it has no source to patch`,
    );
  }
  return loadScenarioSource(origin.source, [...origin.patches, ...patches]);
}

/** Patches that set `field` of every `traffic:` entry (each entry its own patch, one label). */
export function everyCaller(
  scenario: Scenario,
  field: string,
  value: unknown,
  label: string,
  text?: string,
): Patch[] {
  return (scenario.traffic ?? []).map((_, i) => ({
    path: `traffic[${i}].${field}`,
    value,
    label,
    ...(text === undefined ? {} : { text }),
  }));
}

/** `<namespace>/<name>` of each Service the callers use, or of every Service when there are no callers. */
export function policyServices(scenario: Scenario): string[] {
  const callers = new Set((scenario.traffic ?? []).map((t) => t.service));
  return scenario.manifests
    .filter((m) => m.object.kind === "Service")
    .map((m) => `${m.object.metadata.namespace ?? "default"}/${m.object.metadata.name}`)
    .filter((id) => callers.size === 0 || callers.has(id));
}

/** Patches that set spec.externalTrafficPolicy on the Services policyServices names. */
export function servicePolicy(scenario: Scenario, policy: string, label?: string): Patch[] {
  return policyServices(scenario).map((id) => ({
    object: `Service/${id}`,
    path: "spec.externalTrafficPolicy",
    value: policy,
    ...(label === undefined ? {} : { label }),
  }));
}
