// faultline/detectors: heartbeat failure detectors with explicit time (ms), their analysis and a simulation.
// Dependency-free: nothing here imports anything outside src/detectors but faultline's engine (its seeded PRNG,
// its stable event heap), and nothing reads a clock.

export { EventBudgetExceeded } from "../engine/engine.ts";
export { Rng } from "../engine/rng.ts";
export {
  AKKA_CLUSTER_DEFAULTS,
  AKKA_MULTI_DC_DEFAULTS,
  DeadlineFailureDetector,
  type DeadlineOptions,
  type HeartbeatDetector,
  PhiAccrualFailureDetector,
  type PhiAccrualOptions,
} from "./akka.ts";
export {
  type AnalysisDetector,
  analyzeDetector,
  type ClusterShape,
  compareDetectors,
  type DetectionTime,
  type DetectorAnalysis,
  detectionTime,
  detectorLabel,
  heartbeatMessagesPerSecond,
  MS_PER_DAY,
  pickThreshold,
  suspicionSilence,
  type ThresholdFamily,
  type Topology,
} from "./analysis.ts";
export { CASSANDRA_DEFAULTS, ExponentialPhiDetector, type ExponentialPhiOptions } from "./cassandra.ts";
export { exponential, normal } from "./deviates.ts";
export {
  empiricalGaps,
  erfc,
  exponentialGaps,
  type GapDistribution,
  lognormalGaps,
  mixtureGaps,
  normalCdf,
  normalGaps,
  normalSf,
  type PartialMoments,
  shiftedExponentialGaps,
  withPauseTail,
} from "./distributions.ts";
export { EventLoop } from "./events.ts";
export {
  EvictionGuard,
  type EvictionGuardOptions,
  FailureDetectorRegistry,
  PerActionThresholds,
  SelfPauseGuard,
  type SuspicionSource,
  type ThresholdChange,
} from "./guards.ts";
export { HeartbeatHistory, MAX_SAMPLE_SIZE } from "./history.ts";
export {
  exponentialPhi,
  exponentialSilenceFor,
  PHI_AT_MEAN,
  PHI_FACTOR,
  phi,
  phiNormalSilenceFor,
} from "./phi.ts";
export {
  planScenario,
  runScenario,
  SCENARIOS,
  type ScenarioName,
  type ScenarioOptions,
  type ScenarioPlan,
  type ScenarioReport,
} from "./scenarios.ts";
export {
  FixedTimeoutDetector,
  KAFKA_CONSUMER_DEFAULTS,
  KUBELET_LEASE_DEFAULTS,
  LeaseDetector,
  type LeaseOptions,
  ProgressDetector,
  type ProgressOptions,
  type ProgressStatus,
} from "./simple.ts";
export { simulate } from "./simulate.ts";
export {
  checkBudget,
  estimateSimulation,
  SIMULATION_BUDGET,
  SimulationBudgetExceeded,
  type SimulationEstimate,
} from "./simulation-budget.ts";
export {
  type Distribution,
  MAX_NODES,
  type PauseEvent,
  type SimDetectorResult,
  type SimDetectorSpec,
  type SimulationConfig,
  type SimulationResult,
  type SimulationSettings,
  simDetectorLabel,
  simulationSettings,
} from "./simulation-config.ts";
export { MAX_TIME_MS } from "./validate.ts";
