// What the model predicts for a recording: its dump loaded as `simulate --cluster` loads one, the
// fault put on the timeline at the recording's instant, run under several seeds (the model's own
// spread: Lease jitter, where each monitor and tainting pass falls, propagation), each step's time
// read from the trace.

import { LoadError, loadScenarioSource } from "../load/index.ts";
import type { KubeObject } from "../record/recording.ts";
import { simulate } from "../run/simulate.ts";
import type { ManifestFile, Scenario } from "../scenario/types.ts";
import type { TraceEvent } from "../trace/events.ts";
import type { Fault } from "./observe.ts";
import { type StepKey, type StepTimes, seconds } from "./steps.ts";

/** Seeds the model runs under: its spread is the range of their answers. */
export const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8];

/** A scenario's YAML `controlPlane:`/`kubelet:`/`network:` lines over the dump (the stock model: none). */
export interface ModelSettings {
  /** extra top-level scenario YAML, e.g. "controlPlane: {nodeMonitorGracePeriod: 30s}" */
  yaml?: string;
}

/** The scenario: the dump, the fault at its instant, long enough for replacements to be Ready. */
export function scenarioFor(
  dump: KubeObject[] | ManifestFile[],
  fault: Pick<Fault, "node" | "at">,
  duration: number,
  settings: ModelSettings = {},
): Scenario {
  const file = "<recording dump>";
  const probe = load(dump, "name: recording\nduration: 1s\ncluster: dump.json\n", file);
  const t0 = seconds(probe.cluster?.takenAt?.time);
  if (t0 === undefined)
    throw new LoadError(
      "invalid-value",
      isFiles(dump) ? dump.map((f) => f.file).join(", ") : file,
      0,
      0,
      "",
      "the dump has no time (no node Lease, no heartbeat): the model cannot place the fault on it",
    );
  const at = Math.max(0, fault.at - t0);
  const text = [
    "name: recording",
    `duration: ${Math.ceil(at + duration)}s`,
    "cluster: dump.json",
    ...(settings.yaml ? [settings.yaml] : []),
    "timeline:",
    `  - {at: ${at.toFixed(6)}s, do: power-off, node: ${JSON.stringify(fault.node)}}`,
    "",
  ].join("\n");
  return load(dump, text, file);
}

/** The dump as objects (a recording's), or as the files the user gave (an incident's `--cluster`). */
function load(dump: KubeObject[] | ManifestFile[], text: string, file: string): Scenario {
  const files = isFiles(dump)
    ? dump
    : [{ file: "<recording dump>", text: JSON.stringify({ apiVersion: "v1", kind: "List", items: dump }) }];
  return loadScenarioSource({ file, text, manifests: {} }, [], (entry) =>
    entry === "dump.json" ? files : undefined,
  );
}

function isFiles(dump: KubeObject[] | ManifestFile[]): dump is ManifestFile[] {
  return dump.length > 0 && typeof (dump[0] as ManifestFile).text === "string" && !("kind" in dump[0]!);
}

/** The model's t=0 on the wall (the dump's time), seconds since the Unix epoch. */
export function modelEpoch(s: Scenario): number {
  return seconds(s.cluster?.takenAt?.time) ?? 0;
}

/** One run's step times (seconds since the Unix epoch). */
export function predictOnce(s: Scenario, seed: number): StepTimes {
  const result = simulate(s, { seed });
  const t0 = modelEpoch(s);
  const node = s.timeline[0]!.node!;
  const faultAt = s.timeline[0]!.at;
  const out: StepTimes = {};
  const first = (key: StepKey, t: number) => {
    if (out[key] === undefined) out[key] = t0 + t;
  };
  const created = new Set<string>();
  for (const e of result.events as TraceEvent[]) {
    if (e.t < faultAt) continue;
    const onNode = e.node === node || e.object === `Node/${node}`;
    if (e.type === "NodeNotReady" && e.object === `Node/${node}`) {
      first("not-ready", e.t);
      if (e.leaseRenewTime !== undefined) first("lease-stops", e.leaseRenewTime);
    } else if (
      e.type === "NodeTainted" &&
      e.object === `Node/${node}` &&
      e.taint.startsWith("node.kubernetes.io/unreachable") &&
      e.taint.endsWith(":NoExecute")
    )
      first("tainted", e.t);
    else if (e.type === "PodNotReady" && onNode) first("pods-not-ready", e.t);
    else if ((e.type === "EndpointNotReady" || e.type === "EndpointRemoved") && onNode)
      first("endpoints-out", e.t);
    else if (e.type === "PodEvicted" && onNode) first("evicted", e.t);
    else if (e.type === "PodCreated") {
      created.add(e.object);
      first("replacement-created", e.t);
    } else if (e.type === "PodScheduled" && created.has(e.object)) first("replacement-scheduled", e.t);
    else if (e.type === "PodReady" && created.has(e.object)) first("replacement-ready", e.t);
    else if (e.type === "VolumeDetached" && onNode) first("volume-detached", e.t);
    else if (e.type === "VolumeAttached" && !onNode) first("volume-attached", e.t);
    else if (e.type === "RequestsFailing") first("requests-failing", e.t);
  }
  return out;
}

export interface Spread {
  /** seconds after the run's own last Lease renewal */
  min: number;
  max: number;
  median: number;
  runs: number;
}

/** The step each one follows: the interval between them is what one setting governs. */
export const PREVIOUS: Partial<Record<StepKey, StepKey>> = {
  "not-ready": "lease-stops",
  tainted: "not-ready",
  "pods-not-ready": "not-ready",
  "endpoints-out": "not-ready",
  evicted: "tainted",
  "replacement-created": "evicted",
  "replacement-scheduled": "replacement-created",
  "replacement-ready": "replacement-scheduled",
  "volume-attached": "volume-detached",
  "requests-recovered": "endpoints-out",
};

export interface Prediction {
  /** each step, seconds after the run's own last renewal */
  steps: Partial<Record<StepKey, Spread>>;
  /** each step, seconds after the step it follows (PREVIOUS), in the same run */
  intervals: Partial<Record<StepKey, Spread>>;
}

function spread(xs: (number | undefined)[]): Spread | undefined {
  const ts = xs.filter((t): t is number => t !== undefined).sort((a, b) => a - b);
  if (ts.length === 0) return undefined;
  return { min: ts[0]!, max: ts.at(-1)!, median: ts[Math.floor(ts.length / 2)]!, runs: ts.length };
}

/**
 * Every seed's run: each step's range, in seconds after that run's own last Lease renewal of the
 * node (the kill lies somewhere in the renewal interval after it, in the model as on the cluster:
 * measured from the renewal, both sides leave that unknown out), and each step's interval after
 * the one it follows.
 */
export function predict(s: Scenario, seeds: readonly number[] = SEEDS): Prediction {
  const runs = seeds.map((seed) => predictOnce(s, seed));
  const fallback = modelEpoch(s) + s.timeline[0]!.at;
  const out: Prediction = { steps: {}, intervals: {} };
  const keys = new Set(runs.flatMap((r) => Object.keys(r) as StepKey[]));
  for (const k of keys) {
    const steps = spread(
      runs.map((r) => (r[k] === undefined ? undefined : r[k]! - (r["lease-stops"] ?? fallback))),
    );
    if (steps) out.steps[k] = steps;
    const prev = PREVIOUS[k];
    if (!prev) continue;
    const gaps = spread(
      runs.map((r) => (r[k] === undefined || r[prev] === undefined ? undefined : r[k]! - r[prev]!)),
    );
    if (gaps) out.intervals[k] = gaps;
  }
  return out;
}
