// The small shop in examples/audit/ (the README's example): the findings the issue asks for, with
// the consequences the runs measured, and nothing about the well-configured storefront. Also what the
// text says, and where each finding points in the manifests.

import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { formatAudit } from "../../src/audit/text.ts";
import { type Audited, auditJson, findingsOf, measured, readmeBlock, unprinted } from "./helpers.ts";

let shop: Audited;
beforeAll(async () => {
  shop = await auditJson(["examples/audit/"]);
}, 300_000);

/** The 1-based line of the first line of `file` that contains `text`. */
function lineOf(file: string, text: string): number {
  return (
    readFileSync(file, "utf8")
      .split("\n")
      .findIndex((l) => l.includes(text)) + 1
  );
}

describe("faultline audit examples/audit/", () => {
  it("says it assumed the cluster, and how", () => {
    expect(shop.result.audit.assumed).toMatch(
      /^3 nodes in zones a, b, c, each 4 cpu, 16Gi memory, 110 pods: sized so that/,
    );
    expect(shop.result.audit.nodes.map((n) => n.zone)).toEqual(["a", "b", "c"]);
  });

  it("runs the sweep: no fault, then each node's power-off, each zone, each node's drain", () => {
    const ids = shop.result.runs.filter((r) => !r.id.startsWith("x/")).map((r) => r.id);
    expect(ids).toEqual([
      "none",
      "power-off/worker-1",
      "power-off/worker-2",
      "power-off/worker-3",
      "zone/a",
      "zone/b",
      "zone/c",
      "drain/worker-1",
      "drain/worker-2",
      "drain/worker-3",
    ]);
  });

  it("finds the single replica, the StatefulSet, the blocking budget and the aggressive liveness probe", () => {
    const got = shop.result.findings.map((f) => `${f.rule} ${f.object}`).sort();
    expect(got).toEqual([
      "FL001 Deployment/shop/checkout",
      "FL003 StatefulSet/shop/orders-db",
      "FL004 PodDisruptionBudget/shop/cart",
      "FL006 Deployment/shop/search",
    ]);
  });

  it("has nothing to say about the well-configured storefront", () => {
    expect(shop.result.findings.filter((f) => f.object.includes("storefront"))).toEqual([]);
    for (const r of shop.result.runs) expect(r.services["shop/storefront"]!.outage).toBe(0);
  });

  it("gives consequences that are the runs' figures, and fixes that ran", () => {
    for (const f of shop.result.findings) {
      expect(measured(shop.result, f), `${f.rule}: ${f.consequence.text}`).toBeDefined();
      expect(f.fix.figures, `${f.rule}: ${f.fix.effect}`).not.toBeNull();
    }
    const [checkout] = findingsOf(shop.result, "FL001");
    const run = shop.result.runs.find((r) => r.id === checkout!.consequence.run)!;
    expect(run.fault).toMatchObject({ class: "power-off", target: "worker-2" });
    expect(checkout!.consequence.figures).toEqual(run.services["shop/checkout"]);
    expect(checkout!.consequence.text).toBe(
      `when worker-2 loses power, shop/checkout has no ready endpoint for 5m54s, whole again after 5m54s`,
    );
  });

  it("FL003 on one node per zone: the orders database's volume is zonal, so even the out-of-service taint cannot bring it back, and the fix says why", () => {
    // WaitForFirstConsumer provisioned data-orders-db-0 in the zone of its first node; with one node
    // per zone, the replacement has no node its volume can reach (VolumeBinding: "volume node
    // affinity conflict") whatever the taint does.
    const [db] = findingsOf(shop.result, "FL003");
    expect(db!.fix.figures!.recovered).toBeNull();
    expect(db!.fix.figures!.reasons.join(" ")).toMatch(
      /Pending \(FailedScheduling\): 0\/3 nodes are available: .*volume node affinity conflict/,
    );
    expect(db!.fix.effect).toMatch(/the fix also needs a second node in each zone that holds its volumes/);
  });

  it("points at the field: file, line and column", () => {
    const [checkout] = findingsOf(shop.result, "FL001");
    expect(checkout!.location).toMatchObject({
      file: "examples/audit/checkout.yaml",
      line: lineOf("examples/audit/checkout.yaml", "replicas: 1"),
      path: "spec.replicas",
    });
    const [cart] = findingsOf(shop.result, "FL004");
    expect(cart!.location).toMatchObject({
      file: "examples/audit/cart.yaml",
      line: lineOf("examples/audit/cart.yaml", "minAvailable: 2"),
      col: 17,
    });
  });

  it("prints the worst faults first, the Services × faults table, then findings by severity", () => {
    const text = formatAudit(shop.result);
    const at = (s: string) => text.indexOf(s);
    expect(at("Worst faults")).toBeGreaterThan(0);
    expect(at("Services × faults")).toBeGreaterThan(at("Worst faults"));
    expect(at("Findings: 3 errors, 1 warning, 0 notes")).toBeGreaterThan(at("Services × faults"));
    expect(at("error   FL001")).toBeLessThan(at("warning FL006"));
    expect(text).toMatch(/\n {2}shop\/checkout {4}0s\/0s {5}5m54s\/5m54s worker-2 /);
    expect(text).toContain(
      "consequence: when worker-2 loses power, shop/checkout has no ready endpoint for 5m54s",
    );
  });

  it("prints what the README shows: each line of its example, in order (… where it abridges)", () => {
    const block = readmeBlock(/```\n(faultline audit · 5 Services[\s\S]*?)```/);
    expect(unprinted(block, formatAudit(shop.result))).toEqual([]);
  });

  it("exits 1: errors are at or above the default --fail-on error", () => {
    expect(shop.code).toBe(1);
  });
});
