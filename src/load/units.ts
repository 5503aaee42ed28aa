// Units in the user's files: Go-style durations (time.ParseDuration) and Kubernetes quantities
// (k8s.io/apimachinery/pkg/api/resource). Pure functions; they throw UnitError with the reason.

export class UnitError extends Error {}

/** The one duration formatter (engine/time.ts), re-exported for the loader's readers. */
export { formatDuration } from "../engine/time.ts";

const DURATION_UNITS_NS: Record<string, number> = {
  ns: 1,
  us: 1e3,
  µs: 1e3, // U+00B5 micro sign, as Go accepts
  μs: 1e3, // U+03BC Greek mu, as Go accepts
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
};

const DURATION_TERM = /(\d*)(?:\.(\d*))?([a-zµμ]+)/y;

/**
 * Seconds from a Go-style duration ("1m30s", "500ms", "2h", "-1.5h", "0") or a number of seconds
 * (a number, or a string holding only a decimal number). Negative values are returned as they are;
 * callers decide whether a sign is allowed.
 */
export function parseDuration(text: string | number): number {
  if (typeof text === "number") {
    if (!Number.isFinite(text)) throw new UnitError(`${text} is not a finite number of seconds`);
    return text;
  }
  const s = text.trim();
  if (/^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(s)) return Number(s);
  let i = 0;
  let sign = 1;
  if (s[0] === "-" || s[0] === "+") {
    sign = s[0] === "-" ? -1 : 1;
    i = 1;
  }
  if (i >= s.length) throw new UnitError("empty duration");
  let ns = 0;
  while (i < s.length) {
    DURATION_TERM.lastIndex = i;
    const m = DURATION_TERM.exec(s);
    if (!m || m.index !== i) throw new UnitError("not a duration");
    const [, whole = "", frac = "", unit = ""] = m;
    if (whole === "" && frac === "") throw new UnitError("not a duration");
    const scale = DURATION_UNITS_NS[unit];
    if (scale === undefined) throw new UnitError(`unknown unit "${unit}"`);
    ns += Number(whole || "0") * scale;
    if (frac) ns += (Number(frac) * scale) / 10 ** frac.length;
    i = DURATION_TERM.lastIndex;
  }
  // One division at the end keeps "500ms" exactly 0.5 and "100ms" the double nearest 0.1.
  return (sign * ns) / 1e9;
}

const QUANTITY = /^([+-]?)(\d+(?:\.\d*)?|\.\d+)(?:([eE][+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|m|k|M|G|T|P|E))?$/;

const QUANTITY_SUFFIX: Record<string, number> = {
  "": 1,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

/**
 * The value of a Kubernetes quantity: "500m" → 0.5, "4" → 4, "16Gi" → 17179869184, "1G" → 1e9,
 * "129e6" → 129000000. A number is taken as it is. "16GB" and "16 Gi" are not quantities.
 */
export function parseQuantity(text: string | number): number {
  if (typeof text === "number") {
    if (!Number.isFinite(text)) throw new UnitError(`${text} is not a finite quantity`);
    return text;
  }
  const m = QUANTITY.exec(text);
  if (!m) throw new UnitError("not a quantity");
  const [, sign = "", digits = "", exponent, suffix = ""] = m;
  const base = Number(digits) * (sign === "-" ? -1 : 1);
  if (exponent) return base * 10 ** Number(exponent.slice(1));
  const mult = QUANTITY_SUFFIX[suffix]!;
  // Multiply milli by dividing so "500m" is exactly 0.5.
  return suffix === "m" ? base / 1000 : base * mult;
}
