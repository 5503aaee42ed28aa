// A CronJob's schedule in standard cron syntax, as the CronJob controller reads it (robfig/cron/v3
// ParseStandard, which pkg/controller/cronjob/utils.go uses): five fields (minute 0-59, hour 0-23,
// day of month 1-31, month 1-12 or JAN-DEC, day of week 0-6 or SUN-SAT, 7 also Sunday), each `*`,
// a value, a range `a-b`, a list `a,b` and a step `*/n` or `a-b/n`; the descriptors @yearly
// (@annually), @monthly, @weekly, @daily (@midnight) and @hourly. When both day fields are
// restricted, a day matches if either does (robfig/cron dayMatches). Times are UTC.

export interface CronSchedule {
  minutes: Set<number>;
  hours: Set<number>;
  days: Set<number>;
  months: Set<number>;
  weekdays: Set<number>;
  /** the day of month or the day of week was `*` (or `?`): then only the other one restricts */
  anyDay: boolean;
  anyWeekday: boolean;
}

const DESCRIPTORS: Record<string, string> = {
  "@yearly": "0 0 1 1 *",
  "@annually": "0 0 1 1 *",
  "@monthly": "0 0 1 * *",
  "@weekly": "0 0 * * 0",
  "@daily": "0 0 * * *",
  "@midnight": "0 0 * * *",
  "@hourly": "0 * * * *",
};

const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];
const WEEKDAYS = ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"];

/** The schedule, or an error in robfig/cron's words ("expected exactly 5 fields, found 3: …"). */
export function parseCron(text: string): CronSchedule | { error: string } {
  const spec = DESCRIPTORS[text.trim()] ?? text.trim();
  if (spec.startsWith("@every ")) return { error: `${JSON.stringify(text)}: @every is not modelled` };
  if (spec.startsWith("@")) return { error: `unrecognized descriptor: ${spec}` };
  const fields = spec.split(/\s+/).filter((f) => f !== "");
  if (fields.length !== 5) return { error: `expected exactly 5 fields, found ${fields.length}: ${spec}` };
  const [mi, h, d, mo, w] = fields as [string, string, string, string, string];
  try {
    const weekdays = field(w, 0, 7, WEEKDAYS);
    if (weekdays.delete(7)) weekdays.add(0);
    return {
      minutes: field(mi, 0, 59),
      hours: field(h, 0, 23),
      days: field(d, 1, 31),
      months: field(mo, 1, 12, MONTHS, 1),
      weekdays,
      anyDay: d === "*" || d === "?",
      anyWeekday: w === "*" || w === "?",
    };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

function field(text: string, min: number, max: number, names: string[] = [], first = 0): Set<number> {
  const out = new Set<number>();
  for (const part of text.split(",")) {
    const [range = "", stepText] = part.split("/");
    const step = stepText === undefined ? 1 : Number(stepText);
    if (!Number.isInteger(step) || step <= 0) throw new Error(`bad step: ${JSON.stringify(part)}`);
    let lo: number;
    let hi: number;
    if (range === "*" || range === "?") [lo, hi] = [min, max];
    else {
      const [a = "", b] = range.split("-");
      lo = value(a, names, first);
      hi = b === undefined ? (stepText === undefined ? lo : max) : value(b, names, first);
    }
    if (lo < min || hi > max || lo > hi)
      throw new Error(`${JSON.stringify(part)}: beyond the range ${min}-${max}`);
    for (let v = lo; v <= hi; v += step) out.add(v);
  }
  return out;
}

function value(text: string, names: string[], first: number): number {
  const named = names.indexOf(text.toUpperCase());
  if (named >= 0) return named + first;
  if (!/^\d+$/.test(text)) throw new Error(`failed to parse int from ${text}`);
  return Number(text);
}

/**
 * The first scheduled time strictly after `after` (seconds since the Unix epoch), scanning minutes
 * up to `limit`; undefined when none comes before it.
 */
export function nextCronTime(s: CronSchedule, after: number, limit: number): number | undefined {
  let t = (Math.floor(after / 60) + 1) * 60;
  while (t <= limit) {
    const d = new Date(t * 1000);
    if (!s.months.has(d.getUTCMonth() + 1) || !dayMatches(s, d)) {
      // The next day at 00:00.
      t = Math.floor(t / 86_400 + 1) * 86_400;
      continue;
    }
    if (!s.hours.has(d.getUTCHours())) {
      t = Math.floor(t / 3600 + 1) * 3600;
      continue;
    }
    if (s.minutes.has(d.getUTCMinutes())) return t;
    t += 60;
  }
  return undefined;
}

function dayMatches(s: CronSchedule, d: Date): boolean {
  const dom = s.days.has(d.getUTCDate());
  const dow = s.weekdays.has(d.getUTCDay());
  if (s.anyDay || s.anyWeekday) return dom && dow;
  return dom || dow;
}
