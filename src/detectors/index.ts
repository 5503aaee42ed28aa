// faultline/detectors: heartbeat failure detectors with explicit time (ms), their analysis and a simulation.
// Dependency-free: nothing here imports anything outside src/detectors, and nothing reads a clock.

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
  parseGaps,
  shiftedExponentialGaps,
  withPauseTail,
} from "./distributions.ts";
export { formatDuration, parseDuration } from "./duration.ts";
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
export { HeartbeatHistory } from "./history.ts";
export {
  exponentialPhi,
  exponentialSilenceFor,
  PHI_AT_MEAN,
  PHI_FACTOR,
  phi,
  phiNormalSilenceFor,
} from "./phi.ts";
export { createRng, type Rng } from "./rng.ts";
export {
  runScenario,
  SCENARIOS,
  type ScenarioName,
  type ScenarioOptions,
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
export {
  type PauseEvent,
  type SimDetectorResult,
  type SimDetectorSpec,
  type SimulationConfig,
  type SimulationResult,
  simulate,
} from "./simulate.ts";
