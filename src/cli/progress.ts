// A large run's progress on a terminal: one line on stderr, rewritten at most four times a second
// from the engine's progress callback (engine.onProgress), cleared when the run ends. Silent when
// stderr is not a terminal (Io.progress absent) or the run is small.

import { readFileSync } from "node:fs";
import { formatDuration as duration } from "../engine/time.ts";
import type { WorkEstimate } from "../run/budget.ts";
import { count } from "../run/budget.ts";
import type { Io } from "./io.ts";

/** Runs estimated below this many engine events end too soon to need a progress line. */
export const PROGRESS_FROM_EVENTS = 100_000;
const EVERY_MS = 250;

export interface Progress {
  onProgress(now: number, processed: number): void;
  /** the runs after the first carry on in the same line under this label (a run's levers) */
  relabel(label: string): void;
  done(): void;
}

/** A progress line for one run, or undefined when none is shown. `label` names the run. */
export function progressLine(
  io: Io,
  label: string,
  estimate: WorkEstimate,
  simulated: number,
  clock: () => number = Date.now,
): Progress | undefined {
  const show = io.progress;
  if (!show || estimate.events < PROGRESS_FROM_EVENTS) return undefined;
  let last = clock();
  return {
    relabel(next) {
      label = next;
    },
    onProgress(now, processed) {
      const wall = clock();
      if (wall - last < EVERY_MS) return;
      last = wall;
      const where =
        now < 0
          ? `warming up, t=-${duration(Math.round(-now))}`
          : `t=${duration(Math.round(now))} of ${duration(simulated)}`;
      show(`faultline: ${label}: ${where} · ${count(processed)} of ~${count(estimate.events)} events`);
    },
    done() {
      show(undefined);
    },
  };
}

/**
 * CPU seconds of this process (every thread) and of its children that have ended: an audit that
 * forks its runs (audit/fork.ts) spends most of its CPU in child processes, which
 * process.cpuUsage() does not count. On Linux, utime + stime + cutime + cstime of /proc/self/stat
 * (proc(5), fields 14–17, in clock ticks: USER_HZ, 100); elsewhere process.cpuUsage() alone.
 */
export function cpuWithChildren(): number {
  try {
    const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1]!.split(" ");
    return [11, 12, 13, 14].reduce((s, i) => s + Number(fields[i]), 0) / 100;
  } catch {
    const c = process.cpuUsage();
    return (c.user + c.system) / 1e6;
  }
}
