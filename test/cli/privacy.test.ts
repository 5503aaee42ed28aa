// The shareable report: annotation values (last-applied-configuration included)
// and exec commands stay out of the page's embedded data unless --report-include asks for them.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { LEFT_OUT, parseReportInclude, redactForReport } from "../../src/report/privacy.ts";
import { cli, oneLine } from "./helpers.ts";

const ANNOTATION_SECRET = "s3cr3t-in-an-annotation";
const LAST_APPLIED = "last-applied-s3cr3t";
const COMMAND_SECRET = "TOKEN=s3cr3t-in-a-command";

const dir = mkdtempSync(join(tmpdir(), "faultline-privacy-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(
  join(dir, "app.yaml"),
  `apiVersion: apps/v1
kind: Deployment
metadata:
  name: app
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: '{"metadata":{"name":"app"},"note":"${LAST_APPLIED}"}'
spec:
  replicas: 1
  selector: {matchLabels: {app: app}}
  template:
    metadata:
      labels: {app: app}
      annotations: {vault.example.com/secret: ${ANNOTATION_SECRET}}
    spec:
      containers:
        - name: app
          image: app
          livenessProbe:
            exec: {command: [sh, -c, "${COMMAND_SECRET} check"]}
            periodSeconds: 5
`,
);
writeFileSync(
  join(dir, "scenario.yaml"),
  `name: privacy
duration: 2m
nodes: {count: 1}
manifests: [app.yaml]
behaviour: {app: {bootSeconds: 30}}
timeline: [{at: 10s, do: deadlock, pod: Deployment/app}]
`,
);

async function page(include?: string): Promise<string> {
  const out = join(dir, `report-${include ?? "default"}.html`);
  const r = await cli([
    "simulate",
    join(dir, "scenario.yaml"),
    "--report",
    out,
    ...(include ? ["--report-include", include] : []),
  ]);
  expect(r.code).toBe(0);
  return readFileSync(out, "utf8");
}

describe("the written page", () => {
  it("holds no annotation value and no exec command by default", async () => {
    const html = await page();
    expect(html).not.toContain(ANNOTATION_SECRET);
    expect(html).not.toContain(LAST_APPLIED);
    expect(html).not.toContain(COMMAND_SECRET);
    expect(html).toContain("kubectl.kubernetes.io/last-applied-configuration"); // the key stays
    expect(html).toContain(LEFT_OUT);
  }, 120_000);

  it("holds them when asked: --report-include annotations,commands", async () => {
    const html = await page("annotations,commands");
    expect(html).toContain(ANNOTATION_SECRET);
    expect(html).toContain(LAST_APPLIED);
    expect(html).toContain(COMMAND_SECRET);
  }, 120_000);

  it("--report-include annotations keeps the annotations only", async () => {
    const html = await page("annotations");
    expect(html).toContain(ANNOTATION_SECRET);
    expect(html).not.toContain(COMMAND_SECRET);
  }, 120_000);
});

describe("the redaction", () => {
  it("replaces a command quoted in an event, and an exec command in any object", () => {
    const scenario = {
      manifests: [{ spec: { lifecycle: { preStop: { exec: { command: ["kill", "-s", "x"] } } } } }],
    };
    const results = [{ events: [{ why: "exec kill -s x failed", cmd: ["kill", "-s", "x"], other: "kill" }] }];
    const safe = redactForReport(scenario, results, new Set());
    expect(JSON.stringify(safe)).not.toContain("kill -s");
    expect(safe.results[0]!.events[0]!.other).toBe("kill");
    expect(scenario.manifests[0]!.spec.lifecycle.preStop.exec.command).toEqual(["kill", "-s", "x"]); // a copy
  });

  it("--report-include takes annotations and commands, nothing else; and only with --report", async () => {
    expect([...parseReportInclude("commands,annotations")].sort()).toEqual(["annotations", "commands"]);
    expect(() => parseReportInclude("secrets")).toThrow(/"secrets" is not one of annotations, commands/);
    const r = await cli(["simulate", "examples/node-power-loss.yaml", "--report-include", "annotations"]);
    expect(r.code).toBe(2);
    expect(oneLine(r.err)).toBe(true);
  });
});
