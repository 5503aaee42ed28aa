// How the detector commands print figures: durations in milliseconds as 950ms / 4.61s / 2m05s / 1h10m (three
// significant digits), counts and rates with thousands separators, JSON with ±Infinity and NaN spelled out
// as strings (JSON has no number for them). A figure that is not finite is printed with the reason why.

/** Milliseconds, compactly: 950ms, 4.61s, 2m05s, 1h10m. */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return ms > 0 ? "∞" : ms < 0 ? "-∞" : "undefined";
  const a = Math.abs(ms);
  const sign = ms < 0 ? "-" : "";
  if (a < 1000) return `${sign}${Number(a.toPrecision(3))}ms`;
  if (a < 60_000) return `${sign}${Number((a / 1000).toPrecision(3))}s`;
  if (a < 3_600_000) {
    let m = Math.floor(a / 60_000);
    let sec = Math.round((a - m * 60_000) / 1000);
    if (sec === 60) {
      m++;
      sec = 0;
    }
    return `${sign}${m}m${String(sec).padStart(2, "0")}s`;
  }
  const h = Math.floor(a / 3_600_000);
  const min = Math.round((a - h * 3_600_000) / 60_000);
  return `${sign}${h}h${String(min).padStart(2, "0")}m`;
}

/** A count or rate: 1,234 above a thousand, 3 significant digits below, 1.2e-5 for tiny values. */
export function num(v: number, digits = 3): string {
  if (!Number.isFinite(v)) return v > 0 ? "∞" : v < 0 ? "-∞" : "undefined";
  if (v === 0) return "0";
  if (Math.abs(v) >= 1000) return Math.round(v).toLocaleString("en-US");
  if (Math.abs(v) < 0.001) return v.toExponential(2);
  return String(Number(v.toPrecision(digits)));
}

/** `text` when `v` is finite; otherwise "∞" or "undefined" followed by why, in parentheses. */
export function withReason(v: number, text: string, why: string): string {
  return Number.isFinite(v) ? text : `${v > 0 ? "∞" : v < 0 ? "-∞" : "undefined"} (${why})`;
}

/** JSON, indented, with ±Infinity and NaN written as the strings "Infinity", "-Infinity" and "NaN". */
export function toJson(value: unknown): string {
  return `${JSON.stringify(
    value,
    (_k, v: unknown) => (typeof v === "number" && !Number.isFinite(v) ? String(v) : v),
    2,
  )}\n`;
}
