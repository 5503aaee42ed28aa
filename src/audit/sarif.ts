// The findings as SARIF 2.1.0 (OASIS), the format code-scanning tools read (GitHub shows each result
// on its manifest line): one run, faultline as the tool with every rule, one result per finding at
// the field's file:line:column, the measured consequence and the simulated fix in the message and in
// the result's properties.
//
// Placed the way GitHub's "SARIF support for code scanning" asks (docs.github.com, read 2026-12):
// `artifactLocation.uri` relative to the repository root with a `uriBaseId` (%SRCROOT%, the
// Multitool's and CodeQL's name for it), `run.originalUriBaseIds` saying where that root was and
// `invocations[0].workingDirectory` where the command ran (SARIF 2.1.0 §3.14.14, §3.20.19); each rule
// with `helpUri` and `help.markdown` (shown on the alert); `partialFingerprints` built from the rule,
// the object and the field only, so an alert keeps its identity across runs, machines and checkouts.
// The paths are the caller's (src/cli/sarif-places.ts): this module touches no file system.

import type { ArtifactLocation, Log, ReportingDescriptor, Result } from "sarif";
import { groupFindings } from "./group.ts";
import { RULES } from "./rules/index.ts";
import type { AuditResult, Finding, Location } from "./types.ts";

export const SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json";
/** The base id of the repository root, as the SARIF Multitool and CodeQL name it. */
export const SRCROOT = "%SRCROOT%";
/** The fingerprint's name and version: a new version only if what it hashes changes. */
export const FINGERPRINT = "faultline/v1";

/** Where the findings' files are, as the command line found them. */
export interface SarifPlaces {
  /** a finding's file as typed → its artifact location (relative to SRCROOT where it lies inside it) */
  artifact(file: string): ArtifactLocation;
  /** the repository root (`--sarif-root`), a file: URI ending in "/" */
  root?: string;
  /** where the command ran, a file: URI ending in "/" */
  workingDirectory?: string;
  /** each rule's docs/rules.md section (Markdown), by id */
  help?: ReadonlyMap<string, string>;
}

/** The published page of a rule: docs/rules.md of this version of the package (shipped in "files"). */
export function helpUri(version: string, rule: string): string {
  return `https://unpkg.com/faultline@${version}/docs/rules.md#${rule.toLowerCase()}`;
}

export function sarifOf(result: AuditResult, version: string, places: SarifPlaces = plainPlaces): Log {
  const rules: ReportingDescriptor[] = RULES.map((r) => ruleOf(r, version, places.help?.get(r.id)));
  const index = new Map(RULES.map((r, i) => [r.id, i]));
  // One result per location, each naming its group of identical findings (rule, severity, fix).
  const groupOf = new Map<number, { id: string; size: number; objects: string[] }>();
  (result.groups ?? groupFindings(result.findings)).forEach((g, n) => {
    for (const i of g.findings)
      groupOf.set(i, { id: `${g.rule}#${n + 1}`, size: g.findings.length, objects: g.objects });
  });
  return {
    $schema: SARIF_SCHEMA,
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: "faultline",
            version,
            semanticVersion: version,
            informationUri: "https://www.npmjs.com/package/faultline",
            rules,
          },
        },
        ...(places.workingDirectory
          ? {
              invocations: [
                { executionSuccessful: true, workingDirectory: { uri: places.workingDirectory } },
              ],
            }
          : {}),
        ...(places.root ? { originalUriBaseIds: { [SRCROOT]: { uri: places.root } } } : {}),
        results: result.findings.map((f, i) => resultOf(f, index.get(f.rule) ?? 0, groupOf.get(i), places)),
        columnKind: "unicodeCodePoints",
      },
    ],
  };
}

function ruleOf(
  r: (typeof RULES)[number],
  version: string,
  section: string | undefined,
): ReportingDescriptor {
  const uri = helpUri(version, r.id);
  const text = `${r.title}. faultline measures its consequence by simulating faults: ${uri}`;
  return {
    id: r.id,
    name: r.name,
    shortDescription: { text: r.title },
    fullDescription: { text: `${r.title}. faultline measures its consequence by simulating faults.` },
    helpUri: uri,
    help: { text, markdown: section ?? `**${r.name}**: ${r.title}.\n\nSee [${r.id}](${uri}).` },
    defaultConfiguration: { level: r.severity },
  };
}

function resultOf(
  f: Finding,
  ruleIndex: number,
  group: { id: string; size: number; objects: string[] } | undefined,
  places: SarifPlaces,
): Result {
  return {
    ruleId: f.rule,
    ruleIndex,
    level: f.severity,
    message: {
      text: `${f.message}. ${cap(f.consequence.text)}. Fix: ${f.fix.text}; ${f.fix.run ? "simulated: " : ""}${f.fix.effect}.`,
    },
    locations: [
      {
        physicalLocation: physical(f.location, places),
        logicalLocations: [{ fullyQualifiedName: f.object, kind: "object" }],
      },
    ],
    // The rule, the object and the field: no path, line or machine, so a moved line or another
    // checkout keeps the alert (GitHub matches results across runs by these).
    partialFingerprints: { [FINGERPRINT]: `${f.rule}:${f.object}:${f.location.path}` },
    properties: { consequence: f.consequence, fix: f.fix, ...(group && group.size > 1 ? { group } : {}) },
  };
}

function physical(l: Location, places: SarifPlaces) {
  const artifactLocation = places.artifact(l.file);
  return l.line > 0
    ? { artifactLocation, region: { startLine: l.line, startColumn: l.col } }
    : { artifactLocation };
}

/** Without the command line's places: each path as typed, as a relative URI reference. */
const plainPlaces: SarifPlaces = { artifact: (file) => ({ uri: uriOf(file) }) };

/** A path as typed → a relative URI reference (forward slashes, each segment escaped); stdin → "stdin". */
export function uriOf(file: string): string {
  if (file === "" || file === "<stdin>") return "stdin";
  const slashed = file.replace(/\\/g, "/");
  const parts = slashed.split("/").map((p) => encodeURIComponent(p));
  return slashed.startsWith("/") ? `file://${parts.join("/")}` : parts.join("/");
}

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
