// Scale-out: `--shard I/N` runs every N-th phase-1 run (from the I-th, counting from 0) and prints
// them with the whole request; `faultline audit merge FILES…` checks that the shards are the N parts
// of one request, puts their runs back in the plan's order and finishes the audit (findings and
// fixes) exactly as one process would have. Each shard carries the digest of its slice, request and
// runs; merge takes no figure from a shard that fails its schema, its digest or its request's limits
// (shard-check.ts).

import type { Budget } from "../run/budget.ts";
import { type AuditOptions, checkSweep, finishAudit, measuresOf, planAudit, runSpecs } from "./audit.ts";
import { type AuditInput, prepare } from "./inputs.ts";
import { shardOf } from "./plan.ts";
import { checkShardFile, checkShardRuns, SHARD_KIND, ShardError, shardDigest } from "./shard-check.ts";
import { SHARD_VERSION } from "./shard-schema.ts";
import type { AuditResult, FaultClass, RunMeasure } from "./types.ts";

/** Everything that decides an audit's result: shards of one request merge into its result. */
export interface AuditRequest {
  input: AuditInput;
  faults: FaultClass[];
  budget: Budget;
  maxSweepEvents: number;
}

export { SHARD_KIND, ShardError };

export interface ShardOutput {
  kind: typeof SHARD_KIND;
  version: typeof SHARD_VERSION;
  shard: { index: number; count: number };
  request: AuditRequest;
  runs: RunMeasure[];
  /** shardDigest of shard, request and runs */
  digest: string;
}

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
  const body = { shard: { index, count }, request, runs: measuresOf(mine, outcomes) };
  return { kind: SHARD_KIND, version: SHARD_VERSION, ...body, digest: shardDigest(body) };
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
  const limits = {
    runs: phase1.runs,
    services: new Set(phase1.ctx.objects.services.map((s) => s.id)),
    workloads: new Set(phase1.ctx.objects.workloads.map((w) => w.id)),
    duration: prepared.scenario.duration,
    maxEvents: options.budget.maxEvents,
    maxRequests: options.budget.maxRequests,
  };
  const byId = new Map<string, RunMeasure>();
  for (const { file, shard } of parsed) {
    checkShardRuns(file, shard.shard, shard.runs, limits);
    for (const r of shard.runs) byId.set(r.id, r);
  }
  // Every run is in its shard (checkShardRuns), so each id of the plan has its measure.
  const measures = phase1.runs.map((spec) => byId.get(spec.id)!);
  return finishAudit(prepared, phase1, measures, options);
}

/** The file's schema and digest (shard-check.ts): then it is a ShardOutput. */
function check(file: string, value: unknown): ShardOutput {
  checkShardFile(file, value);
  return value as ShardOutput;
}
