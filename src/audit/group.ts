// Identical findings, grouped: the same rule at the same severity offering the same fix (twelve
// one-replica Deployments are one finding with twelve locations). Each member keeps its own location,
// consequence and simulated fix (their runs differ); printers show a group once with each location,
// and SARIF keeps one result per location, each naming its group.

import type { Finding, FindingGroup } from "./types.ts";

/** The groups of `findings` (sorted as the audit sorts them), in the order of their first member. */
export function groupFindings(findings: readonly Finding[]): FindingGroup[] {
  const byKey = new Map<string, FindingGroup>();
  findings.forEach((f, i) => {
    const key = `${f.severity}\u0000${f.rule}\u0000${f.fix.text}`;
    const g = byKey.get(key);
    if (g) {
      g.findings.push(i);
      g.objects.push(f.object);
    } else
      byKey.set(key, {
        rule: f.rule,
        name: f.name,
        severity: f.severity,
        fix: f.fix.text,
        findings: [i],
        objects: [f.object],
      });
  });
  return [...byKey.values()];
}
