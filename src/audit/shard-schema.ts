// The JSON Schema (draft-07, as Ajv reads it by default) of a shard file: what `audit --shard I/N`
// writes (ShardOutput in shard.ts, RunMeasure and Figures in types.ts, AuditInput in inputs.ts,
// Budget in run/budget.ts). It holds every type and the ranges that need no context: the limits that
// depend on the request (a run's duration, its budget, its Services and workloads) are checked by
// shard-check.ts once the request is planned. No field beyond these: the writer writes no other.

import { FAULT_CLASSES } from "./types.ts";

/** The shard format this faultline writes and reads (2: with the digest of its request and runs). */
export const SHARD_VERSION = 2;

/** `audit --shard`'s N at most (cli/audit-input.ts parseShard). */
export const MAX_SHARDS = 10_000;

const text = { type: "string" } as const;
const count = { type: "integer", minimum: 0, maximum: Number.MAX_SAFE_INTEGER } as const;
const positive = { type: "integer", minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const;
/** Seconds of simulated time: finite (JSON has no NaN or Infinity) and never negative. */
const seconds = { type: "number", minimum: 0 } as const;
const texts = { type: "array", items: text } as const;

const sourceFile = {
  type: "object",
  required: ["text", "file"],
  additionalProperties: false,
  properties: { text, file: text },
} as const;
const sourceFiles = { type: "array", items: sourceFile } as const;
const entry = {
  type: "object",
  required: ["entry", "files"],
  additionalProperties: false,
  properties: { entry: text, files: sourceFiles },
} as const;

const input = {
  type: "object",
  required: ["entries", "cluster"],
  additionalProperties: false,
  properties: {
    entries: { type: "array", items: entry },
    scenario: {
      type: "object",
      required: ["file", "text", "manifests"],
      additionalProperties: false,
      properties: { file: text, text, manifests: { type: "object", additionalProperties: sourceFiles } },
    },
    dump: entry,
    cluster: {
      type: "object",
      additionalProperties: false,
      // --nodes: at most Kubernetes' documented 5,000 nodes (cli/audit-input.ts readInput).
      properties: { nodes: { type: "integer", minimum: 1, maximum: 5000 }, zones: texts },
    },
    // --duration: after the fault at 10s, at most 7 days (cli/audit-input.ts parseRunDuration).
    duration: { type: "number", exclusiveMinimum: 10, maximum: 7 * 24 * 3600 },
    traffic: { type: "object", additionalProperties: { anyOf: [text, { type: "number" }] } },
    kubernetesVersion: text,
  },
} as const;

const request = {
  type: "object",
  required: ["input", "faults", "budget", "maxSweepEvents"],
  additionalProperties: false,
  properties: {
    input,
    faults: { type: "array", uniqueItems: true, items: { enum: [...FAULT_CLASSES] } },
    budget: {
      type: "object",
      required: ["maxEvents", "maxRequests"],
      additionalProperties: false,
      properties: { maxEvents: positive, maxRequests: positive },
    },
    maxSweepEvents: positive,
  },
} as const;

const figures = {
  type: "object",
  required: ["desired", "degraded", "outage", "recovered", "reasons"],
  additionalProperties: false,
  properties: {
    desired: count,
    degraded: seconds,
    outage: seconds,
    recovered: { anyOf: [seconds, { type: "null" }] },
    reasons: texts,
    lost: count,
    sent: count,
    restarts: count,
    evicted: count,
    replaced: count,
    firstReplacedAt: seconds,
  },
} as const;

const fault = {
  type: "object",
  required: ["class", "target", "nodes", "at"],
  additionalProperties: false,
  properties: {
    class: { enum: [...FAULT_CLASSES, "none", "stall", "blip"] },
    target: text,
    nodes: texts,
    at: seconds,
    seconds,
  },
} as const;

const run = {
  type: "object",
  required: ["id", "fault", "services", "workloads", "engineEvents", "blockedBy"],
  additionalProperties: false,
  properties: {
    id: { type: "string", minLength: 1 },
    fault,
    sharedBy: texts,
    services: { type: "object", additionalProperties: figures },
    workloads: { type: "object", additionalProperties: figures },
    engineEvents: count,
    blockedBy: texts,
    error: text,
  },
} as const;

export const SHARD_SCHEMA = {
  type: "object",
  required: ["kind", "version", "shard", "request", "runs", "digest"],
  additionalProperties: false,
  properties: {
    kind: { const: "faultline-audit-shard" },
    version: { const: SHARD_VERSION },
    shard: {
      type: "object",
      required: ["index", "count"],
      additionalProperties: false,
      properties: {
        index: { type: "integer", minimum: 0, maximum: MAX_SHARDS - 1 },
        count: { type: "integer", minimum: 1, maximum: MAX_SHARDS },
      },
    },
    request,
    runs: { type: "array", items: run },
    digest: { type: "string", pattern: "^sha256:[0-9a-f]{64}$" },
  },
} as const;
