// One screen: `simulate --brief` tells every example in at most 15 lines (what happened, when, what
// it cost, what to do next), and the timeline's starting state names the pods on each node.

import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BRIEF_LINES } from "../../src/report/brief.ts";
import { cli } from "../cli/helpers.ts";
import { example, initialState } from "../helpers/sim.ts";

const examples = readdirSync("examples")
  .filter((f) => f.endsWith(".yaml"))
  .sort();

describe("simulate --brief", () => {
  it("tells every example in at most 15 lines, ending with the next thing to do", async () => {
    expect(BRIEF_LINES).toBe(15);
    for (const f of examples) {
      const r = await cli(["simulate", `examples/${f}`, "--brief"]);
      expect(r.code, `${f}: ${r.err}`).toBe(0);
      const lines = r.out.trimEnd().split("\n");
      expect(lines.length, f).toBeLessThanOrEqual(BRIEF_LINES);
      expect(lines[0], f).toMatch(/^faultline simulate · /);
      expect(lines[1], f).toBe("What happened");
      expect(lines.at(-1), f).toMatch(/^Next: /);
    }
  }, 300_000);

  it("a power-off: the fault, the node controller's answers, the cost per Service, the person's step", async () => {
    const r = await cli(["simulate", "examples/node-power-loss.yaml", "--brief"]);
    const lines = r.out.trimEnd().split("\n");
    expect(lines).toContain("  t+0:10     worker-2 loses power");
    // node-monitor-grace-period 50s (1.32) after the last renewal, then the unreachable NoExecute taint.
    expect(r.out).toMatch(/t\+0:5\d[.\d]*\s+node controller sets worker-2 Ready=Unknown/);
    expect(r.out).toMatch(/taints worker-2 with node\.kubernetes\.io\/unreachable:NoExecute/);
    // 300s of tolerationSeconds later the pods are evicted; web keeps two of its three endpoints.
    expect(r.out).toMatch(/t\+6:0\d[.\d]*\s+2 pods evicted from worker-2/);
    expect(r.out).toMatch(/default\/web: never without a ready endpoint; fewer than its 3 for 5m\d+s\n/);
    expect(r.out).toMatch(/default\/db: no ready endpoint for 14m\ds, still at the end\n/);
    // db-0 (a StatefulSet's) waits for the out-of-service taint (KEP-2268); web's pod is replaced.
    expect(lines.at(-1)).toBe(
      "Next: db-0 waits for a person: once worker-2 is known to be off, kubectl taint nodes worker-2 node.kubernetes.io/out-of-service=nodeshutdown:NoExecute",
    );
  }, 60_000);

  it("goes with one run's text only", async () => {
    const r = await cli(["simulate", "examples/node-power-loss.yaml", "--brief", "--json"]);
    expect([r.code, r.err]).toEqual([2, expect.stringMatching(/--brief is the one-screen text of one run/)]);
  });
});

describe("the starting state", () => {
  it("lists the pods on each node, as at t=0", async () => {
    const r = await cli(["simulate", "examples/node-power-loss.yaml"]);
    const initial = initialState(example("node-power-loss.yaml"));
    for (const node of ["worker-1", "worker-2", "worker-3"]) {
      const pods = initial.pods.filter((p) => p.node === node).map((p) => p.pod.split("/")[1]);
      expect(pods.length).toBeGreaterThan(0);
      expect(r.out).toContain(`\n  on ${node}: ${pods.join(", ")}\n`);
    }
    expect(r.out).toMatch(/\n {2}on worker-2: db-0, /);
  }, 60_000);
});
