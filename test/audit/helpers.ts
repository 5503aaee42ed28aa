// Running the audit in tests: through the command line in-process (test/cli/helpers.ts), one worker
// (--jobs 1 runs in this thread), the result parsed; and lookups into it.

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AuditResult, Finding } from "../../src/audit/types.ts";
import { cli } from "../cli/helpers.ts";

export interface Audited {
  code: number;
  err: string;
  result: AuditResult;
}

/** With `progress`, the lines a terminal would show (and the cost line on stderr). */
export async function auditJson(
  args: string[],
  progress?: (line: string | undefined) => void,
): Promise<Audited> {
  const r = await cli(["audit", ...args, "--json", "--jobs", "1"], progress);
  if (r.out === "") throw new Error(`audit printed nothing (exit ${r.code}): ${r.err}`);
  return { code: r.code, err: r.err, result: JSON.parse(r.out) as AuditResult };
}

/** `text` written to `dir/name`; its path. */
export function writtenTo(dir: string, name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

/** The findings of `rule` whose location is in a file ending with `file`. */
export function findingsOf(result: AuditResult, rule: string, file?: string): Finding[] {
  return result.findings.filter(
    (f) => f.rule === rule && (file === undefined || f.location.file.endsWith(file)),
  );
}

/** The figures a finding's consequence names, as its run measured them. */
export function measured(result: AuditResult, f: Finding) {
  const run = result.runs.find((r) => r.id === f.consequence.run);
  if (!run) return undefined;
  return Object.values(run.services).includes(f.consequence.figures as never)
    ? f.consequence.figures
    : [...Object.values(run.services), ...Object.values(run.workloads)].find(
        (g) => JSON.stringify(g) === JSON.stringify(f.consequence.figures),
      );
}

/** The docs' example output that `pattern`'s first group captures (in the README, or the page named), its list indentation removed. */
export function readmeBlock(pattern: RegExp, page = "README.md"): string {
  const block = pattern.exec(readFileSync(page, "utf8"))?.[1];
  if (block === undefined) throw new Error(`${page} has no block matching ${pattern}`);
  const indent = /^ */.exec(block)![0].length;
  return block
    .split("\n")
    .map((l) => l.slice(indent))
    .join("\n");
}

/**
 * The lines of a README example that the printed text does not have, in order: `…` on a line of its
 * own skips printed lines, `…` inside a line stands for what the README leaves out of it.
 */
export function unprinted(example: string, printed: string): string[] {
  const lines = printed.split("\n");
  const missing: string[] = [];
  let at = -1;
  for (const line of example.trimEnd().split("\n")) {
    if (line.trim() === "…") continue;
    const pattern = new RegExp(`^${line.split("…").map(escapeRegExp).join(".*")}$`);
    const found = lines.findIndex((l, i) => i > at && pattern.test(l));
    if (found < 0) missing.push(line);
    else at = found;
  }
  return missing;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Deployments behind Services, as YAML: each app's Deployment (`replicas(i)` replicas, a readiness
 * probe, 100m / 64Mi) and its Service on port 80.
 */
export function servedApps(apps: string[], replicas: (i: number) => number): string {
  return apps
    .map(
      (app, i) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${app}}
spec:
  replicas: ${replicas(i)}
  selector: {matchLabels: {app: ${app}}}
  template:
    metadata: {labels: {app: ${app}}}
    spec:
      containers:
        - name: ${app}
          image: example/${app}:1
          readinessProbe: {httpGet: {path: /ready, port: 8080}, periodSeconds: 5}
          resources: {requests: {cpu: 100m, memory: 64Mi}}
---
apiVersion: v1
kind: Service
metadata: {name: ${app}}
spec: {selector: {app: ${app}}, ports: [{port: 80, targetPort: 8080}]}`,
    )
    .join("\n---\n");
}
