// GoogleCloudPlatform/microservices-demo's manifests (release v0.2.0, read from the index; test/fixtures/real/
// microservices-demo/, Apache-2.0): the audit completes on them, finds each single-replica
// service and the Redis cart's data in an emptyDir, and says nothing about a Service that no fault
// hurt.

import { beforeAll, describe, expect, it } from "vitest";
import { type Audited, auditJson, findingsOf } from "./helpers.ts";

let demo: Audited;
beforeAll(async () => {
  demo = await auditJson(["test/fixtures/real/microservices-demo/"]);
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
    expect(f!.message).toContain("redis:alpine's data in emptyDir redis-data (/data)");
    expect(f!.consequence.figures.replaced).toBe(1);
    // Not a "second replica" for a datastore: that would be a second, empty store.
    expect(findingsOf(demo.result, "FL001").some((x) => x.object.endsWith("redis-cart"))).toBe(false);
  });

  it("says nothing about a Service that survives every fault", () => {
    const runs = demo.result.runs;
    const survivors = demo.result.audit.services.filter((s) =>
      runs.every((r) => !r.services[s] || (r.services[s].degraded === 0 && r.services[s].recovered !== null)),
    );
    const backends = (s: string) =>
      new Set(runs.flatMap((r) => Object.keys(r.workloads)).filter((w) => w.endsWith(`/${s.split("/")[1]}`)));
    for (const s of survivors)
      for (const f of demo.result.findings) expect(backends(s).has(f.object)).toBe(false);
    // The load generator backs no Service: no rule about Services speaks of it.
    expect(demo.result.findings.filter((f) => f.object.includes("loadgenerator"))).toEqual([]);
  });
});
