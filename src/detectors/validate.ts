// What the detectors accept from their callers: times, options objects and numbers. A mistake is a
// RangeError (a value out of range, NaN, ±Infinity, time going backwards) or a TypeError (not an
// object, not a number) whose message names the class and the option, never a crash further in.
//
// Times are milliseconds from the caller's monotonic clock. They must be finite and within
// ±MAX_TIME_MS, the range in which every time's microseconds are an exact integer in a double
// (`Number.MAX_SAFE_INTEGER` µs, ±285 years): `performance.now()` and `Date.now()` both fit.

/** The largest time (ms) accepted: Number.MAX_SAFE_INTEGER microseconds, about 285 years. */
export const MAX_TIME_MS = Number.MAX_SAFE_INTEGER / 1000;

/** `nowMs` if it is a time the detectors accept; a RangeError naming `owner` otherwise. */
export function checkTime(owner: string, nowMs: number): number {
  if (!(nowMs >= -MAX_TIME_MS && nowMs <= MAX_TIME_MS)) throw badTime(owner, nowMs);
  return nowMs;
}

/** The error for a time that is not finite, not a number or out of range. */
export function badTime(owner: string, nowMs: unknown): RangeError {
  return new RangeError(
    `${owner}: time must be a finite number of milliseconds within ±${MAX_TIME_MS} (285 years), got ${show(nowMs)}`,
  );
}

/**
 * The error for `nowMs` when `nowMs − lastMs` was found not to be a silence in [0, ∞) or `nowMs` above
 * MAX_TIME_MS (the detectors' hot path checks only that, `lastMs` having been checked when it was given).
 */
export function badSilence(owner: string, nowMs: number, lastMs: number): RangeError {
  return nowMs >= -MAX_TIME_MS && nowMs <= MAX_TIME_MS
    ? timeWentBackwards(owner, nowMs, lastMs)
    : badTime(owner, nowMs);
}

/** The error for a heartbeat or a query at a time before the last heartbeat. */
export function timeWentBackwards(owner: string, nowMs: number, lastMs: number): RangeError {
  return new RangeError(
    `${owner}: time went backwards: ${nowMs} is before the last heartbeat at ${lastMs} (pass a monotonic clock)`,
  );
}

/**
 * The options object of a constructor: `undefined` and `null` mean "no options" (every default), anything
 * but a plain object is a TypeError, and a key not in `known` is a RangeError (a misspelt option would
 * otherwise be silently replaced by its default).
 */
export function optionsOf<T extends object>(
  owner: string,
  options: T | null | undefined,
  known: readonly string[],
): Partial<T> {
  if (options === undefined || options === null) return {};
  if (typeof options !== "object" || Array.isArray(options)) {
    throw new TypeError(`${owner}: options must be an object, got ${show(options)}`);
  }
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      throw new RangeError(`${owner}: unknown option "${key}" (known: ${known.join(", ")})`);
    }
  }
  return options;
}

/**
 * A required number option: a TypeError saying which option is missing (and what it means) when the
 * options or the option are absent, or when it is not a number.
 */
export function requiredNumber(
  owner: string,
  options: object | null | undefined,
  name: string,
  meaning: string,
): number {
  const value = (options as Record<string, unknown> | null | undefined)?.[name];
  if (value === undefined || value === null) {
    throw new TypeError(`${owner}: missing option ${name} (${meaning})`);
  }
  return numberValue(owner, name, value);
}

/** An optional number option: its default when absent, a TypeError when it is not a number. */
export function optionalNumber(owner: string, options: object, name: string, fallback: number): number {
  const value = (options as Record<string, unknown>)[name];
  return value === undefined ? fallback : numberValue(owner, name, value);
}

function numberValue(owner: string, name: string, value: unknown): number {
  if (typeof value !== "number")
    throw new TypeError(`${owner}: ${name} must be a number, got ${show(value)}`);
  return value;
}

/** A value as it appears in a message: strings quoted, numbers as JavaScript prints them. */
export function show(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number" || typeof value === "boolean" || value === null || value === undefined) {
    return String(value);
  }
  return typeof value;
}

export interface NumberRange {
  /** Smallest value allowed (inclusive unless `aboveMin`). */
  min: number;
  /** Largest value allowed (inclusive unless `belowMax`). */
  max: number;
  aboveMin?: boolean;
  belowMax?: boolean;
  integer?: boolean;
  /** Said after the range, e.g. "nothing below 1 ms is simulated". */
  why?: string;
}

/** `value` if it is a number in `range`; otherwise a TypeError or RangeError naming `owner` and `name`. */
export function numberIn(owner: string, name: string, value: unknown, range: NumberRange): number {
  if (typeof value !== "number")
    throw new TypeError(`${owner}: ${name} must be a number, got ${show(value)}`);
  const okMin = range.aboveMin ? value > range.min : value >= range.min;
  const okMax = range.belowMax ? value < range.max : value <= range.max;
  if (okMin && okMax && (!range.integer || Number.isInteger(value))) return value;
  const kind = range.integer ? "an integer" : "a number";
  const why = range.why === undefined ? "" : ` (${range.why})`;
  // A time range up to MAX_TIME_MS reads "a finite number >= 1": its upper end is no one's setting.
  const bounds =
    range.max >= MAX_TIME_MS
      ? `${range.max === MAX_TIME_MS ? "finite " : ""}${kind.replace(/^an? /, "")} ${range.aboveMin ? ">" : ">="} ${range.min}`
      : `${kind.replace(/^an? /, "")} ${range.aboveMin ? "above" : "from"} ${range.min} ${range.belowMax ? "below" : "to"} ${range.max}`;
  const article = /^[aeiou]/.test(bounds) ? "an" : "a";
  throw new RangeError(`${owner}: ${name} must be ${article} ${bounds}${why}, got ${show(value)}`);
}

// The rules a detector class and the library functions of its model share (issue 30, item 6): one
// function each, so that a value the class refuses is refused by the function with the same words.

/** Akka's `require(threshold > 0, …)` (PhiAccrualFailureDetector.scala); NaN and ±Infinity fail it too. */
export function checkAkkaThreshold(threshold: number): number {
  if (!(threshold > 0 && threshold < Number.POSITIVE_INFINITY))
    throw new RangeError(`failure-detector.threshold must be > 0, got ${threshold}`);
  return threshold;
}

/**
 * Akka's `require(minStdDeviation > Duration.Zero, …)`: the deviation φ divides by is floored there, so
 * no deviation φ is evaluated with is 0 or less (nor NaN or ±Infinity, which would make φ NaN).
 */
export function checkAkkaDeviation(stdDeviationMs: number): number {
  if (!(stdDeviationMs > 0 && stdDeviationMs < Number.POSITIVE_INFINITY))
    throw new RangeError(`failure-detector.min-std-deviation must be > 0, got ${stdDeviationMs}`);
  return stdDeviationMs;
}

/** ExponentialPhiDetector's threshold (Cassandra's phi_convict_threshold): a finite number > 0. */
export function checkExponentialThreshold(threshold: number): number {
  if (!(threshold > 0 && threshold < Number.POSITIVE_INFINITY))
    throw new RangeError(`ExponentialPhiDetector: threshold must be a finite number > 0, got ${threshold}`);
  return threshold;
}
