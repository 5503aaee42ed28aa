// Scale-out: `--shard I/N` runs every N-th phase-1 run (from the I-th, counting from 0) and prints
// them with the whole request; `faultline audit merge FILES…` checks that the shards are the N parts
// of one request, puts their runs back in the plan's order and finishes the audit (findings and
// fixes) exactly as one process would have.

import type { Budget } from "../run/budget.ts";
import { type AuditOptions, checkSweep, finishAudit, measuresOf, planAudit, runSpecs } from "./audit.ts";
import { type AuditInput, prepare } from "./inputs.ts";
import { shardOf } from "./plan.ts";
import type { AuditResult, FaultClass, RunMeasure } from "./types.ts";

/** Everything that decides an audit's result: shards of one request merge into its result. */
export interface AuditRequest {
  input: AuditInput;
  faults: FaultClass[];
  budget: Budget;
  maxSweepEvents: number;
}

export const SHARD_KIND = "faultline-audit-shard";

export interface ShardOutput {
  kind: typeof SHARD_KIND;
  version: 1;
  shard: { index: number; count: number };
  request: AuditRequest;
  runs: RunMeasure[];
}

/** A shard file that cannot be merged: one line naming the file (exit 2). */
export class ShardError extends Error {}

export function optionsOf(
  request: AuditRequest,
  runner: AuditOptions["runner"],
  progress?: AuditOptions["progress"],
): AuditOptions {
  return {
    faults: request.faults,
    budget: request.budget,
    maxSweepEvents: request.maxSweepEvents,
    runner,
    ...(progress ? { progress } : {}),
  };
}

export async function runShard(
  request: AuditRequest,
  index: number,
  count: number,
  options: AuditOptions,
): Promise<ShardOutput> {
  const prepared = prepare(request.input);
  const phase1 = planAudit(prepared, options);
  const mine = shardOf(phase1.runs, index, count);
  checkSweep(phase1.ctx, mine, options, `shard ${index}/${count} of the sweep`);
  const outcomes = await runSpecs(phase1.ctx, mine, options, `shard ${index}/${count}`);
  return { kind: SHARD_KIND, version: 1, shard: { index, count }, request, runs: measuresOf(mine, outcomes) };
}

/** Shard outputs (parsed JSON, with the file each came from) → the audit's result. */
export async function mergeShards(
  shards: { file: string; value: unknown }[],
  runner: AuditOptions["runner"],
  progress?: AuditOptions["progress"],
): Promise<AuditResult> {
  const parsed = shards.map(({ file, value }) => ({ file, shard: check(file, value) }));
  const first = parsed[0];
  if (!first) throw new ShardError("audit merge: no shard files given");
  const count = first.shard.shard.count;
  const request = JSON.stringify(first.shard.request);
  const seen = new Map<number, string>();
  for (const { file, shard } of parsed) {
    if (JSON.stringify(shard.request) !== request)
      throw new ShardError(
        `${file}: a shard of another audit than ${first.file} (its manifests, cluster or options differ)`,
      );
    if (shard.shard.count !== count)
      throw new ShardError(
        `${file}: shard ${shard.shard.index}/${shard.shard.count}, but ${first.file} is one of ${count}`,
      );
    const dup = seen.get(shard.shard.index);
    if (dup) throw new ShardError(`${file}: shard ${shard.shard.index}/${count} again (also ${dup})`);
    seen.set(shard.shard.index, file);
  }
  const missing = Array.from({ length: count }, (_, i) => i).filter((i) => !seen.has(i));
  if (missing.length > 0)
    throw new ShardError(
      `audit merge: shard${missing.length === 1 ? "" : "s"} ${missing.map((i) => `${i}/${count}`).join(", ")} missing`,
    );
  const options = optionsOf(first.shard.request, runner, progress);
  const prepared = prepare(first.shard.request.input);
  const phase1 = planAudit(prepared, options);
  const byId = new Map<string, RunMeasure>();
  for (const { shard } of parsed) for (const r of shard.runs) byId.set(r.id, r);
  const measures: RunMeasure[] = [];
  for (const spec of phase1.runs) {
    const m = byId.get(spec.id);
    if (!m)
      throw new ShardError(
        `audit merge: no shard has run ${spec.id}; were the shards made by this version of faultline?`,
      );
    measures.push(m);
  }
  return finishAudit(prepared, phase1, measures, options);
}

function check(file: string, value: unknown): ShardOutput {
  const v = value as Partial<ShardOutput> | null;
  if (!v || typeof v !== "object" || v.kind !== SHARD_KIND)
    throw new ShardError(
      `${file}: not a shard of faultline audit (make one with faultline audit … --shard I/N)`,
    );
  if (v.version !== 1)
    throw new ShardError(
      `${file}: shard format version ${String(v.version)}; this faultline reads version 1`,
    );
  const s = v.shard;
  if (!s || !Number.isInteger(s.index) || !Number.isInteger(s.count) || s.index < 0 || s.index >= s.count)
    throw new ShardError(`${file}: its shard index is not I/N with 0 ≤ I < N`);
  if (!Array.isArray(v.runs) || !v.request) throw new ShardError(`${file}: a shard without runs or request`);
  return v as ShardOutput;
}
