// The program of the sweep's snapshot (fork.ts): bundled into one script and run by
// `node --build-snapshot`, it warms the base scenario up to t=0 once and V8 writes the whole heap
// (the event queue with its callbacks, the store, the controllers, the kubelets, the random
// streams) into a startup snapshot. Each run of the sweep is then a process started from that
// snapshot (`node --snapshot-blob`): its heap is a fresh copy of the warmed-up cluster, on which it
// plays its own timeline with execute.ts, as a run from scratch would. Nothing here runs in the
// command's own process.
//
// Node.js: "Startup snapshot API" (doc/api/v8.md, `v8.startupSnapshot.setDeserializeMainFunction`)
// and `--build-snapshot` (doc/api/cli.md), both in Node.js 18.20 and 20.

import { readFileSync, writeSync } from "node:fs";
import { createRequire } from "node:module";
import { deserialize, serialize, startupSnapshot } from "node:v8";
import { warmUp } from "../run/simulate.ts";
import { type Hdr, provideHdr } from "../traffic/hdr.ts";
import {
  contextOf,
  executeRun,
  type ForkInput,
  forkedFrom,
  type RunContext,
  type RunOutcome,
} from "./execute.ts";
import type { RunSpec } from "./types.ts";

// hdr-histogram-js loads WebAssembly, which a snapshot cannot hold: a fork requires it at its first
// histogram, from the path its parent gives (fork.ts).
provideHdr(() => {
  const path = process.env.FAULTLINE_FORK_HDR ?? "hdr-histogram-js";
  return createRequire(path)(path) as Hdr;
});

const input = deserialize(readFileSync(process.env.FAULTLINE_FORK_INPUT ?? "")) as ForkInput;
const ctx: RunContext = contextOf(input);
// The warm-up of every run of the base: the same scenario and budget as executeRun's simulate.
const warm = warmUp(input.base, { engine: { maxEvents: input.maxEvents } });

startupSnapshot.setDeserializeMainFunction(() => {
  // A copy of the warmed-up heap: one run, its spec on standard input, its outcome on standard output.
  const spec = deserialize(readFileSync(0)) as RunSpec;
  const fromWarm = forkedFrom(warm);
  let used = false;
  const outcome: RunOutcome = executeRun(ctx, spec, (run) => {
    if (used) throw new Error("a snapshot's warm-up plays one run");
    used = true;
    return fromWarm(run);
  });
  const out = serialize(outcome);
  for (let at = 0; at < out.length; ) at += writeSync(1, out, at);
});
