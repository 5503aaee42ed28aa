// How the trace writes numbers of seconds in its messages.

/** 10 → "10", 2.5 → "2.5", 51.99512 → "51.995": whole seconds plain, else at most 3 decimals. */
export function fmt(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(3).replace(/0+$/, "").replace(/\.$/, "");
}

/** To the millisecond, for times quoted in messages. */
export function round3(n: number): number {
  return Math.round(n * 1000) / 1000;
}
