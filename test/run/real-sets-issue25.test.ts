// Issue #25's "Done when": the real manifest sets that use its fields run them instead of listing
// them as not modelled or ignored. Every real set (test/fixtures/real/<set>/, each with its
// SOURCE.md) and a cluster dump with priority classes, as `kubectl get` prints a live cluster's
// (its system pods carry system-cluster-critical / system-node-critical, and the dump holds the
// PriorityClass objects, the API server's two built-in ones included): none of #25's fields or kinds
// is listed as not modelled or ignored: ingress-nginx's admission Jobs run (item 3).

import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { parseScenario, readManifestEntry } from "../../src/load/index.ts";
import { simulate } from "../../src/run/simulate.ts";
import type { Scenario } from "../../src/scenario/types.ts";
import type { Doc } from "../helpers/sim.ts";
import { memoryReader } from "../load/helpers.ts";

const ROOT = "test/fixtures/real";

/** #25's fields and kinds: init containers, native sidecars, Jobs, priority and preemption, trafficDistribution. */
const ISSUE_25 =
  /initContainers|Container\.restartPolicy|restartPolicyRules|priority|PriorityClass|preemptionPolicy|trafficDistribution|\bJob\b|CronJob|podReplacementPolicy|podFailurePolicy/i;

function listed(s: Scenario): string[] {
  return [
    ...s.notModelled.map((n) => `not modelled: ${n.field} (${n.where})`),
    ...s.ignored.map((i) => `ignored: ${i.kind} ${i.name}${i.reason ? ` (${i.reason})` : ""}`),
  ].filter((line) => ISSUE_25.test(line));
}

const sets = readdirSync(ROOT)
  .filter((d) => readdirSync(`${ROOT}/${d}`).some((f) => f.endsWith(".yaml")))
  .sort();

describe("#25's fields in the real sets: run, not listed", () => {
  it.each(sets)("%s", (dir) => {
    const yaml = `name: real\nduration: 1m\nstart: running\nnodes: {count: 3, zones: [a, b, c]}\nmanifests: [${dir}/]\n`;
    const s = parseScenario(yaml, `${ROOT}/scenario.yaml`, (entry) => readManifestEntry(ROOT, entry));
    expect(listed(s)).toEqual([]);
  });

  it("the sets that use them are among those checked", () => {
    // The MySQL tutorial's init containers, Istio's native sidecar, kube-prometheus' and
    // metrics-server's system-cluster-critical pods, ingress-nginx's admission Jobs.
    for (const dir of [
      "mysql-tutorial",
      "istio-native-sidecar",
      "kube-prometheus",
      "metrics-server-ha",
      "ingress-nginx",
    ])
      expect(sets).toContain(dir);
  });
});

/** The shop dump as a live cluster has it: system pods with their classes, the PriorityClasses listed. */
function dumpWithPriorityClasses(): string {
  const dump = parse(readFileSync("test/fixtures/cluster/shop-dump.yaml", "utf8")) as Doc;
  const classes: Record<string, number> = {
    "system-node-critical": 2_000_001_000,
    "system-cluster-critical": 2_000_000_000,
    "shop-critical": 100_000,
  };
  const podClass = (name: string): string | undefined =>
    name.startsWith("kube-proxy-")
      ? "system-node-critical"
      : name.startsWith("coredns-")
        ? "system-cluster-critical"
        : name.startsWith("payments-")
          ? "shop-critical"
          : undefined;
  for (const item of dump.items as Doc[]) {
    const cls = podClass(item.metadata.name);
    if (item.kind === "Pod" && cls) {
      item.spec.priorityClassName = cls;
      item.spec.priority = classes[cls];
      item.spec.preemptionPolicy = "PreemptLowerPriority";
    }
    const template = item.spec?.template?.spec;
    const owner = item.kind === "Deployment" || item.kind === "ReplicaSet" || item.kind === "DaemonSet";
    const tcls = owner ? podClass(`${item.metadata.name}-`) : undefined;
    if (template && tcls) template.priorityClassName = tcls;
  }
  for (const [name, value] of Object.entries(classes))
    (dump.items as Doc[]).push({
      apiVersion: "scheduling.k8s.io/v1",
      kind: "PriorityClass",
      metadata: { name, resourceVersion: "70" },
      value,
      globalDefault: false,
      preemptionPolicy: "PreemptLowerPriority",
      ...(name.startsWith("system-")
        ? { description: "Used for system critical pods that must not be moved from their current node." }
        : {}),
    });
  return stringify(dump);
}

describe("a cluster dump's priority classes", () => {
  const s = parseScenario(
    "duration: 1m\ncluster: dump.yaml\n",
    "scenario.yaml",
    memoryReader({ "dump.yaml": dumpWithPriorityClasses() }),
  );

  it("are read, not listed as not modelled or ignored", () => {
    expect(listed(s)).toEqual([]);
    expect(
      s.manifests.filter((m) => m.kind === "PriorityClass").map((m) => m.object.metadata.name),
    ).toContain("shop-critical");
  });

  it("the system pods keep their classes' priorities through the run", () => {
    const r = simulate({ ...s, duration: 0, timeline: [] });
    const pods = s.manifests.filter((m) => m.kind === "Pod").map((m) => m.object);
    const proxy = pods.find((p) => p.metadata.name.startsWith("kube-proxy-"));
    expect(proxy?.kind === "Pod" && proxy.spec.priority).toBe(2_000_001_000);
    expect(r.initial.pods.length).toBeGreaterThan(100);
  });
});
