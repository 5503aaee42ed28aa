// One warm-up per sweep (src/audit/fork.ts): a run started from a copy of the sweep's warmed-up heap
// gives the outcome of the same run from scratch, byte for byte, for every fault class, a fix's
// operator step, a retargeted fix without patches, and several seeds; and a scenario warmed up
// without its timeline and callers plays them as the run from scratch does.

import { describe, expect, it, vi } from "vitest";
import { audit, inProcess, planAudit } from "../../src/audit/audit.ts";
import { executeRun, forkable, forkedFrom } from "../../src/audit/execute.ts";
import { forkMethod, forkRuns } from "../../src/audit/fork.ts";
import { prepare } from "../../src/audit/inputs.ts";
import { poolRunner } from "../../src/audit/pool.ts";
import type { RunSpec } from "../../src/audit/types.ts";
import { loadScenarioFile } from "../../src/load/index.ts";
import { DEFAULT_BUDGET } from "../../src/run/budget.ts";
import { simulate, warmUp } from "../../src/run/simulate.ts";
import { variantOf } from "../../src/whatif/variant.ts";
import { servedApps } from "./helpers.ts";

const manifests = servedApps(["web", "api", "cache"], (i) => i + 1);

function planned(seed: number) {
  const prepared = prepare({
    entries: [{ entry: "three.yaml", files: [{ file: "three.yaml", text: manifests }] }],
    cluster: { nodes: 4, zones: ["a", "b"] },
  });
  const scenario = { ...prepared.scenario, seed };
  return planAudit(
    { ...prepared, scenario },
    {
      faults: ["power-off", "zone", "drain", "partition", "kubelet-stop", "vm-terminated"],
      budget: DEFAULT_BUDGET,
      maxSweepEvents: 1e9,
      runner: inProcess,
    },
  );
}

describe("a run forked from the sweep's warm-up", () => {
  it("is the run from scratch, byte for byte, for every fault, a fix's operator step and several seeds", async () => {
    for (const seed of [1, 7]) {
      const p = planned(seed);
      const node = p.ctx.base.nodes[1]!.name;
      const extra: RunSpec[] = [
        // FL003's fix: a step after the fault, no patch.
        {
          id: "fix/operator",
          fault: { class: "power-off", target: node, nodes: [node], at: 10 },
          patches: [],
          operator: { do: "taint-out-of-service", after: 120 },
        },
        // A fix re-aimed at a workload's busiest node, chosen in the base's placement.
        {
          id: "fix/retarget",
          fault: { class: "drain", target: "", nodes: [], at: 10 },
          patches: [],
          retarget: { workload: "Deployment/default/cache", class: "drain" },
        },
      ];
      const specs = [...p.runs.filter(forkable), ...extra];
      expect(new Set(specs.map((s) => s.fault.class)).size).toBeGreaterThanOrEqual(6);
      const scratch = specs.map((spec) => executeRun(p.ctx, spec));
      // The fork server after its primer too (primer.ts): a small cluster's sweep played first.
      for (const [method, primeFrom] of [
        ["process", 1e9],
        ["process", 0],
        ["snapshot", 1e9],
      ] as const) {
        let done = 0;
        const forked = await forkRuns(p.ctx, specs, 2, () => done++, method, primeFrom);
        expect(done).toBe(specs.length);
        for (const [i, spec] of specs.entries()) {
          expect(scratch[i]!.ok, spec.id).toBe(true);
          expect(
            JSON.stringify(forked[i]),
            `${spec.id}, seed ${seed}, ${method}, primed ${primeFrom === 0}`,
          ).toBe(JSON.stringify(scratch[i]));
        }
      }
    }
  }, 240_000);

  it("plays FL007's experiments (callers, a boot) from the warm-up when it can, from scratch when a probe read the boot", async () => {
    // web has no probe: its experiment plays from the warm-up; api's liveness probe read its boot
    // before t=0 (run/warm-serves.ts), so its experiment runs from scratch, in the fork too.
    const text = servedApps(["web", "api"], () => 3)
      .replace("          readinessProbe: {httpGet: {path: /ready, port: 8080}, periodSeconds: 5}\n", "")
      .replace(
        "          readinessProbe: {httpGet: {path: /ready, port: 8080}, periodSeconds: 5}",
        "          livenessProbe: {tcpSocket: {port: 8080}, periodSeconds: 5}",
      );
    const prepared = prepare({
      entries: [{ entry: "two.yaml", files: [{ file: "two.yaml", text }] }],
      cluster: { nodes: 4, zones: ["a", "b"] },
    });
    const p = planAudit(prepared, {
      faults: ["drain"],
      budget: DEFAULT_BUDGET,
      maxSweepEvents: 1e9,
      runner: inProcess,
    });
    const experiments = p.runs.filter((s) => s.id.startsWith("x/boot/"));
    expect(experiments.map((s) => s.id)).toEqual([
      "x/boot/Deployment/default/web",
      "x/boot/Deployment/default/api",
    ]);
    expect(experiments.every(forkable)).toBe(true);
    // A drain first, so that the server's first run of the class is not an experiment.
    const specs = [p.runs.find((s) => s.fault.class === "drain" && !s.id.startsWith("x/"))!, ...experiments];
    const scratch = specs.map((spec) => executeRun(p.ctx, spec));
    const warm = warmUp(p.ctx.base, { engine: { maxEvents: p.ctx.maxEvents } });
    expect(experiments.map((s) => executeRun(p.ctx, s, () => undefined))).toEqual(scratch.slice(1));
    const played: string[] = [];
    const fromWarm = forkedFrom(warm);
    const inProcessForked = executeRun(p.ctx, experiments[0]!, (run) => {
      const r = fromWarm(run);
      if (r) played.push(experiments[0]!.id);
      return r;
    });
    expect(played).toEqual(["x/boot/Deployment/default/web"]);
    expect(JSON.stringify(inProcessForked)).toBe(JSON.stringify(scratch[1]));
    expect(warm.cannotPlay({ ...variantOf(p.ctx.base, experiments[1]!.patches) })).toMatch(
      /a probe checked api/,
    );
    for (const method of ["process", "snapshot"] as const) {
      // From the fork server after its primer (primer.ts).
      const forked = await forkRuns(p.ctx, specs, 2, () => {}, method, 0);
      for (const [i, spec] of specs.entries())
        expect(JSON.stringify(forked[i]), `${spec.id}, ${method}`).toBe(JSON.stringify(scratch[i]));
    }
    // The experiments found what they look for: a loss while the new pods boot.
    for (const o of scratch.slice(1))
      expect(o.ok && Object.values(o.measure.services).some((f) => f.lost)).toBe(true);
  }, 240_000);

  it("forks from one warm process on Linux, where npm run build compiled native/fork.c", () => {
    // CI builds the addon (npm ci runs prepare); a missing compiler would fall back to the snapshot.
    if (process.platform === "linux") expect(forkMethod()).toBe("process");
  });

  it("names the run whose fork failed", async () => {
    const p = planned(1);
    // A run that throws in a child (its class primed by the first): its fault has no node list.
    const first = p.runs.find((s) => s.fault.class === "power-off")!;
    const bad = { ...first, id: "broken", fault: { ...first.fault, nodes: null } } as unknown as RunSpec;
    const failed = forkRuns(p.ctx, [first, bad], 1, () => {}, "process");
    await expect(failed).rejects.toThrow(/not iterable[\s\S]*run broken ended with code 1/);
  }, 120_000);

  it("plays a run whose child hangs from scratch in the server, and says so", async () => {
    const p = planned(1);
    const specs = p.runs.filter((s) => s.fault.class === "power-off").slice(0, 3);
    const scratch = specs.map((spec) => executeRun(p.ctx, spec));
    const said: string[] = [];
    const write = vi.spyOn(process.stderr, "write").mockImplementation((text) => {
      said.push(String(text));
      return true;
    });
    process.env.FAULTLINE_FORK_TEST_HANG = specs[2]!.id;
    try {
      const forked = await forkRuns(p.ctx, specs, 2, () => {}, "process");
      for (const [i, spec] of specs.entries())
        expect(JSON.stringify(forked[i]), spec.id).toBe(JSON.stringify(scratch[i]));
    } finally {
      delete process.env.FAULTLINE_FORK_TEST_HANG;
      write.mockRestore();
    }
    expect(said.join("")).toContain(`run ${specs[2]!.id}: its forked child hung`);
  }, 120_000);

  it("warms up without the timeline and the callers, and plays them as a run from scratch does", () => {
    for (const file of ["examples/node-power-loss.yaml", "examples/traffic-doks-power-off.yaml"]) {
      const scenario = loadScenarioFile(file);
      for (const seed of [scenario.seed, scenario.seed + 1]) {
        const run = { ...scenario, seed };
        const { traffic: _traffic, ...rest } = run;
        const sim = warmUp({ ...rest, timeline: [] }).play(run);
        sim.runUntil(run.duration);
        expect(JSON.stringify(sim.result()), `${file}, seed ${seed}`).toBe(JSON.stringify(simulate(run)));
      }
    }
  }, 120_000);
});

describe("the audit's pool", () => {
  it("forks a large enough sweep and gives the audit it gives from scratch", async () => {
    const big = Array.from(
      { length: 2 },
      (_, i) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: app-${i}}
spec:
  replicas: 500
  selector: {matchLabels: {app: app-${i}}}
  template:
    metadata: {labels: {app: app-${i}}}
    spec:
      containers:
        - name: app
          image: example/app:1
          readinessProbe: {httpGet: {path: /ready, port: 8080}, periodSeconds: 5}
          resources: {requests: {cpu: 10m, memory: 16Mi}}
---
apiVersion: v1
kind: Service
metadata: {name: app-${i}}
spec: {selector: {app: app-${i}}, ports: [{port: 80, targetPort: 8080}]}`,
    ).join("\n---\n");
    const prepared = prepare({
      entries: [{ entry: "big.yaml", files: [{ file: "big.yaml", text: big }] }],
      cluster: { nodes: 12, zones: ["a", "b", "c"] },
    });
    const options = {
      faults: ["zone"] as const,
      budget: DEFAULT_BUDGET,
      maxSweepEvents: 1e9,
    };
    const p = planAudit(prepared, { ...options, runner: inProcess });
    expect(p.ctx.start.pods.length).toBeGreaterThanOrEqual(1_000);
    expect(p.runs.filter(forkable).length).toBeGreaterThanOrEqual(4);
    let forkedRuns = 0;
    const counting: typeof forkRuns = (ctx, specs, jobs, onDone) => {
      forkedRuns += specs.length;
      return forkRuns(ctx, specs, jobs, onDone);
    };
    // From 1,000 pods and 4 runs here (the defaults' 30,000 pods would take minutes in a test).
    const runner = poolRunner(2, false, counting, { pods: 1_000, runs: 4 });
    let forked: Awaited<ReturnType<typeof audit>>;
    try {
      forked = await audit(prepared, { ...options, runner });
    } finally {
      await runner.close();
    }
    const scratch = await audit(prepared, { ...options, runner: inProcess });
    // The runs without patches forked; the rules' experiments and fixes with patches from scratch.
    expect(forkedRuns).toBe(p.runs.filter(forkable).length);
    expect(JSON.stringify(forked)).toBe(JSON.stringify(scratch));
  }, 600_000);
});
