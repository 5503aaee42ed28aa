// Every rule against a manifest that triggers it (test/audit/fixtures/trigger/flNNN.yaml) and one
// that nearly does (fixtures/near-miss/flNNN.yaml), each set audited once on the same four-node
// cluster (fixtures/*-scenario.yaml: the boot time FL008 needs, callers for FL009). A finding's
// consequence must be the figures of the run it names, and its fix must have been run.

import { beforeAll, describe, expect, it } from "vitest";
import { RULES } from "../../src/audit/rules/index.ts";
import { type Audited, auditJson, findingsOf, measured } from "./helpers.ts";

const F = "test/audit/fixtures";
let trigger: Audited;
let nearMiss: Audited;
const triggerProgress: string[] = [];

beforeAll(async () => {
  trigger = await auditJson([`${F}/trigger/`, "--scenario", `${F}/trigger-scenario.yaml`], (line) => {
    if (line !== undefined) triggerProgress.push(line);
  });
  nearMiss = await auditJson([`${F}/near-miss/`, "--scenario", `${F}/near-miss-scenario.yaml`]);
}, 600_000);

describe("each rule", () => {
  for (const rule of RULES) {
    const file = `${rule.id.toLowerCase()}.yaml`;
    describe(`${rule.id} ${rule.name}`, () => {
      it("finds its trigger manifest, with the consequence of a run and a fix that ran", () => {
        const found = findingsOf(trigger.result, rule.id, `trigger/${file}`);
        expect(found.length, `${rule.id} in trigger/${file}`).toBeGreaterThan(0);
        for (const f of found) {
          expect(f.location.line).toBeGreaterThan(0);
          expect(
            measured(trigger.result, f),
            "consequence figures are those of the run it names",
          ).toBeDefined();
          if (f.fix.run === "") {
            // advice no patch can express (FL013: a StorageClass, a node): says so, has no run
            expect(f.fix.effect).toMatch(/^not simulated: /);
            expect(f.fix.figures).toBeNull();
            continue;
          }
          expect(f.fix.figures, `fix of ${rule.id} simulated (${f.fix.effect})`).not.toBeNull();
          const fixed = trigger.result.fixes.find((r) => r.id === f.fix.run);
          const all = fixed ? [...Object.values(fixed.services), ...Object.values(fixed.workloads)] : [];
          expect(all, "fix figures are those of its run").toContainEqual(f.fix.figures);
        }
      });
      it("leaves the near miss alone", () => {
        expect(findingsOf(nearMiss.result, rule.id, `near-miss/${file}`)).toEqual([]);
      });
    });
  }
});

describe("the audit's estimate", () => {
  it("counts at most as many fix runs before the findings as the findings then ask for (every rule triggered)", () => {
    // "sweep: 0 of N runs; 0 of at most M with the fixes": M is the sweep and the rules' bound.
    const first = /^faultline audit: sweep: 0 of (\d+) runs; 0 of at most (\d+) with the fixes$/.exec(
      triggerProgress[0] ?? "",
    );
    expect(first, triggerProgress[0]).not.toBeNull();
    const [sweep, upTo] = [Number(first![1]), Number(first![2])];
    expect(trigger.result.fixes.length).toBeGreaterThan(0);
    expect(sweep + trigger.result.fixes.length).toBeLessThanOrEqual(upTo);
    const fixes = trigger.result.fixes.length;
    expect(triggerProgress.at(-1)).toBe(
      `faultline audit: fixes: ${fixes} of ${fixes} runs; ${sweep + fixes} of ${sweep + fixes} with the fixes`,
    );
  });
});

describe("what the findings say", () => {
  it("FL001: the power loss of the replica's node leaves the Service without an endpoint until the replacement; the fix keeps one", () => {
    const [f] = findingsOf(trigger.result, "FL001", "fl001.yaml");
    expect(f!.consequence.figures.outage).toBeGreaterThan(300);
    expect(f!.consequence.text).toMatch(/loses power, fl001\/single has no ready endpoint for 5m5\ds/);
    expect(f!.location.path).toBe("spec.replicas");
    expect(f!.fix.figures!.outage).toBe(0);
  });
  it("FL003: the StatefulSet does not recover by itself, for the reasons Kubernetes has; the out-of-service taint brings it back", () => {
    const [f] = findingsOf(trigger.result, "FL003", "fl003.yaml");
    expect(f!.consequence.figures.recovered).toBeNull();
    expect(f!.consequence.figures.reasons.join(" ")).toMatch(/db-0 stuck Terminating on worker-\d/);
    expect(f!.consequence.figures.reasons.join(" ")).toMatch(/volume fl003\/data-db-0 still attached/);
    expect(f!.fix.figures!.recovered).not.toBeNull();
    expect(f!.fix.figures!.recovered!).toBeLessThan(f!.consequence.figures.outage);
  });
  it("FL004: the drain never finishes with the budget; with maxUnavailable 1 it does", () => {
    const [f] = findingsOf(trigger.result, "FL004", "fl004.yaml");
    const run = trigger.result.runs.find((r) => r.id === f!.consequence.run)!;
    expect(run.blockedBy).toEqual(["fl004/guarded"]);
    expect(f!.fix.effect).toMatch(/the drain finishes/);
    expect(f!.location.path).toBe("spec.minAvailable");
  });
  it("FL006: the stall makes liveness restart the pod; with the longer window it does not", () => {
    const [f] = findingsOf(trigger.result, "FL006", "fl006.yaml");
    expect(f!.consequence.figures.restarts).toBeGreaterThan(0);
    expect(f!.fix.figures!.restarts ?? 0).toBe(0);
  });
  it("FL007: requests reach a replacement before it boots; with a readiness probe fewer are lost", () => {
    const [f] = findingsOf(trigger.result, "FL007", "fl007.yaml");
    expect(f!.consequence.figures.lost).toBeGreaterThan(0);
    expect(f!.fix.figures!.lost!).toBeLessThan(f!.consequence.figures.lost!);
  });
  it("FL008: the slow boot never becomes Ready without a fault; with the startup budget it does", () => {
    const [f] = findingsOf(trigger.result, "FL008", "fl008.yaml");
    expect(f!.consequence.run).toBe("none");
    expect(f!.consequence.figures.recovered).toBeNull();
    expect(f!.fix.figures!.recovered).not.toBeNull();
  });
  it("FL010: both sides: 600s on a dead node, and a 5s toleration evicted by a 90s blip", () => {
    const found = findingsOf(trigger.result, "FL010", "fl010.yaml")
      .map((f) => f.object)
      .sort();
    expect(found).toEqual(["Deployment/fl010/jumpy", "Deployment/fl010/sticky"]);
    const jumpy = findingsOf(trigger.result, "FL010").find((f) => f.object.endsWith("jumpy"))!;
    expect(jumpy.consequence.figures.evicted).toBeGreaterThan(0);
    expect(jumpy.fix.figures!.evicted ?? 0).toBe(0);
  });
  it("FL012: the Redis pod is replaced and starts empty; on a claim with the taint it comes back sooner", () => {
    const [f] = findingsOf(trigger.result, "FL012", "fl012.yaml");
    expect(f!.consequence.figures.replaced).toBeGreaterThan(0);
    expect(f!.consequence.text).toMatch(/starts with data empty: the data is gone/);
    expect(f!.message).toMatch(/redis:7-alpine's data in emptyDir data \(\/data: redis's data directory\)/);
  });
  it("FL013: each workload kube-scheduler cannot place is an error with the scheduler's own reason and what would help", () => {
    const found = findingsOf(trigger.result, "FL013", "fl013.yaml");
    expect(found.map((f) => f.object).sort()).toEqual(["Deployment/fl013/pinned", "StatefulSet/fl013/store"]);
    const store = found.find((f) => f.object === "StatefulSet/fl013/store")!;
    const pinned = found.find((f) => f.object === "Deployment/fl013/pinned")!;
    for (const f of found) {
      expect(f.severity).toBe("error");
      expect(f.consequence.run).toBe("none");
      expect(f.consequence.figures.recovered).toBeNull();
    }
    // VolumeBinding's ErrReasonUnboundImmediatePVC, NodeAffinity's ErrReasonPod (kube-scheduler's words)
    expect(store.message).toMatch(
      /kube-scheduler: 0\/4 nodes are available: pod has unbound immediate PersistentVolumeClaims\./,
    );
    expect(store.fix.text).toMatch(/StorageClass/);
    expect(pinned.message).toMatch(
      /kube-scheduler: 0\/4 nodes are available: 4 node\(s\) didn't match Pod's node affinity\/selector\./,
    );
    expect(pinned.fix.text).toMatch(/label a node/);
    expect(pinned.location.path).toBe("spec.template.spec.nodeSelector");
  });
  it("a Service that no fault hurt has no finding", () => {
    const hurt = new Set<string>();
    for (const r of nearMiss.result.runs)
      for (const [id, f] of Object.entries(r.workloads))
        if (f.degraded > 0 || f.recovered === null || f.restarts || f.evicted) hurt.add(id);
    for (const f of nearMiss.result.findings)
      expect(hurt.has(f.object) || f.object.startsWith("PodDisruptionBudget/")).toBe(true);
  });
});
