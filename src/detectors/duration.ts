// Durations as people write them: "1s", "500ms", "1m30s", "1.5s", "2h", or a bare number of milliseconds.

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Parse a duration to milliseconds; throws RangeError with a one-line message on bad input. */
export function parseDuration(text: string): number {
  const s = text.trim();
  if (/^\d+(\.\d+)?$/.test(s)) return Number(s);
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/gy;
  let total = 0;
  let matched = 0;
  let m: RegExpExecArray | null = re.exec(s);
  while (m !== null) {
    total += Number(m[1]) * UNITS[m[2]!]!;
    matched = re.lastIndex;
    m = re.exec(s);
  }
  if (s.length === 0 || matched !== s.length) {
    throw new RangeError(`invalid duration "${text}" (use e.g. 500ms, 1s, 1m30s)`);
  }
  return total;
}

/** Format milliseconds compactly: 950ms, 4.61s, 2m05s, 1h10m. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return ms > 0 ? "∞" : ms < 0 ? "-∞" : "NaN";
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
