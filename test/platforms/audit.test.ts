// `faultline audit examples/audit/ --profile gke` against the stock audit: the StatefulSet
// shop/orders-db, whose one pod sits alone in its zone, never comes back upstream (FL003, an error:
// the pod stays Terminating on the lost node), and on GKE comes back when node auto-repair re-creates
// the node under its name ~10 minutes after NotReady (cloud.google.com/kubernetes-engine/docs/how-to/
// node-auto-repair): FL003 becomes a warning whose consequence is the outage measured until then.

import { describe, expect, it } from "vitest";
import { auditJson, findingsOf } from "../audit/helpers.ts";

describe("audit examples/audit/: stock and --profile gke differ for the StatefulSet as GKE documents", async () => {
  const stock = (await auditJson(["examples/audit/"])).result;
  const gke = (await auditJson(["examples/audit/", "--profile", "gke"])).result;
  const db = "StatefulSet/shop/orders-db";

  it("stock: FL003 is an error, the StatefulSet not whole again by itself", () => {
    const [f] = findingsOf(stock, "FL003").filter((x) => x.object === db);
    expect(f).toMatchObject({ severity: "error" });
    expect(f!.consequence.figures.recovered).toBeNull();
    expect(f!.message).toContain("does not come back by itself");
  });

  it("gke: FL003 is a warning that names the repair, with the outage measured until it", () => {
    const [f] = findingsOf(gke, "FL003").filter((x) => x.object === db);
    expect(f).toMatchObject({ severity: "warning" });
    expect(f!.message).toContain(
      "node auto-repair re-creates the lost node under its name, 10 minutes after it went NotReady",
    );
    expect(f!.message).toContain("cloud.google.com/kubernetes-engine/docs/how-to/node-auto-repair");
    const { recovered, outage } = f!.consequence.figures;
    // Back after the repair (600s after NotReady, ~50s after the loss) and the re-created VM's boot.
    expect(recovered).not.toBeNull();
    expect(recovered!).toBeGreaterThan(600 + 50);
    expect(outage).toBeGreaterThan(600);
    expect(f!.consequence.text).toContain("whole again after");
  });

  it("gke sweeps vm-terminated too; a deleted VM's Node is deleted by the cloud controller, so checkout is back sooner", () => {
    expect(stock.runs.some((r) => r.fault.class === "vm-terminated")).toBe(false);
    const run = (cls: string) => gke.runs.find((r) => r.id === `${cls}/worker-2`)!;
    const svc = "shop/checkout";
    const terminated = run("vm-terminated").services[svc]!;
    const powerOff = run("power-off").services[svc]!;
    expect(terminated.recovered).not.toBeNull();
    // Upstream eviction waits 300s after the taint; PodGC frees a deleted Node's pods after 40s.
    expect(terminated.outage).toBeLessThan(powerOff.outage - 120);
  });
});

describe("audit --cluster of a platform's dump", () => {
  it("names the platform and the profile its runs use in a note", async () => {
    const { result } = await auditJson(["--cluster", "test/fixtures/dumps/gke.json"]);
    expect(result.audit.notes).toContain(
      "the dump's nodes are Google Kubernetes Engine's (spec.providerID gce://… on Node gke-prod-default-pool-3f2a1b0c-x7k2): the runs use its profile gke (its cloud controller, node auto-repair and load balancer; --profile sets another)",
    );
  });
});
