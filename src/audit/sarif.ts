// The findings as SARIF 2.1.0 (OASIS), the format code-scanning tools read (GitHub shows each result
// on its manifest line): one run, faultline as the tool with every rule, one result per finding at
// the field's file:line:column, the measured consequence and the simulated fix in the message and in
// the result's properties.

import type { Log, ReportingDescriptor, Result } from "sarif";
import { groupFindings } from "./group.ts";
import { RULES } from "./rules/index.ts";
import type { AuditResult, Finding, Location } from "./types.ts";

export const SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json";

export function sarifOf(result: AuditResult, version: string): Log {
  const rules: ReportingDescriptor[] = RULES.map((r) => ({
    id: r.id,
    name: r.name,
    shortDescription: { text: r.title },
    fullDescription: {
      text: `${r.title}. faultline measures its consequence by simulating faults; see docs/rules.md#${r.id.toLowerCase()}.`,
    },
    help: {
      text: `docs/rules.md#${r.id.toLowerCase()} (shipped with faultline): what it checks, why, the Kubernetes rule behind it, how the consequence is measured.`,
    },
    defaultConfiguration: { level: r.severity },
  }));
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
        results: result.findings.map((f, i) => resultOf(f, index.get(f.rule) ?? 0, groupOf.get(i))),
        columnKind: "unicodeCodePoints",
      },
    ],
  };
}

function resultOf(
  f: Finding,
  ruleIndex: number,
  group: { id: string; size: number; objects: string[] } | undefined,
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
        physicalLocation: physical(f.location),
        logicalLocations: [{ fullyQualifiedName: f.object, kind: "object" }],
      },
    ],
    partialFingerprints: { "faultline/v1": `${f.rule}:${f.object}:${f.location.path}` },
    properties: { consequence: f.consequence, fix: f.fix, ...(group && group.size > 1 ? { group } : {}) },
  };
}

function physical(l: Location) {
  const uri = uriOf(l.file);
  return l.line > 0
    ? { artifactLocation: { uri }, region: { startLine: l.line, startColumn: l.col } }
    : { artifactLocation: { uri } };
}

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
