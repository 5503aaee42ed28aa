// A calibration workload that works like the model, run in the benchmark's own process, so that each
// figure can be read against what this machine, at this moment, does with the same kind of work: a
// live set of about 200 MiB of small objects (the store's objects, the trace's events), allocation of
// short-lived ones (watch events, closures), random dependent reads through that set (a pod reaching
// its node, its owner, its slice), and fresh pages (a heap growing). A typed-array loop would not
// see this machine's costs: on a 2-core shared VM a page fault costs microseconds of CPU and a
// dependent read out of cache hundreds of nanoseconds, and those are most of the model's time.
// Measured in CPU time (process.cpuUsage, the figure that holds on a busy machine) and wall time,
// with the load average (os.loadavg) at the start, since the machine is shared.

import { readFileSync } from "node:fs";
import os from "node:os";

/** One small object of the live set: about the size of a trace event or a condition. */
interface Cell {
  next: Cell | undefined;
  id: number;
  a: number;
  b: string;
  c: number[];
}

export interface Calibration {
  /** CPU time of the whole calibration, ms */
  cpu: number;
  wall: number;
  /** the live set's size, bytes of heap */
  liveBytes: number;
  /** CPU ns per dependent read through the live set */
  readNs: number;
  /** CPU µs per fresh 4 KiB page touched */
  pageUs: number;
  /** load averages over 1, 5 and 15 minutes when it started */
  load: number[];
}

/** A fixed-seed xorshift, so the calibration is the same work every time. */
function xorshift(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x;
  };
}

function cpuMs(since: NodeJS.CpuUsage): number {
  const c = process.cpuUsage(since);
  return (c.user + c.system) / 1000;
}

/** Builds the live set (allocation and fresh pages), chases it (dependent reads), churns, touches new pages. */
export function calibrate(cells = 1_100_000): Calibration {
  const load = os.loadavg();
  // `npm run bench` exposes gc: without a collection here, the garbage of what ran before could be
  // collected while the set is built, and the live set's size read as negative (seen: -218 MiB).
  // It runs before the CPU is read, so the calibration's figure does not count it.
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const heap0 = process.memoryUsage().heapUsed;
  const cpu0 = process.cpuUsage();
  const wall0 = performance.now();
  const rand = xorshift(0x9e3779b9);
  // The live set: small objects, each with a string and a small array, linked in a random order.
  const set: Cell[] = new Array(cells);
  for (let i = 0; i < cells; i++) set[i] = { next: undefined, id: i, a: i * 0.5, b: `c-${i}`, c: [i, i + 1] };
  for (let i = cells - 1; i > 0; i--) {
    const j = rand() % (i + 1);
    const t = set[i]!;
    set[i] = set[j]!;
    set[j] = t;
  }
  for (let i = 0; i < cells; i++) set[i]!.next = set[(i + 1) % cells];
  const liveBytes = process.memoryUsage().heapUsed - heap0;
  // Dependent reads: each read's address comes from the one before, in an order the cache cannot guess.
  const reads = 3 * cells;
  const read0 = process.cpuUsage();
  let cell = set[0]!;
  let sum = 0;
  for (let i = 0; i < reads; i++) {
    sum += cell.id;
    cell = cell.next!;
  }
  const readNs = (cpuMs(read0) * 1e6) / reads;
  // Allocation: short-lived objects while the live set stays (the young generation's collections).
  let churn: { t: number; k: string }[] = [];
  for (let i = 0; i < 3 * cells; i++) {
    churn.push({ t: i, k: "x" });
    if (churn.length === 1000) churn = [];
  }
  // Fresh pages: new memory touched once per 4 KiB page (the heap growing, a large output).
  const pages = 16_384;
  const page0 = process.cpuUsage();
  for (let round = 0; round < 4; round++) {
    const buf = new Uint8Array((pages / 4) * 4096);
    for (let p = 0; p < buf.length; p += 4096) buf[p] = 1;
    sum += buf[0]!;
  }
  const pageUs = (cpuMs(page0) * 1000) / pages;
  if (sum === -1) console.log(set.length, churn.length);
  return { cpu: cpuMs(cpu0), wall: performance.now() - wall0, liveBytes, readNs, pageUs, load };
}

const MiB = 1048576;

/** One line: the calibration's CPU and wall time, its parts, and the load when it ran. */
export function calibrationLine(c: Calibration): string {
  return (
    `calibration (same process): ${(c.cpu / 1000).toFixed(2)} s CPU, ${(c.wall / 1000).toFixed(2)} s wall; ` +
    `${(c.liveBytes / MiB).toFixed(0)} MiB live set of small objects, ${c.readNs.toFixed(0)} ns per dependent read, ` +
    `${c.pageUs.toFixed(1)} µs per fresh page; load average ${c.load.map((l) => l.toFixed(2)).join(" ")}, ${os.cpus().length} cores`
  );
}

/** A CPU figure beside the calibration: how many calibrations it is worth. */
export function inCalibrations(cpuMsFigure: number, c: Calibration): string {
  return `${(cpuMsFigure / c.cpu).toFixed(2)} calibrations`;
}

/** The load average now, for a figure measured later than the calibration. */
export function loadNow(): string {
  return `load ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`;
}

/**
 * CPU seconds of this process and of its children that have exited (utime, stime, cutime, cstime
 * of /proc/self/stat, proc(5)): an audit that forks its runs (src/audit/fork.ts) spends most of its
 * CPU in child processes, which process.cpuUsage() does not see. USER_HZ is 100 on Linux.
 */
export function cpuWithChildren(): number {
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1]!.split(" ");
  return [11, 12, 13, 14].reduce((s, i) => s + Number(fields[i]), 0) / 100;
}
