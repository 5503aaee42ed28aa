// The findings as a GitLab Code Quality report (the CodeClimate-style JSON GitLab reads from a job's
// `artifacts:reports:codequality`; docs.gitlab.com "Code Quality" → "Code Quality report format",
// read 2026-12): an array of issues, each with description, check_name, fingerprint, severity (info,
// minor, major, critical, blocker) and location.path (relative to the repository) with lines.begin.

import type { AuditResult, Severity } from "./types.ts";

export interface CodeQualityIssue {
  description: string;
  check_name: string;
  fingerprint: string;
  severity: "info" | "minor" | "major" | "critical" | "blocker";
  location: { path: string; lines: { begin: number } };
}

/** faultline's severities on GitLab's scale: an error stops a merge request's pipeline as major does. */
const SEVERITY: Record<Severity, CodeQualityIssue["severity"]> = {
  error: "major",
  warning: "minor",
  note: "info",
};

/** `path`: a file as typed → relative to the repository; `hash`: the fingerprint's digest (MD5 in GitLab's example). */
export function codeQualityOf(
  result: AuditResult,
  path: (file: string) => string,
  hash: (text: string) => string,
): CodeQualityIssue[] {
  return result.findings.map((f) => ({
    description: `${f.rule} ${f.message}: ${f.consequence.text}. Fix: ${f.fix.text}`,
    check_name: `${f.rule} ${f.name}`,
    // The SARIF fingerprint's parts (rule, object, field): the same finding across runs and machines.
    fingerprint: hash(`${f.rule}:${f.object}:${f.location.path}`),
    severity: SEVERITY[f.severity],
    location: { path: path(f.location.file), lines: { begin: Math.max(1, f.location.line) } },
  }));
}
