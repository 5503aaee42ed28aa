// GoogleCloudPlatform/microservices-demo's manifests (release v0.2.0, read from the index; test/fixtures/real/
// microservices-demo/, Apache-2.0): the audit completes on them, finds each single-replica
// service and the Redis cart's data in an emptyDir; none of its Services survives every fault (each
// runs one replica), so a copy with the frontend scaled shows that the audit says nothing about one
// that does.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { type Audited, auditJson, findingsOf } from "./helpers.ts";

const DEMO = "test/fixtures/real/microservices-demo/";
let demo: Audited;
beforeAll(async () => {
  demo = await auditJson([DEMO]);
}, 600_000);

const SINGLE = [
  "adservice",
  "cartservice",
  "checkoutservice",
  "currencyservice",
  "emailservice",
  "frontend",
  "paymentservice",
  "productcatalogservice",
  "recommendationservice",
  "shippingservice",
];

describe("faultline audit on microservices-demo", () => {
  it("completes: every Service, every fault", () => {
    expect(demo.result.audit.services).toHaveLength(11);
    expect(demo.result.runs.filter((r) => r.id.startsWith("power-off/"))).toHaveLength(3);
    expect(demo.err).toBe("");
  });

  it("finds every single-replica service behind a Service, with its outage", () => {
    const found = findingsOf(demo.result, "FL001").map((f) => f.object);
    expect(found).toEqual(SINGLE.map((s) => `Deployment/default/${s}`));
    for (const f of findingsOf(demo.result, "FL001"))
      expect(f.consequence.figures.outage).toBeGreaterThan(300);
  });

  it("finds the Redis cart's stateful risk: its data in an emptyDir, gone when the pod is replaced", () => {
    const [f] = findingsOf(demo.result, "FL012");
    expect(f).toMatchObject({
      object: "Deployment/default/redis-cart",
      severity: "warning",
      location: { path: "spec.template.spec.volumes[0]" },
    });
    expect(f!.message).toContain(
      "redis:alpine's data in emptyDir redis-data (/data: redis's data directory)",
    );
    expect(f!.consequence.figures.replaced).toBe(1);
    // Not a "second replica" for a datastore: that would be a second, empty store.
    expect(findingsOf(demo.result, "FL001").some((x) => x.object.endsWith("redis-cart"))).toBe(false);
  });

  it("has no Service that every fault leaves with an endpoint: each of the eleven runs one replica", () => {
    expect(survivors(demo)).toEqual([]);
    // The load generator backs no Service: no rule about Services speaks of it.
    expect(demo.result.findings.filter((f) => f.object.includes("loadgenerator"))).toEqual([]);
  });

  it("says nothing about a Service that survives every fault: the frontend with 3 replicas and a liveness window longer than readiness", async () => {
    const real = readFileSync(`${DEMO}kubernetes-manifests.yaml`, "utf8");
    const edits: [string, string][] = [
      ["  name: frontend\nspec:\n  selector:\n", "  name: frontend\nspec:\n  replicas: 3\n  selector:\n"],
      [
        '          livenessProbe:\n            initialDelaySeconds: 10\n            httpGet:\n              path: "/_healthz"',
        '          livenessProbe:\n            initialDelaySeconds: 10\n            failureThreshold: 6\n            httpGet:\n              path: "/_healthz"',
      ],
    ];
    let text = real;
    for (const [from, to] of edits) {
      expect(text.split(from)).toHaveLength(2);
      text = text.replace(from, to);
    }
    const dir = mkdtempSync(join(tmpdir(), "faultline-demo-"));
    try {
      writeFileSync(join(dir, "kubernetes-manifests.yaml"), text);
      const scaled = await auditJson([dir]);
      expect(survivors(scaled)).toEqual(["default/frontend"]);
      expect(scaled.result.findings.filter((f) => f.object === "Deployment/default/frontend")).toEqual([]);
      // The others keep theirs.
      expect(findingsOf(scaled.result, "FL001")).toHaveLength(SINGLE.length - 1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 600_000);
});

/** The Services that keep an endpoint through every run and are whole again by themselves. */
function survivors(a: Audited): string[] {
  return a.result.audit.services.filter((s) =>
    a.result.runs.every(
      (r) => !r.services[s] || (r.services[s].outage === 0 && r.services[s].recovered !== null),
    ),
  );
}
