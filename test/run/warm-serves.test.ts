// Which runs one warm-up serves (src/run/warm-serves.ts): a run whose callers and apps' bootSeconds
// differ from the warmed-up scenario's plays from its warm-up exactly as from scratch, byte for byte,
// when nothing before t=0 read them; a run that changes what the warm-up read is refused, each rule
// with its reason.

import { describe, expect, it } from "vitest";
import { parseScenario } from "../../src/load/index.ts";
import { simulate, warmUp } from "../../src/run/simulate.ts";
import type { Patch, Scenario } from "../../src/scenario/types.ts";
import { variantOf } from "../../src/whatif/variant.ts";

function deployment(name: string, probes: string): string {
  return [
    "  - apiVersion: apps/v1",
    "    kind: Deployment",
    `    metadata: {name: ${name}}`,
    "    spec:",
    "      replicas: 4",
    `      selector: {matchLabels: {app: ${name}}}`,
    "      template:",
    `        metadata: {labels: {app: ${name}}}`,
    "        spec:",
    "          containers:",
    `            - {name: ${name}, image: ${name}, ports: [{containerPort: 8080}]${probes}}`,
    "  - apiVersion: v1",
    "    kind: Service",
    `    metadata: {name: ${name}}`,
    `    spec: {selector: {app: ${name}}, ports: [{port: 80, targetPort: 8080}]}`,
  ].join("\n");
}

/** `web` without probes, `api` with a liveness probe; `behaviour` as YAML lines, if any. */
function base(seed: number, behaviour: string[] = []): Scenario {
  const text = [
    "name: warm-serves",
    'kubernetesVersion: "1.32"',
    `seed: ${seed}`,
    "duration: 5m",
    "nodes: {count: 4, zones: [a, b]}",
    "manifests:",
    deployment("web", ""),
    deployment("api", ", livenessProbe: {tcpSocket: {port: 8080}, periodSeconds: 5}"),
    ...behaviour,
    "",
  ].join("\n");
  return parseScenario(text, "warm-serves.yaml", () => undefined);
}

const CALLERS: Patch = {
  path: "traffic",
  value: [{ service: "default/web", rate: 50, entry: "cluster-ip", keepAlive: false }],
};
const WEB_BOOT: Patch = { path: 'behaviour["web"].bootSeconds', value: 10 };

/** The variant with its timeline: a drain of worker-1 30s in, and more steps if given. */
function runOf(scenario: Scenario, patches: Patch[], steps: object[] = []): Scenario {
  const timeline = [{ at: "30s", do: "drain", node: "worker-1" }, ...steps];
  return variantOf(scenario, [...patches, { path: "timeline", value: timeline }]);
}

function fromWarm(scenario: Scenario, run: Scenario): { why: string | undefined; json?: string } {
  const warm = warmUp(scenario);
  const why = warm.cannotPlay(run);
  if (why !== undefined) return { why };
  const sim = warm.play(run);
  sim.runUntil(run.duration);
  return { why, json: JSON.stringify(sim.result()) };
}

describe("a warm-up plays a run with its own callers and boots", () => {
  it("as the run from scratch does, byte for byte, when nothing before t=0 read them", () => {
    for (const seed of [1, 7]) {
      const scenario = base(seed);
      for (const patches of [[CALLERS], [CALLERS, WEB_BOOT], [WEB_BOOT]]) {
        const run = runOf(scenario, patches);
        const played = fromWarm(scenario, run);
        const label = `seed ${seed}, ${patches.map((p) => p.path).join(" + ")}`;
        expect(played.why, label).toBeUndefined();
        expect(played.json, label).toBe(JSON.stringify(simulate(run)));
      }
    }
  }, 120_000);

  it("gives the warm containers the run's boot: a restart after t=0 boots for it", () => {
    // A web container crashes at 60s and restarts in place; with a 30s boot it refuses callers for 30s.
    const scenario = base(3);
    const boot = { path: 'behaviour["web"].bootSeconds', value: 30 };
    const run = runOf(scenario, [CALLERS, boot], [{ at: "60s", do: "crash", pod: "Deployment/web" }]);
    const played = fromWarm(scenario, run);
    expect(played.why).toBeUndefined();
    const scratch = simulate(run);
    expect(played.json).toBe(JSON.stringify(scratch));
    // Refused while the restarted container boots: without the run's boot there would be fewer.
    const unbooted = simulate(
      runOf(scenario, [CALLERS], [{ at: "60s", do: "crash", pod: "Deployment/web" }]),
    );
    expect(scratch.traffic!.totals.refused).toBeGreaterThan(unbooted.traffic!.totals.refused);
  }, 60_000);

  it("refuses a run whose boot a probe read before t=0", () => {
    const scenario = base(1);
    const why = warmUp(scenario).cannotPlay(
      runOf(scenario, [{ path: 'behaviour["api"].bootSeconds', value: 10 }]),
    );
    expect(why).toMatch(/a probe checked api's app before t=0/);
  });

  it("refuses a run whose boot a container running at t=0 is still in", () => {
    // The warm-up is 10 minutes: every container started within a boot of 20 minutes.
    const scenario = base(1);
    const why = warmUp(scenario).cannotPlay(
      runOf(scenario, [{ path: 'behaviour["web"].bootSeconds', value: 1200 }]),
    );
    expect(why).toMatch(/container web of pod default\/web-\S+ was still booting at t=0/);
  });

  it("refuses new callers when a health check shares the request queue, and any other change", () => {
    const sharing = base(1, ["behaviour:", "  api: {healthSharesRequestQueue: true}"]);
    expect(warmUp(sharing).cannotPlay(runOf(sharing, [CALLERS]))).toMatch(
      /api's health checks share the request queue/,
    );
    const scenario = base(1);
    const warm = warmUp(scenario);
    expect(warm.cannotPlay(runOf(scenario, [{ path: "behaviour.web.readyAfterSeconds", value: 5 }]))).toMatch(
      /behaviour of web differs beyond bootSeconds/,
    );
    expect(
      warm.cannotPlay(
        runOf(scenario, [{ object: "Deployment/default/web", path: "spec.replicas", value: 5 }]),
      ),
    ).toMatch(/its manifests differ/);
    expect(
      warm.cannotPlay(runOf(scenario, [{ path: "controlPlane.nodeMonitorGracePeriod", value: "20s" }])),
    ).toMatch(/its controlPlane differs/);
    expect(() => warm.play(runOf(scenario, [{ path: 'behaviour["api"].bootSeconds', value: 10 }]))).toThrow(
      /this warm-up cannot play the run: a probe checked api's app/,
    );
  });
});
