// The programmatic API (the package's "." export): load a scenario, run it, read or print the
// result. The failure-detector library is the "./detectors" export (src/detectors/index.ts).
//
//   import { loadScenarioFile, simulate, formatTimeline } from "faultline";
//   const scenario = loadScenarioFile("examples/node-power-loss.yaml");
//   const result = simulate(scenario, { seed: 7 });
//   console.log(formatTimeline(result, scenario));

import * as hdrHistogram from "hdr-histogram-js";
import { provideHdr } from "./traffic/hdr.ts";

// The latency histograms' library (traffic/hdr.ts), imported with the API as before: the command's
// process requires it only when a run has callers (cli/main.ts).
provideHdr(() => hdrHistogram);

// Run: to the end, or step by step, within a budget.
export { EventBudgetExceeded } from "./engine/engine.ts";
// Load: a scenario file and the manifests it names (Node), or scenario text (anywhere).
// Vary: a variant of a loaded scenario is a patch on its source, loaded again (same rules and
// messages as the file); the settings a run uses, with where each comes from.
export {
  formatLoadError,
  LoadError,
  type LoadErrorCode,
  loadScenarioFile,
  loadScenarioSource,
  type ManifestFile,
  parseScenario,
  type ReadManifest,
  readManifestEntry,
} from "./load/index.ts";
export { formatJson } from "./report/json.ts";
export { type Prose, proseOf } from "./report/messages/index.ts";
export { formatTimeline, type TextOptions } from "./report/text.ts";
export { type Budget, DEFAULT_BUDGET, estimateWork, overBudget, type WorkEstimate } from "./run/budget.ts";
export type { SimulationResult } from "./run/result.ts";
export {
  createSimulation,
  type PullLevers,
  type SimulateOptions,
  type Simulation,
  simulate,
  WARM_UP_SECONDS,
} from "./run/simulate.ts";
export type { Patch, Scenario, ScenarioSource } from "./scenario/types.ts";
// The result: events (typed fields), the state at t=0 and at the end; the prose for people.
export type { EventOf, EventType, Lane, TraceEvent } from "./trace/events.ts";
export type {
  InitialEndpoints,
  InitialNode,
  InitialPod,
  InitialState,
  Summary,
} from "./trace/result.ts";
export type { TrafficResult } from "./traffic/index.ts";
export {
  applyVariation,
  pullLevers,
  type ResolvedSettings,
  resolvedSettings,
  simulateVariants,
  variantOf,
} from "./whatif/index.ts";
