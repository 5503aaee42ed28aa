// The work a scenario implies, estimated before it runs, and the budgets a run must stay within.
//
// Every limit of the loader is per field (a period has a floor, a duration a ceiling), so only the
// product of several settings shows that a run would never end: a 1ms node-monitor-period over a
// week, 100 nodes renewing 1s Leases for 7 days, 100,000 requests per second for 168h. This module
// multiplies them out from the loaded Scenario, in the engine's own unit (events; see
// engine/engine.ts) and in simulated requests (the traffic model resolves requests arithmetically,
// not as events), term by term, so a refusal can say which settings multiply to it.
//
// The estimate is calibrated against real runs (test/cli/budget.test.ts: every example and the
// 1,000-node benchmark): it is meant to be within a small factor of the truth, not a bound. An
// underestimate still ends cleanly: the run gets the same budget as its hard cap (`maxEvents`), and
// the engine stops with EventBudgetExceeded when a run goes past it.

import { formatDuration } from "../engine/time.ts";
import { LEASE_BACKOFF_MAX, resolveControlPlane, resolveKubelet } from "../kubernetes/defaults.ts";
import { type Profile, profileOf, resolveNetwork } from "../scenario/profiles.ts";
import type { Scenario } from "../scenario/types.ts";
import { count, num, seconds } from "./estimate-words.ts";
import { estimatedWorkloads, fitting, probeChecks, probed } from "./estimate-workloads.ts";
import { WARM_UP_SECONDS } from "./simulate.ts";

export { count } from "./estimate-words.ts";

/** What one run may cost; each overridable on the command line. */
export interface Budget {
  /** engine events one run may process (`--max-events`); also the run's hard cap */
  maxEvents: number;
  /** requests one run's callers may send, retries included (`--max-requests`) */
  maxRequests: number;
}

/**
 * The defaults: a run within them takes at most about a minute on one core. Kubernetes' documented
 * limits fit: the 5,000-node, 150,000-pod benchmark (bench/zone-loss-at-scale.ts) is about 706,000
 * events (estimated 908,000) and peaks near 1.5 GiB; the 1,000-node one about 148,000.
 */
export const DEFAULT_BUDGET: Budget = { maxEvents: 1_000_000, maxRequests: 50_000_000 };

/** One part of the estimate: what costs, how much, and the settings that multiply to it. */
export interface WorkTerm {
  what: string;
  count: number;
  /** the factors as the user would recognise them, e.g. "100 nodes", "duration 168h + 10m warm-up" */
  factors: string[];
}

export interface WorkEstimate {
  /** engine events, warm-up included */
  events: number;
  /** simulated requests (attempts), retries included */
  requests: number;
  eventTerms: WorkTerm[];
  requestTerms: WorkTerm[];
}

/** Engine events a pod costs to create, schedule, bind, start and report Ready (calibrated: ~5). */
const EVENTS_PER_POD_START = 6;
/**
 * A `start: running` pod of a ReplicaSet, or a bare pod, without claims: the warm-up starts it in
 * bulk (kubelet/bulk-start.ts), with the other starts of its instant in one event, so it costs
 * nearly nothing; its probes' first checks cost about one event (calibrated: 0.0002 and 1.0).
 */
const EVENTS_PER_BULK_START_PROBED = 1;
/** Engine events a pod on a failed node costs: eviction, deletion, its replacement's start (~5). */
const EVENTS_PER_POD_REPLACED = 6;
/** The traffic model's tick (traffic/model.ts TICK): one engine event per tick while callers run. */
const TRAFFIC_TICKS_PER_SECOND = 50;
/** PodGC's gcCheckPeriod, 20s (controllers/podgc-controller.ts). */
const PODGC_PERIOD = 20;
/** The scheduler's podMaxBackoffSeconds: a pod that fits nowhere is tried at most this often. */
const SCHEDULER_MAX_BACKOFF = 10;

/** The engine's grid, 1µs: an exitAfterSeconds of 0 still exits once per instant at most. */
const MIN_EXIT_INTERVAL = 1e-6;

const NODE_FAULTS = new Set([
  "power-off",
  "vm-terminated",
  "spot-interruption",
  "network-partition",
  "kubelet-stop",
  "runtime-down",
  "drain",
  "delete-node",
]);

/** The faults after which the node goes silent: its pods leave through the rate-limited NoExecute taint. */
const TAINTED_FAULTS = new Set(["power-off", "vm-terminated", "network-partition", "kubelet-stop"]);

/** What every term of an estimate reads: the scenario, its resolved settings and the run's lengths. */
interface EstimateContext {
  scenario: Scenario;
  cp: ReturnType<typeof resolveControlPlane>;
  kubelet: ReturnType<typeof resolveKubelet>;
  profile: Profile;
  /** the scenario's duration, and with the warm-up */
  D: number;
  T: number;
  N: number;
  /** "1,000 nodes", and the two lengths in words */
  nodes: string;
  whole: string;
  run: string;
  add: (what: string, n: number, factors: string[]) => void;
}

export function estimateWork(scenario: Scenario): WorkEstimate {
  const profile = profileOf(scenario);
  const cp = resolveControlPlane(scenario.kubernetesVersion, {
    ...profile.controlPlane,
    ...scenario.controlPlane,
  });
  const kubelet = resolveKubelet(scenario.kubernetesVersion, { ...profile.kubelet, ...scenario.kubelet });
  const D = scenario.duration;
  const T = WARM_UP_SECONDS + D;
  const N = scenario.nodes.length;
  const events: WorkTerm[] = [];
  const c: EstimateContext = {
    scenario,
    cp,
    kubelet,
    profile,
    D,
    T,
    N,
    nodes: `${count(N)} node${N === 1 ? "" : "s"}`,
    whole: `${seconds(T)} (duration ${formatDuration(D)} + ${formatDuration(WARM_UP_SECONDS)} warm-up)`,
    run: `${seconds(D)} (duration ${formatDuration(D)})`,
    add: (what, n, factors) => {
      if (n > 0) events.push({ what, count: n, factors });
    },
  };
  heartbeatTerms(c);
  const { workloads, pods } = podStartTerms(c);
  exitTerms(c, workloads);
  const replaced = nodeFaultTerms(c, pods);
  const probes = schedulingAndProbeTerms(c, workloads, pods);
  const requestTerms = trafficTerms(c, replaced, pods, probes.restarts);
  const sum = (ts: WorkTerm[]) => ts.reduce((s, t) => s + t.count, 0);
  events.sort((a, b) => b.count - a.count);
  requestTerms.sort((a, b) => b.count - a.count);
  return { events: sum(events), requests: sum(requestTerms), eventTerms: events, requestTerms };
}

/** The kubelets' Lease passes and status posts, the node lifecycle controller's and PodGC's passes. */
function heartbeatTerms(c: EstimateContext): void {
  const { scenario, cp, kubelet, D, T, N, nodes, whole, run, add } = c;
  // A healthy kubelet's renewals are computed, not run (kubelet/node-lease.ts): only the passes after
  // a disturbance are events, each with its write's watch delivery: the first pass of every node,
  // one after each step of the timeline on a node, and backoffEnsureLease's retries while
  // partitioned (200ms doubling to LEASE_BACKOFF_MAX, 7s).
  const steps = scenario.timeline.filter((s) => s.node !== undefined).length;
  const cutOff = silentSeconds(scenario, "network-partition", "network-heal");
  add("Lease renewal passes", 2 * (N + steps) + cutOff / LEASE_BACKOFF_MAX, [
    `${nodes} and ${count(steps)} timeline steps on nodes: 2 events each (the pass and its write's watchers)`,
    `one retry every ${num(LEASE_BACKOFF_MAX)}s over ${seconds(cutOff)} of partitions`,
  ]);
  const report = kubelet.nodeStatusReportFrequency;
  add("node status posts", (2 * N * T) / report, [
    nodes,
    `one post every ${num(report)}s (kubelet.nodeStatusReportFrequency, or nodeStatusUpdateFrequency when set)`,
    "2 events each (the write and its watchers)",
    whole,
  ]);
  add("node monitor passes", D / cp.nodeMonitorPeriod, [
    `one pass every ${num(cp.nodeMonitorPeriod)}s (controlPlane.nodeMonitorPeriod)`,
    run,
  ]);
  add("PodGC passes", D / PODGC_PERIOD, [`one pass every ${PODGC_PERIOD}s`, run]);
}

/** The pods the run starts, and the first probe checks of those the warm-up starts in bulk. */
function podStartTerms(c: EstimateContext): {
  workloads: ReturnType<typeof estimatedWorkloads>;
  pods: number;
} {
  const { scenario, N, add } = c;
  const workloads = estimatedWorkloads(scenario, N);
  const pods = workloads.reduce((s, w) => s + w.pods, 0);
  const bulk = scenario.start === "running" ? workloads.reduce((s, w) => s + (w.bulk ? w.pods : 0), 0) : 0;
  const bulkProbed =
    scenario.start === "running"
      ? workloads.reduce((s, w) => s + (w.bulk && w.spec.containers.some(probed) ? w.pods : 0), 0)
      : 0;
  add("pod starts", (pods - bulk) * EVENTS_PER_POD_START, [
    `${count(pods - bulk)} pods (replicas, DaemonSets × nodes)`,
    `about ${EVENTS_PER_POD_START} events each`,
  ]);
  add("first probe checks of pods started in bulk", bulkProbed * EVENTS_PER_BULK_START_PROBED, [
    `${count(bulkProbed)} of the ${count(bulk)} pods the warm-up starts in bulk (ReplicaSets' and bare pods without claims) have probes`,
    `about ${EVENTS_PER_BULK_START_PROBED} event each`,
  ]);

  return { workloads, pods };
}

function exitTerms(c: EstimateContext, workloads: ReturnType<typeof estimatedWorkloads>): void {
  const { scenario, kubelet, T, whole, add } = c;
  // behaviour.exitAfterSeconds: a restart per exit, at most one per back-off step and then one per
  // cap; without back-off (the toy kubelet) one every exitAfterSeconds.
  const exiting = workloads.flatMap((w) =>
    w.spec.containers.flatMap((c) => {
      const e = { ...scenario.behaviour[w.name], ...scenario.behaviour[`${w.name}/${c.name}`] }
        .exitAfterSeconds;
      return e === undefined ? [] : [{ pods: w.pods, every: Math.max(e, MIN_EXIT_INTERVAL) }];
    }),
  );
  const restartsPerPod = (every: number) =>
    kubelet.crashLoopBackOff
      ? Math.min(
          T / every,
          Math.log2(kubelet.crashLoopBackOffMax / kubelet.crashLoopBackOffInitial) +
            2 +
            T / kubelet.crashLoopBackOffMax,
        )
      : T / every;
  add(
    "restarts of processes that exit by themselves",
    exiting.reduce((n, x) => n + x.pods * restartsPerPod(x.every), 0) * EVENTS_PER_POD_START,
    [
      `${count(exiting.reduce((n, x) => n + x.pods, 0))} containers with behaviour.exitAfterSeconds`,
      kubelet.crashLoopBackOff
        ? `restarted after the back-off, ${num(kubelet.crashLoopBackOffInitial)}s doubling to ${num(kubelet.crashLoopBackOffMax)}s`
        : "restarted at once (crashLoopBackOff: false)",
      whole,
    ],
  );
}

/** The pods replaced after the timeline's node faults (the silent ones at the NoExecute tainting rate): how many. */
function nodeFaultTerms(c: EstimateContext, pods: number): number {
  const { scenario, cp, D, N, add } = c;
  const nodeFaults = scenario.timeline.filter((s) => NODE_FAULTS.has(s.do)).length;
  // A silent node's pods go through its NoExecute taint, which the node lifecycle controller adds
  // at --node-eviction-rate nodes per second in each zone (doNoExecuteTaintingPass): over the run
  // at most rate × duration nodes per zone are tainted.
  const zoneOf = new Map(scenario.nodes.map((n) => [n.name, n.zone ?? ""]));
  const perZone = new Map<string, number>();
  let silentFaults = 0;
  for (const s of scenario.timeline)
    if (TAINTED_FAULTS.has(s.do) && s.node !== undefined) {
      silentFaults++;
      const z = zoneOf.get(s.node) ?? "";
      perZone.set(z, (perZone.get(z) ?? 0) + 1);
    }
  let tainted = 0;
  for (const n of perZone.values()) tainted += Math.min(n, Math.ceil(cp.nodeEvictionRate * D));
  const replacedNodes = nodeFaults - silentFaults + tainted;
  const replaced = N > 0 ? (replacedNodes * pods) / N : 0;
  add("pods replaced after node faults", replaced * EVENTS_PER_POD_REPLACED, [
    `${count(nodeFaults)} node fault steps (of the silent ones at most ${count(tainted)} tainted at node-eviction-rate ${num(cp.nodeEvictionRate)}/s per zone) × ${num(pods / Math.max(N, 1))} pods per node`,
    `about ${EVENTS_PER_POD_REPLACED} events each`,
  ]);

  return replaced;
}

function schedulingAndProbeTerms(
  c: EstimateContext,
  workloads: ReturnType<typeof estimatedWorkloads>,
  pods: number,
): ReturnType<typeof probeChecks> {
  const { scenario, kubelet, T, N, whole, add } = c;
  const report = kubelet.nodeStatusReportFrequency;
  const unschedulable = Math.max(0, pods - fitting(scenario, workloads));
  add(
    "scheduling retries of pods that fit nowhere",
    unschedulable * T * Math.min(N / report, 1 / SCHEDULER_MAX_BACKOFF),
    [
      `${count(Math.round(unschedulable))} pods beyond the nodes' capacity`,
      "retried on node updates, at most every 10s",
      whole,
    ],
  );

  const probes = probeChecks(scenario, workloads, T);
  add("probe checks", probes.checks, probes.factors);

  return probes;
}

/** The traffic's engine events (added), and its requests (returned as terms of their own). */
function trafficTerms(c: EstimateContext, replaced: number, pods: number, restarts: number): WorkTerm[] {
  const { scenario, profile, D, N, nodes, run, add } = c;
  const requestTerms: WorkTerm[] = [];
  const traffic = scenario.traffic ?? [];
  if (traffic.length > 0) {
    const net = resolveNetwork(profile, scenario.network);
    add("traffic ticks", TRAFFIC_TICKS_PER_SECOND * D, [`${TRAFFIC_TICKS_PER_SECOND} ticks per second`, run]);
    const lb = new Set(traffic.filter((t) => t.entry === "load-balancer").map((t) => t.service)).size;
    add("load-balancer health checks", (lb * N * D * 2) / net.loadBalancer.healthCheckInterval, [
      `${count(lb)} load-balanced Services × ${nodes}`,
      `one check every ${num(net.loadBalancer.healthCheckInterval)}s (network.loadBalancer.healthCheckInterval)`,
      run,
    ]);
    const changes = 2 * (replaced + (scenario.start === "created" ? pods : 0) + restarts);
    add("kube-proxy rule syncs", changes * N * 2, [
      `~${count(Math.round(changes))} endpoint changes`,
      `× ${nodes}`,
    ]);
    traffic.forEach((t, i) => {
      const active = Math.max(0, D - t.start);
      requestTerms.push({
        what: `requests of traffic[${i}] (${t.service})`,
        count: t.rate * active * (1 + t.retries),
        factors: [
          `rate ${num(t.rate)}/s`,
          `${seconds(active)} (duration ${formatDuration(D)}${t.start > 0 ? ` from start ${formatDuration(t.start)}` : ""})`,
          `(1 + retries ${t.retries})`,
        ],
      });
    });
  }
  return requestTerms;
}

/** Which budget an estimate breaks, as one line naming the settings and the override; or undefined. */
export function overBudget(estimate: WorkEstimate, budget: Budget): string | undefined {
  if (estimate.events > budget.maxEvents) {
    const top = estimate.eventTerms[0]!;
    if (!Number.isFinite(estimate.events))
      return `a run without end: ${top.what}: ${top.factors.join(" × ")}; a period of 0 never lets the clock move on`;
    return `about ${count(Math.round(estimate.events))} engine events per run, over the budget of ${count(budget.maxEvents)}; most are ${top.what}: ${top.factors.join(" × ")}. Shorten the scenario, or raise the budget with --max-events ${Math.ceil(estimate.events * 1.5)}`;
  }
  if (estimate.requests > budget.maxRequests) {
    const top = estimate.requestTerms[0]!;
    return `about ${count(Math.round(estimate.requests))} simulated requests per run, over the budget of ${count(budget.maxRequests)}; most are ${top.what}: ${top.factors.join(" × ")}. Shorten the scenario, or raise the budget with --max-requests ${Math.ceil(estimate.requests * 1.2)}`;
  }
  return undefined;
}

/** Node-seconds between a `stop` step on a node and its `start` step (or the end): a network partition until its heal. */
function silentSeconds(scenario: Scenario, stop: string, start: string): number {
  const since = new Map<string, number>();
  let total = 0;
  const end = scenario.duration;
  for (const step of [...scenario.timeline].sort((a, b) => a.at - b.at)) {
    if (step.node === undefined) continue;
    if (step.do === stop) {
      if (!since.has(step.node)) since.set(step.node, step.at);
    } else if (step.do === start) {
      const from = since.get(step.node);
      if (from !== undefined) total += step.at - from;
      since.delete(step.node);
    }
  }
  for (const from of since.values()) total += Math.max(0, end - from);
  return total;
}
