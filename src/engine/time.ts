// The engine's time resolution: one microsecond. Every time the engine schedules is put on this
// grid, and every "has this much time passed?" question is asked on it (`elapsed`), so that a
// deadline computed as `start + delay` is never found short of `delay` by floating-point rounding
// (6.004 + 10 − 6.004 is 9.999999999999998 in doubles; on the grid it is 10). Models compare
// durations through these helpers, never by subtracting raw times.

/** Ticks per second: the grid is one microsecond, finer than any Kubernetes timer. */
export const TICKS_PER_SECOND = 1_000_000;

/** One tick in seconds. */
export const TICK = 1 / TICKS_PER_SECOND;

/** `t` seconds put on the microsecond grid. Idempotent. */
export function quantize(t: number): number {
  return Math.round(t * TICKS_PER_SECOND) / TICKS_PER_SECOND;
}

/** Seconds from `since` to `now`, on the grid: `elapsed(6.004 + 10, 6.004) === 10`. */
export function elapsed(now: number, since: number): number {
  return quantize(now - since);
}

/** Whole ticks in `seconds` (for exact integer comparisons and keys). */
export function ticks(seconds: number): number {
  return Math.round(seconds * TICKS_PER_SECOND);
}

/**
 * Seconds written as a Go-style duration, for messages and printed settings: "90s" → "1m30s",
 * 605400 → "168h10m", 0.5 → "500ms" (to the microsecond), 0 → "0s". parseDuration (load/units.ts)
 * reads it back.
 */
export function formatDuration(seconds: number): string {
  if (seconds < 0) return `-${formatDuration(-seconds)}`;
  if (seconds === 0) return "0s";
  const us = Math.round(seconds * 1e6);
  if (us < 1e6) return `${us / 1e3}ms`;
  // Round to the millisecond first, then split: 59.9996 s is "1m", never "60s"; 119.9999 s is "2m".
  const ms = Math.round(seconds * 1e3);
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = (ms % 60_000) / 1e3;
  return `${h ? `${h}h` : ""}${m ? `${m}m` : ""}${s ? `${s}s` : ""}`;
}
