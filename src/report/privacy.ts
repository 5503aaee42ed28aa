// What the shareable HTML report may carry. The page embeds the scenario (to re-run it in the
// what-if panel) and the trace, and it is meant to be mailed around: annotation values (often
// `kubectl.kubernetes.io/last-applied-configuration`, a whole copy of the object, or a cloud's
// credentials reference) and exec probe or hook commands (which can hold tokens) are left out unless
// the user asks for them with `--report-include annotations,commands`.
//
// The redaction walks the data rather than naming fields, so an object kind or an event field added
// later is covered too: every `annotations` map keeps its keys with its values replaced, every
// `exec.command` is replaced, and a command quoted in an event ("exec cat /tmp/healthy", as the
// prober describes its handler) is replaced where it appears.

import type { ScenarioSource } from "../scenario/types.ts";
import { shareableSource } from "../whatif/share.ts";

export const REPORT_INCLUDES = ["annotations", "commands"] as const;
export type ReportInclude = (typeof REPORT_INCLUDES)[number];

/** What stands in for a value left out. */
export const LEFT_OUT = "(left out of the report: --report-include)";

/** The parts of the page's payload, redacted; `include` lists what the user chose to keep. */
export function redactForReport<S, R>(
  scenario: S,
  results: R[],
  include: ReadonlySet<ReportInclude>,
): { scenario: S; results: R[] } {
  const commands: string[] = [];
  const keepAnnotations = include.has("annotations");
  const keepCommands = include.has("commands");
  const visit: Visit = (key, value) => {
    if (!keepAnnotations && key === "annotations" && isRecord(value))
      return Object.fromEntries(Object.keys(value).map((k) => [k, LEFT_OUT]));
    if (!keepCommands && key === "exec" && isRecord(value) && Array.isArray(value.command)) {
      const command = value.command.map(String);
      if (command.length > 0) commands.push(command.join(" "));
      return { ...value, command: [LEFT_OUT] };
    }
    return undefined;
  };
  // The scenario's source (whatif/ loads the page's what-ifs from it) is reduced to what the loaded
  // scenario holds, whatever is included, then redacted like the rest.
  const shared = withShareableSource(scenario, (v) => (keepAnnotations && keepCommands ? v : walk(v, visit)));
  if (keepAnnotations && keepCommands) return { scenario: shared, results };
  const redactedScenario = walk(shared, visit) as S;
  if (commands.length === 0) return { scenario: redactedScenario, results };
  const scrub = commandScrubber(commands);
  const redactedResults = results.map(
    (r) =>
      walk(r, (_key, value) => {
        if (typeof value === "string") return scrub(value);
        if (Array.isArray(value) && value.length > 0 && commands.includes(value.map(String).join(" ")))
          return [LEFT_OUT];
        return undefined;
      }) as R,
  );
  return { scenario: redactedScenario, results: redactedResults };
}

/**
 * A page made only of text (the audit's: its runs' timelines, findings and notes) keeps the same
 * secrets: every exec command of the objects it was made from, quoted as the prober and the hook
 * runner describe their handler ("exec sh -c …"), and every annotation value of theirs, are
 * replaced in every string of `page`, unless `include` keeps them. An annotation value that is a
 * plain word or number ("true", "30") is left: it says nothing secret and would match ordinary words.
 */
export function redactTextPage<P>(page: P, objects: unknown, include: ReadonlySet<ReportInclude>): P {
  const commands: string[] = [];
  const values: string[] = [];
  walk(objects, (key, value) => {
    if (key === "annotations" && isRecord(value))
      for (const v of Object.values(value))
        if (typeof v === "string" && !/^(\w+|[\d.]+)$/.test(v)) values.push(v);
    if (key === "exec" && isRecord(value) && Array.isArray(value.command) && value.command.length > 0)
      commands.push(value.command.map(String).join(" "));
    return undefined;
  });
  const scrubCommands = include.has("commands") ? (s: string) => s : commandScrubber(commands);
  const secrets = include.has("annotations") ? [] : longestFirst(values);
  const scrub = (s: string) => {
    let out = scrubCommands(s);
    for (const v of secrets) if (out.includes(v)) out = out.split(v).join(LEFT_OUT);
    return out;
  };
  return walk(page, (_key, value) => (typeof value === "string" ? scrub(value) : undefined)) as P;
}

/** Replaces each command where a message quotes it ("exec <command>"), the longest first. */
function commandScrubber(commands: readonly string[]): (s: string) => string {
  // Longest first, so a command that contains another is replaced whole.
  const quoted = longestFirst(commands).map((c) => `exec ${c}`);
  return (s: string) => {
    let out = s;
    for (const q of quoted) if (out.includes(q)) out = out.split(q).join(`exec ${LEFT_OUT}`);
    return out;
  };
}

function longestFirst(values: readonly string[]): string[] {
  return [...new Set(values)].sort((a, b) => b.length - a.length || (a < b ? -1 : a > b ? 1 : 0));
}

/** Parses `--report-include annotations,commands`; throws with the one-line reason. */
export function parseReportInclude(value: string | undefined): Set<ReportInclude> {
  const out = new Set<ReportInclude>();
  if (value === undefined) return out;
  for (const part of value.split(",")) {
    const v = part.trim();
    if (!(REPORT_INCLUDES as readonly string[]).includes(v))
      throw new Error(`"${v}" is not one of ${REPORT_INCLUDES.join(", ")}`);
    out.add(v as ReportInclude);
  }
  return out;
}

type Visit = (key: string | undefined, value: unknown) => unknown;

/** A copy of the scenario whose `origin.source` is the shareable one (whatif/share.ts), if it has one. */
function withShareableSource<S>(scenario: S, redact: (value: unknown) => unknown): S {
  if (!isRecord(scenario) || !isRecord(scenario.origin) || !isRecord(scenario.origin.source)) return scenario;
  const source = shareableSource(scenario.origin.source as unknown as ScenarioSource, redact);
  return { ...scenario, origin: { ...scenario.origin, source } } as S;
}

/** A copy of `value` in which `visit` may replace any value (it returns undefined to go on down). */
function walk(value: unknown, visit: Visit, key?: string): unknown {
  const replaced = visit(key, value);
  if (replaced !== undefined) return replaced;
  if (Array.isArray(value)) return value.map((v) => walk(v, visit));
  if (isRecord(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = walk(v, visit, k);
    return out;
  }
  return value;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
