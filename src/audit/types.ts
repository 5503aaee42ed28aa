// The audit's data: what it is asked (inputs), the runs it plans (the sweep and the rules'
// experiments), what each run measured, the findings, and the result every printer reads (text,
// JSON, SARIF) and shards carry. Plain data only: runs cross worker threads and shard files.

import type { Versioned } from "../report/contract.ts";
import type { ManifestFile, Patch, ScenarioSource } from "../scenario/types.ts";

/** A manifest file as read: its text and its name as messages show it. */
export type SourceFile = ManifestFile;

/**
 * What the audit simulates, as a scenario's source: the scenario text it generated (or the user's
 * `--scenario` file) and the manifest files each `manifests:` entry reads (load/'s ScenarioSource).
 * Every run, fix and experiment is this source plus patches (whatif/).
 */
export type AuditSource = ScenarioSource;

/**
 * One change to the audit's scenario, as data: a field of a manifest object (`object` is
 * `Kind/namespace/name`) or of the scenario itself, set before validation (whatif/'s Patch).
 */
export type { Patch };

export const FAULT_CLASSES = [
  "power-off",
  "zone",
  "drain",
  "kubelet-stop",
  "partition",
  // the instance deleted (a scale-in, a spot reclaim): on a platform profile the cloud controller deletes its Node
  "vm-terminated",
] as const;
export type FaultClass = (typeof FAULT_CLASSES)[number];
export const DEFAULT_FAULTS: readonly FaultClass[] = ["power-off", "zone", "drain"];

/** What a run does to the cluster: nothing, a node fault, or a rule's experiment on a pod. */
export interface FaultSpec {
  /** "none" for the run without a fault */
  class: FaultClass | "none" | "stall" | "blip";
  /** the node, the zone, or the workload (`Kind/ns/name`) it targets; "" for none */
  target: string;
  /** the nodes the fault takes down or drains */
  nodes: string[];
  /** seconds from t=0 */
  at: number;
  /** for an experiment: how long the stall or the blip lasts */
  seconds?: number;
}

export type Severity = "error" | "warning" | "note";
export const SEVERITIES: readonly Severity[] = ["error", "warning", "note"];

/** One run to do: a fault on the base scenario, or a fix applied and its fault re-run. */
export interface RunSpec {
  /** stable id: `power-off/worker-2`, `zone/b`, `fix/FL001/Deployment/default/web/power-off` */
  id: string;
  fault: FaultSpec;
  /** nodes sharing this run (same pods up to names), the target included */
  sharedBy?: string[];
  /** changes to the base scenario (fixes, the experiments' traffic and behaviour) */
  patches: Patch[];
  /**
   * For a fix's re-run: choose the target in the fixed scenario's own state at t=0 (the node or zone
   * holding most pods of `workload`; `prefer`, the consequence's target, on a tie), since the fix can
   * move pods.
   */
  retarget?: { workload: string; class: FaultClass; prefer?: string };
  /** a timeline step to add after the fault (the out-of-service taint of a fix), seconds after it */
  operator?: { do: "taint-out-of-service"; after: number };
}

/** What a Service or workload went through in one run, from the fault to the end. */
export interface Figures {
  /** endpoints (Services) or Ready pods (workloads) it should have */
  desired: number;
  /** seconds with fewer serving than desired */
  degraded: number;
  /** seconds with none serving */
  outage: number;
  /** seconds from the fault until it was whole again for good; null: not by the end of the run */
  recovered: number | null;
  /** why it did not recover by itself (set when recovered is null) */
  reasons: string[];
  /** requests the callers lost (timeout, refused, error), when the run had callers */
  lost?: number;
  sent?: number;
  /** containers killed by a liveness probe */
  restarts?: number;
  /** pods of the workload evicted (taint eviction, drain) */
  evicted?: number;
  /** pods created to replace lost ones, with when the first was created */
  replaced?: number;
  firstReplacedAt?: number;
}

export interface RunMeasure {
  id: string;
  fault: FaultSpec;
  sharedBy?: string[];
  /** the target actually used (a fix's re-run chooses it in the fixed scenario) */
  services: Record<string, Figures>;
  workloads: Record<string, Figures>;
  engineEvents: number;
  /** PodDisruptionBudgets that blocked an eviction, `<ns>/<name>` */
  blockedBy: string[];
  /** why the run could not be made (a rule's experiment the loader refused): no figures then */
  error?: string;
  /** the run's timeline as the text output shows it (only for `--report`; never in --json) */
  timeline?: TimelineLine[];
}

/** One step of a run's timeline: when, which lane, and what happened, in Kubernetes' words. */
export interface TimelineLine {
  t: number;
  lane: string;
  message: string;
}

/** The manifest location a finding is about (1-based; 0 when only the file is known). */
export interface Location {
  file: string;
  line: number;
  col: number;
  /** the field path inside the object, e.g. spec.replicas; "" for the object */
  path: string;
}

export interface Finding {
  rule: string;
  name: string;
  severity: Severity;
  /** `Kind/namespace/name` of the object it is about */
  object: string;
  location: Location;
  message: string;
  consequence: { run: string; text: string; figures: Figures };
  fix: { text: string; patches: Patch[]; run: string; effect: string; figures: Figures | null };
}

/**
 * Findings that say the same thing (one rule, one severity, one fix) about different objects: one
 * finding with many locations, as the text prints it. `findings` indexes the result's `findings`.
 */
export interface FindingGroup {
  rule: string;
  name: string;
  severity: Severity;
  /** the fix every member offers */
  fix: string;
  findings: number[];
  /** each member's `Kind/namespace/name`, in the same order */
  objects: string[];
}

/** A cluster node as the audit ran it. */
export interface AuditNode {
  name: string;
  zone: string | null;
  cpu: number;
  memory: number;
  pods: number;
  /** spec.unschedulable: cordoned (a dump's node, or a scenario's) */
  unschedulable?: true;
  /** its taints as kubectl taint writes them, `key=value:Effect` */
  taints?: string[];
}

export interface AuditSummary {
  inputs: string[];
  kubernetesVersion: string;
  nodes: AuditNode[];
  /** how the nodes were chosen, when the audit assumed them */
  assumed: string | null;
  faults: FaultClass[];
  duration: number;
  faultAt: number;
  services: string[];
  workloads: string[];
  notes: string[];
}

/** `audit --json` and `audit merge --json` (schemas/audit.schema.json). */
export interface AuditJson extends Versioned, AuditResult {}

export interface AuditResult {
  audit: AuditSummary;
  /** the sweep and the rules' experiments */
  runs: RunMeasure[];
  /** the fixes' runs, each with every figure (a finding quotes its subject's) */
  fixes: RunMeasure[];
  findings: Finding[];
  /** the findings grouped: identical ones (rule, severity, fix) are one group with many locations */
  groups: FindingGroup[];
  counts: Record<Severity, number>;
}
