// What `audit merge` holds a shard file to before it takes a figure from it: the shard schema
// (shard-schema.ts, checked with Ajv), the digest the writer put over its request and runs (SHA-256,
// node:crypto: shards come back from pod logs, where a truncated, interleaved or edited line must not
// pass as a measured run), and, once the request is planned, the limits only the request gives: the
// runs this shard should hold, each once, their Services and workloads, and figures no run of its
// duration and budget can exceed. Each refusal is one line naming the file and the JSON path.

import { createHash } from "node:crypto";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { shardOf } from "./plan.ts";
import { SHARD_SCHEMA, SHARD_VERSION } from "./shard-schema.ts";
import type { Figures, RunMeasure, RunSpec } from "./types.ts";

export const SHARD_KIND = "faultline-audit-shard";

/** A shard file that cannot be merged: one line naming the file (exit 2). */
export class ShardError extends Error {}

/** The fields the digest covers, as the writer serialises them (JSON.stringify, key order kept). */
export interface Digested {
  shard: { index: number; count: number };
  request: unknown;
  runs: unknown[];
}

/** `sha256:` and the hex SHA-256 of the shard's slice, request and runs, as JSON. */
export function shardDigest(s: Digested): string {
  const body = JSON.stringify([s.shard, s.request, s.runs]);
  return `sha256:${createHash("sha256").update(body, "utf8").digest("hex")}`;
}

let validator: ValidateFunction | undefined;

/** Compiled on first use: `audit` without `merge` never pays for it. */
function validate(): ValidateFunction {
  // strict: the schema itself may hold no unknown keyword; allErrors off: the first error is the line.
  validator ??= new Ajv({ strict: true, allErrors: false }).compile(SHARD_SCHEMA);
  return validator;
}

/** A JSON Pointer (`/runs/3/services/shop~1orders-db`) as a path (`runs[3].services["shop/orders-db"]`). */
export function pathOf(pointer: string): string {
  if (pointer === "") return "(the shard)";
  let out = "";
  for (const raw of pointer.slice(1).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (/^\d+$/.test(key)) out += `[${key}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(key)) out += out === "" ? key : `.${key}`;
    else out += `[${JSON.stringify(key)}]`;
  }
  return out;
}

function schemaMessage(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case "additionalProperties":
      return `${pathOf(e.instancePath)}: unknown field ${JSON.stringify(p.additionalProperty)}`;
    case "required":
      return `${pathOf(e.instancePath)}: missing field ${JSON.stringify(p.missingProperty)}`;
    case "uniqueItems":
      return `${pathOf(e.instancePath)}: items ${p.j} and ${p.i} are the same`;
    default:
      return `${pathOf(e.instancePath)}: ${e.message ?? "not as a shard holds it"}`;
  }
}

/** The shard's kind, version and schema, then its digest; throws a ShardError naming the file. */
export function checkShardFile(file: string, value: unknown): void {
  const v = value as { kind?: unknown; version?: unknown } | null;
  if (!v || typeof v !== "object" || Array.isArray(v) || v.kind !== SHARD_KIND)
    throw new ShardError(
      `${file}: not a shard of faultline audit (make one with faultline audit … --shard I/N)`,
    );
  if (v.version !== SHARD_VERSION)
    throw new ShardError(
      `${file}: shard format version ${JSON.stringify(v.version) ?? "(none)"}; this faultline reads version ${SHARD_VERSION}: make the shards again with it`,
    );
  const check = validate();
  if (!check(value)) throw new ShardError(`${file}: ${schemaMessage(check.errors![0]!)}`);
  const s = value as Digested & { digest: string };
  if (s.shard.index >= s.shard.count)
    throw new ShardError(`${file}: shard: index ${s.shard.index} is not below count ${s.shard.count}`);
  if (shardDigest(s) !== s.digest)
    throw new ShardError(
      `${file}: digest: the shard's request or runs are not those it was written with (edited, truncated or mixed with another): make it again`,
    );
}

/** What the planned request allows a shard's runs to hold. */
export interface ShardLimits {
  /** every phase-1 run of the request, in the plan's order */
  runs: readonly RunSpec[];
  services: ReadonlySet<string>;
  workloads: ReadonlySet<string>;
  /** the scenario's duration, seconds */
  duration: number;
  maxEvents: number;
  maxRequests: number;
}

/** The runs of one shard against its request's plan: exactly its slice, each once, within range. */
export function checkShardRuns(
  file: string,
  shard: { index: number; count: number },
  runs: readonly RunMeasure[],
  limits: ShardLimits,
): void {
  const mine = new Map(shardOf(limits.runs, shard.index, shard.count).map((s) => [s.id, s]));
  const seen = new Map<string, number>();
  runs.forEach((m, i) => {
    const at = `runs[${i}]`;
    const first = seen.get(m.id);
    if (first !== undefined)
      throw new ShardError(`${file}: ${at}.id: run ${m.id} again (also runs[${first}])`);
    seen.set(m.id, i);
    const spec = mine.get(m.id);
    if (!spec)
      throw new ShardError(
        `${file}: ${at}.id: run ${m.id} is not one of shard ${shard.index}/${shard.count}'s runs of this request`,
      );
    if (!spec.retarget && JSON.stringify(m.fault) !== JSON.stringify(spec.fault))
      throw new ShardError(`${file}: ${at}.fault: not the fault the request plans for run ${m.id}`);
    if (m.engineEvents > limits.maxEvents)
      throw new ShardError(
        `${file}: ${at}.engineEvents: ${m.engineEvents} is over the run's budget of ${limits.maxEvents} events`,
      );
    // measure.ts counts each figure from the fault (t=0 for the run without one) to the run's end.
    const from = m.fault.class === "none" ? 0 : m.fault.at;
    if (m.fault.at > limits.duration)
      throw new ShardError(
        `${file}: ${at}.fault.at: ${m.fault.at}s is after the run's end (${limits.duration}s)`,
      );
    for (const [group, known, byId] of [
      ["services", limits.services, m.services],
      ["workloads", limits.workloads, m.workloads],
    ] as const)
      for (const [id, f] of Object.entries(byId)) {
        const where = `${at}.${group}[${JSON.stringify(id)}]`;
        if (!known.has(id))
          throw new ShardError(`${file}: ${where}: ${id} is not one of the request's ${group}`);
        checkFigures(`${file}: ${where}`, f, from, limits.duration, limits.maxRequests);
      }
  });
  const missing = [...mine.keys()].filter((id) => !seen.has(id));
  if (missing.length > 0)
    throw new ShardError(
      `${file}: runs: no run ${missing[0]}${missing.length > 1 ? ` (nor ${missing.length - 1} more)` : ""} of shard ${shard.index}/${shard.count}; were the shards made by this version of faultline?`,
    );
}

/** measure.ts rounds each figure to the millisecond: half of one is within what a run can give. */
const ROUNDING = 0.0005;

/** Durations within the fault-to-end span; firstReplacedAt is a time (PodCreated's t) within it. */
function checkFigures(where: string, f: Figures, from: number, end: number, maxRequests: number): void {
  const span = end - from;
  const within = (name: string, v: number | null | undefined) => {
    if (typeof v === "number" && v > span + ROUNDING)
      throw new ShardError(
        `${where}.${name}: ${v}s is more than the ${span}s from the fault to the run's end`,
      );
  };
  within("degraded", f.degraded);
  within("outage", f.outage);
  within("recovered", f.recovered);
  const t = f.firstReplacedAt;
  if (t !== undefined && (t < from - ROUNDING || t > end + ROUNDING))
    throw new ShardError(
      `${where}.firstReplacedAt: t=${t}s is not between the fault (${from}s) and the run's end (${end}s)`,
    );
  if (f.sent !== undefined && f.sent > maxRequests)
    throw new ShardError(`${where}.sent: ${f.sent} requests is over the run's budget of ${maxRequests}`);
  if (f.lost !== undefined && f.lost > (f.sent ?? 0))
    throw new ShardError(`${where}.lost: ${f.lost} requests lost of ${f.sent ?? 0} sent`);
}
