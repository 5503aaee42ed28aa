// Crash timelines always finish. On Kubernetes ≥ 1.35 a CrashLoopBackOff retry
// scheduled at exitAt + backoff once found `t - exitAt < backoff` true again by floating-point
// rounding and rescheduled itself at the same instant forever. Times are now compared on the
// engine's microsecond grid (engine.since); these tests hold every run to a budget of engine
// events, so a livelock fails as EventBudgetExceeded instead of hanging.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { minor } from "../../src/kubernetes/defaults.ts";
import { simulate } from "../../src/run/simulate.ts";
import type { Scenario, TimelineStep } from "../../src/scenario/types.ts";
import { SUPPORTED_VERSIONS } from "../../src/scenario/types.ts";
import { eventsOf, scenario } from "../helpers/sim.ts";
import { app } from "../probes/helpers.ts";

/**
 * Engine events one short run may use: a quiet run of these scenarios takes a few hundred (the
 * 600s warm-up included), the busiest legal one (1s back-off cap, a kill every second) a few
 * thousand; a livelock goes past any bound at a single instant.
 */
const BUDGET = 20_000;

describe("the blocker: two crashes at 3s and 6.004s, one replica, Kubernetes 1.35", () => {
  it("finishes, and restarts exactly when the 10s back-off since the second exit ends", () => {
    const s = app({
      version: "1.35",
      probes: {},
      duration: "60s",
      timeline: [
        { at: "3s", do: "crash", pod: "Deployment/app" },
        { at: "6.004s", do: "crash", pod: "Deployment/app" },
      ],
    });
    const r = simulate(s, { engine: { maxEvents: BUDGET } });
    expect(eventsOf(r, "ContainerExited").map((e) => e.t)).toEqual([3, 6.004]);
    // 2: the first start; 3: the first restart is immediate; 16.004: 6.004 + 10, on the grid.
    expect(eventsOf(r, "ContainerStarted").map((e) => e.t)).toEqual([2, 3, 16.004]);
    expect(eventsOf(r, "BackOff").map((e) => [e.t, e.delaySeconds])).toEqual([[6.004, 10]]);
  });
});

// One scenario per (version, kubelet settings): a two-replica Deployment whose app may never boot
// under an aggressive liveness probe, and two bare pods with restartPolicy OnFailure and Never.
// Each timeline step is one of the template's, moved to a random time.
const TEMPLATE_TARGETS = [
  "Deployment/app",
  "Deployment/app[0]",
  "Deployment/app[1]",
  "default/once",
  "default/never",
];

function base(version: string, kubelet: Record<string, unknown>): Scenario {
  const container = (probe: boolean) => ({
    name: "app",
    image: "example/app:1",
    ...(probe ? { livenessProbe: { tcpSocket: { port: 8000 }, periodSeconds: 1, failureThreshold: 1 } } : {}),
  });
  const pod = (name: string, restartPolicy: string) => ({
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, labels: { app: name } },
    spec: { restartPolicy, containers: [container(false)] },
  });
  const doc = {
    name: "crash-timeline",
    kubernetesVersion: version,
    duration: "40s",
    start: "running",
    nodes: [{ name: "worker-1" }, { name: "worker-2" }],
    kubelet,
    manifests: [
      {
        apiVersion: "apps/v1",
        kind: "Deployment",
        metadata: { name: "app" },
        spec: {
          replicas: 2,
          selector: { matchLabels: { app: "app" } },
          template: { metadata: { labels: { app: "app" } }, spec: { containers: [container(true)] } },
        },
      },
      pod("once", "OnFailure"),
      pod("never", "Never"),
    ],
    timeline: TEMPLATE_TARGETS.map((pod) => ({ at: "1s", do: "crash", pod })),
  };
  return scenario(stringify(doc));
}

/** The kubelet settings each version accepts: defaults, no back-off, the reduced decay, a 1s cap. */
function kubeletVariants(version: string): Record<string, unknown>[] {
  const m = minor(version as Scenario["kubernetesVersion"]);
  return [
    {},
    { crashLoopBackOff: false },
    ...(m >= 33 ? [{ featureGates: { ReduceDefaultCrashLoopBackOffDecay: true } }] : []),
    ...(m >= 32
      ? [
          {
            ...(m < 35 ? { featureGates: { KubeletCrashLoopBackOffMax: true } } : {}),
            crashLoopBackOff: { maxContainerRestartPeriod: "1s" },
          },
        ]
      : []),
  ];
}

/** A time in [0, 40): whole seconds, with the sub-millisecond offsets that rounding trips on, or any double. */
const crashTime = fc.oneof(
  fc
    .tuple(fc.integer({ min: 0, max: 39 }), fc.constantFrom(0, 0.004, 0.0005, 0.000001, 0.999999, 0.1, 0.3))
    .map(([s, frac]) => s + frac),
  fc.double({ min: 0, max: 39.999, noNaN: true }),
);

describe("random crash timelines finish on every supported version (fast-check)", () => {
  // 100 timelines per version, 1,000 in all; each run is bounded by BUDGET engine events.
  it.each([...SUPPORTED_VERSIONS])("Kubernetes %s", (version) => {
    const scenarios = kubeletVariants(version).map((k) => base(version, k));
    fc.assert(
      fc.property(
        fc.nat({ max: scenarios.length - 1 }),
        fc.array(fc.tuple(crashTime, fc.nat({ max: TEMPLATE_TARGETS.length - 1 })), {
          minLength: 1,
          maxLength: 8,
        }),
        fc.constantFrom(0, 1, 2),
        fc.constantFrom(0, 0.5, 2, 100_000),
        (which, crashes, exitCode, bootSeconds) => {
          const s = scenarios[which]!;
          const timeline: TimelineStep[] = crashes
            .map(([at, i]) => ({ ...s.timeline[i]!, at }))
            .sort((a, b) => a.at - b.at);
          const behaviour = { app: { bootSeconds }, once: { exitCode }, never: { exitCode } };
          const r = simulate({ ...s, timeline, behaviour }, { engine: { maxEvents: BUDGET } });
          expect(r.summary.engineEvents).toBeLessThanOrEqual(BUDGET);
        },
      ),
      { numRuns: 100 },
    );
  });
});
