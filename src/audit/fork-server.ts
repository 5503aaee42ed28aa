// The sweep's fork server (fork.ts): one process that warms the base scenario up to t=0 once and then
// forks itself for each run that may start from it (execute.ts forkable; native/fork.c). A child is
// a copy-on-write copy of the warm process, the JIT's compiled code included: it plays its run's
// timeline from the warm-up, as a run from scratch does after t=0 (run/simulate.ts warmUp), or runs
// from scratch one the warm-up cannot play; it writes its outcome to a file and leaves with _exit. A copy of the process is exact, so a forked run's outcome is the run from scratch's,
// byte for byte (test/audit/fork.test.ts).
//
// What keeps a child sound: it has only the thread that forked, so the server runs with V8's
// background threads off (`--single-threaded`, set by fork.ts) and never starts Node's event loop or
// its thread pool (every read and write here is synchronous), nor compiles WebAssembly (its latency
// histograms are the library's JavaScript); a child leaves with _exit, without the exit handlers that
// would close what it shares with the server.
//
// Before the warm-up it forks from, the server plays a small cluster's sweep (primer.ts, for a sweep
// of PRIMER_MIN_RUNS or more) and then the first run of each fault class from scratch in its own heap
// (their outcomes are the runs' own): the code after a fault is then compiled and optimised in the
// server, and every child inherits it instead of compiling it again.
//
// Bundled into one script like the snapshot's program (fork.ts bundleForkProgram); run by
// `node --single-threaded --expose-gc <script>`, its input in the files fork.ts names.

import { existsSync, readFileSync, writeFileSync, writeSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { deserialize, serialize } from "node:v8";
import { warmUp } from "../run/simulate.ts";
import { type Hdr, hdr, provideHdr } from "../traffic/hdr.ts";
import { javaScriptHistograms } from "../traffic/latency.ts";
import {
  contextOf,
  executeRun,
  type ForkInput,
  forkedFrom,
  type RunContext,
  type RunOutcome,
} from "./execute.ts";
import type { Primer } from "./primer.ts";
import type { RunSpec } from "./types.ts";

/** native/fork.c. */
interface ProcessFork {
  fork(): number;
  waitAny(): [number, number];
  /** [0, 0] when no child ended within about `ms` */
  waitAnyFor(ms: number): [number, number];
  exit(code: number): never;
}

function need(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`the fork server needs ${name} (audit/fork.ts)`);
  return value;
}

const dir = need("FAULTLINE_FORK_DIR");
const addon = need("FAULTLINE_FORK_NATIVE");
const native = createRequire(addon)(addon) as ProcessFork;
const hdrPath = need("FAULTLINE_FORK_HDR");
provideHdr(() => createRequire(hdrPath)(hdrPath) as Hdr);
// Loaded once here, so that no child loads it again; and its JavaScript histograms, since a child
// cannot compile WebAssembly (traffic/latency.ts javaScriptHistograms).
hdr();
javaScriptHistograms();

const input = deserialize(readFileSync(join(dir, "input.bin"))) as ForkInput;
const specs = deserialize(readFileSync(join(dir, "specs.bin"))) as RunSpec[];
const jobs = Math.max(1, Number(need("FAULTLINE_FORK_JOBS")));
const ctx: RunContext = contextOf(input);

/**
 * Two collections of the young generation (V8's scavenges: `gc({ type: "minor", execution: "sync" })`,
 * the options of the `gc` function `--expose-gc` installs, V8 src/extensions/gc-extension.h; the
 * flag is set by fork.ts) just before the forks: the warm-up's last young objects move to the
 * old generation, and the server forks with an empty new space. Without them each child's first
 * scavenge copied the warm-up's survivors, and wrote (so copied) the pages they came from and went to.
 * Measured on the project's 2-core machine, idle, 100 nodes and 3,000 pods, a power-off's child:
 * without, 9,700 page faults and one scavenge of 120–160 ms, 0.27–0.36 s of CPU; with, 3,900–4,100
 * faults and no scavenge, 0.14–0.15 s; at 1,000 nodes and 30,000 pods 16,150 faults against 20,250
 * (docs/perf.md). Not a full collection: that one leaves its sweeping of the
 * old generation to the children (V8 sweeps lazily, on the main thread under --single-threaded), and
 * each child then writes nearly every page of the heap (at 1,000 nodes 27,000 page faults, 0.85–0.93
 * s of CPU a child, against 16,000 and 0.62 s without any collection).
 */
function youngCollection(): void {
  const gc = (globalThis as { gc?: (options: { type: "minor"; execution: "sync" }) => void }).gc;
  if (!gc) throw new Error("the fork server runs under --expose-gc (audit/fork.ts)");
  gc({ type: "minor", execution: "sync" });
  gc({ type: "minor", execution: "sync" });
}

/** Tells fork.ts that run `i` is done: one line on standard output. */
function done(i: number): void {
  const line = Buffer.from(`${i}\n`);
  for (let at = 0; at < line.length; ) at += writeSync(1, line, at);
}

function keep(i: number, outcome: RunOutcome): void {
  writeFileSync(join(dir, `${i}.bin`), serialize(outcome));
}

// The primer's runs (primer.ts), when fork.ts wrote them: compiled code for every child; their outcomes dropped.
if (existsSync(join(dir, "primer.bin"))) {
  const primer = deserialize(readFileSync(join(dir, "primer.bin"))) as Primer;
  const primerCtx = contextOf(primer.input);
  for (const spec of primer.specs) executeRun(primerCtx, spec);
}

// The first run of each fault class, from scratch, in this process.
const primed = new Set<number>();
const classes = new Set<string>();
for (const [i, spec] of specs.entries()) {
  if (classes.has(spec.fault.class)) continue;
  classes.add(spec.fault.class);
  primed.add(i);
  keep(i, executeRun(ctx, spec));
  done(i);
}

// The warm-up every child starts from: the same scenario and budget as executeRun's simulate.
const warm = warmUp(input.base, { engine: { maxEvents: input.maxEvents } });
youngCollection();

/** A child: its run from the warm-up, its outcome kept; never returns. */
function child(i: number): never {
  let code = 0;
  // test/audit/fork.test.ts: a child that blocks for good, as one caught by the lock below would.
  if (process.env.FAULTLINE_FORK_TEST_HANG === specs[i]!.id)
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
  try {
    keep(i, executeRun(ctx, specs[i]!, forkedFrom(warm)));
  } catch (error) {
    const text = Buffer.from(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    writeSync(2, text);
    code = 1;
  }
  return native.exit(code);
}

const running = new Map<number, number>();

/**
 * A child blocked for good. A child never sleeps: it computes, writes its outcome and leaves. But it
 * has only the thread that forked, and a lock another thread of the server held at the fork stays
 * held in it: seen on the 1,000-node audit, two children waiting for good in `pthread_cond_signal`,
 * from V8's mark-compact (`ClearNonLiveReferences` posting its clearing job to Node's platform
 * workers, `NodePlatform::CallOnWorkerThread`: V8's src/heap/mark-compact.cc ParallelClearingJob,
 * posted even when --single-threaded sets its concurrency to 1), the condition variable copied while one of the
 * server's worker threads had been signalled and not yet woken. So a child seen asleep (state S,
 * proc(5) /proc/<pid>/stat) with no CPU time gained at HUNG_CHECKS checks a second apart is killed,
 * and its run played from scratch in this process, whose threads are all there: the same outcome,
 * said on standard error.
 */
const HUNG_CHECKS = 5;
const sleeping = new Map<number, { cpu: number; checks: number }>();
/** the hung children killed, not yet reaped */
const killed = new Set<number>();

/** The children asleep with no CPU gained at HUNG_CHECKS checks in a row. */
function hung(): number[] {
  const out: number[] = [];
  for (const pid of running.keys()) {
    let fields: string[];
    try {
      fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    } catch {
      continue; // ended since: the next wait reaps it
    }
    const cpu = Number(fields[11]) + Number(fields[12]);
    const last = sleeping.get(pid);
    const checks = fields[0] === "S" && last?.cpu === cpu ? last.checks + 1 : 0;
    sleeping.set(pid, { cpu, checks });
    if (checks >= HUNG_CHECKS) out.push(pid);
  }
  return out;
}

/** Waits for one child; a child that failed ends the server with its run named, one that hung is played here. */
function reap(): void {
  let [pid, code] = native.waitAnyFor(1000);
  while (pid === 0) {
    for (const h of hung()) {
      process.kill(h, "SIGKILL");
      killed.add(h);
    }
    [pid, code] = native.waitAnyFor(1000);
  }
  sleeping.delete(pid);
  const i = running.get(pid);
  if (i === undefined) throw new Error(`the fork server waited for ${pid}, not one of its runs`);
  running.delete(pid);
  if (killed.delete(pid)) {
    writeSync(
      2,
      `run ${specs[i]!.id}: its forked child hung (a lock copied at the fork); played from scratch instead\n`,
    );
    keep(i, executeRun(ctx, specs[i]!));
  } else if (code !== 0) {
    writeSync(2, `run ${specs[i]!.id} ended with ${code > 128 ? `signal ${code - 128}` : `code ${code}`}\n`);
    native.exit(1);
  }
  done(i);
}

for (let i = 0; i < specs.length; i++) {
  if (primed.has(i)) continue;
  if (running.size >= jobs) reap();
  const pid = native.fork();
  if (pid === 0) child(i);
  if (pid < 0) throw new Error(`fork failed: errno ${-pid}`);
  running.set(pid, i);
}
while (running.size > 0) reap();
