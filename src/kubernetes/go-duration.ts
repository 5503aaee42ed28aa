// Go's time.Duration.String() (src/time/time.go), as Kubernetes prints durations in messages:
// "40s", "1m20s", "5m0s", "3m4.25s" (the fraction to the microsecond here, trailing zeros dropped).

/** Go's time.Duration.String() for a duration of 1s or more (shorter ones print as 0s). */
export function goDuration(seconds: number): string {
  const us = Math.round(seconds * 1e6);
  const wholeSeconds = Math.floor(us / 1e6);
  const frac = us % 1e6;
  const sec = `${wholeSeconds % 60}${frac === 0 ? "" : `.${String(frac).padStart(6, "0").replace(/0+$/, "")}`}s`;
  if (wholeSeconds < 60) return sec;
  const m = Math.floor(wholeSeconds / 60);
  if (m < 60) return `${m}m${sec}`;
  return `${Math.floor(m / 60)}h${m % 60}m${sec}`;
}
