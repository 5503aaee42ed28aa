// How an estimate prints its figures: counts with thousands separators, whatever the locale.

/** 1234567 → "1,234,567": fixed, whatever the locale. */
export function count(n: number): string {
  const s = String(Math.round(n));
  return s.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

export function num(n: number): string {
  return Number.isInteger(n) ? count(n) : String(Number(n.toPrecision(3)));
}

export function seconds(s: number): string {
  return `${count(Math.round(s))}s`;
}
