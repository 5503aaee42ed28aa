// The audit's notes on its inputs and its rules: what is read but not simulated, what is assumed,
// what was not Ready at t=0, and what a rule needs to say anything.

import { splitReferences } from "../scenario/references.ts";
import type { Scenario } from "../scenario/types.ts";
import type { RuleInput } from "./rules/index.ts";
import type { StartState } from "./state.ts";

/** Kinds the models do not use, counted (never silent: they are read, not simulated). */
export function ignoredNotes(scenario: Scenario): string[] {
  if (scenario.ignored.length === 0) return [];
  const kinds = new Map<string, number>();
  for (const o of scenario.ignored) kinds.set(o.kind, (kinds.get(o.kind) ?? 0) + 1);
  const list = [...kinds].map(([k, n]) => (n === 1 ? k : `${k} ×${n}`)).join(", ");
  return [`ignored (not modelled): ${list}`];
}

/**
 * Objects referred to but not in the input (the models assume they exist: a real cluster would not
 * start the pod without them), in one short line by kind; then the valid fields no model reads,
 * which may change the answer, each once with how often and where first.
 */
export function notModelledNotes(scenario: Scenario): string[] {
  const { missing, fields: rest } = splitReferences(scenario.notModelled);
  const out: string[] = [];
  if (missing.length > 0)
    out.push(
      `refers to objects not in the input (assumed to exist): ${missing.map((m) => `${m.kind} (${m.where})`).join(", ")}`,
    );
  if (rest.length === 0) return out;
  const fields = new Map<string, { n: number; where: string }>();
  for (const f of rest) {
    const seen = fields.get(f.field);
    if (seen) seen.n++;
    else fields.set(f.field, { n: 1, where: f.where });
  }
  const list = [...fields].map(
    ([field, { n, where }]) => `${field} (${n === 1 ? where : `×${n}, first at ${where}`})`,
  );
  out.push(`fields not modelled (they may change the answer): ${list.join(", ")}`);
  return out;
}

/** Pods not Running and Ready at t=0: every fault's figures start from there. */
export function notStartedNotes(start: StartState): string[] {
  const bad = start.pods.filter((p) => !p.ready);
  if (bad.length === 0) return [];
  const shown = bad.slice(0, 5).map((p) => `${p.pod} (${p.status})`);
  return [
    `not Running and Ready at t=0: ${shown.join(", ")}${bad.length > 5 ? `, and ${bad.length - 5} more` : ""}`,
  ];
}

export function ruleNotes(input: RuleInput): string[] {
  const out: string[] = [];
  if (!input.traffic)
    out.push(
      "FL009 (no preStop delay) counts requests lost on a drain: add --traffic rate=100 (or a --scenario with traffic) to check it",
    );
  if (Object.keys(input.scenario.behaviour).length === 0)
    out.push(
      "FL008 (no startup budget) needs boot times: give them as behaviour.bootSeconds in a --scenario",
    );
  return out;
}
