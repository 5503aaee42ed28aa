// The trace as the page embeds it: columns per event type, with every string in one shared table. A
// 1,000-node run's trace is mostly Lease renewals, the same dozen keys and a few thousand distinct
// strings repeated: as columns they cost their values only, and gzip (html.ts) finds the rest.
// Browser-safe and pure: the writer packs, the page unpacks, and the two are each other's inverse.

import type { TraceEvent } from "../../../trace/events.ts";
import type { ReportPayload, ReportResult } from "./payload.ts";

/** One event type's events: the keys in first-seen order, and a column per key. */
interface PackedType {
  keys: string[];
  /**
   * per key: "s" indexes into `strings` (-1: absent); "n" numbers and "j" other JSON values (null:
   * absent); "w" values some of which are null, each wrapped as [value] (0: absent); "d" times on the
   * trace's microsecond grid, as whole microseconds each the difference from the one before
   */
  kinds: Kind[];
  cols: unknown[][];
}

export interface PackedEvents {
  strings: string[];
  types: PackedType[];
  /** per event, in order: the index of its type in `types` */
  order: number[];
}

type Kind = "s" | "n" | "j" | "w" | "d";
const MICROS = 1e6;
/**
 * A time the delta column carries exactly: on the microsecond grid the engine quantizes to, and small
 * enough that its microseconds, and the differences, are exact integers.
 */
const onGrid = (v: unknown) =>
  typeof v === "number" && Math.abs(v) < 2 ** 52 / MICROS && Math.round(v * MICROS) / MICROS === v;
const ABSENT_STRING = -1;

/** Rows of objects (events, or pods: one "type" for all) packed by their `type` field. */
export function packEvents(events: readonly object[]): PackedEvents {
  const strings: string[] = [];
  const stringIndex = new Map<string, number>();
  const intern = (s: string) => {
    let i = stringIndex.get(s);
    if (i === undefined) {
      i = strings.length;
      strings.push(s);
      stringIndex.set(s, i);
    }
    return i;
  };
  const byType = new Map<string, { index: number; rows: Record<string, unknown>[]; keys: string[] }>();
  const order: number[] = [];
  for (const e of events) {
    const row = e as Record<string, unknown>;
    const type = String(row.type);
    let g = byType.get(type);
    if (!g) {
      g = { index: byType.size, rows: [], keys: [] };
      byType.set(type, g);
    }
    for (const k of Object.keys(row)) if (row[k] !== undefined && !g.keys.includes(k)) g.keys.push(k);
    g.rows.push(row);
    order.push(g.index);
  }
  const types: PackedType[] = [];
  for (const g of byType.values()) {
    const kinds = g.keys.map((k): Kind => {
      let kind: Kind | undefined;
      for (const r of g.rows) {
        const v = r[k];
        if (v === undefined) continue;
        if (v === null) return "w";
        const here = typeof v === "string" ? "s" : typeof v === "number" && Number.isFinite(v) ? "n" : "j";
        kind = kind === undefined || kind === here ? here : "j";
      }
      // Event times grow in small steps: as differences they are short, and gzip finds them again.
      if (kind === "n" && k === "t" && g.rows.every((r) => onGrid(r[k]))) return "d";
      return kind ?? "j";
    });
    const cols = g.keys.map((k, i) => {
      if (kinds[i] === "d") {
        let last = 0;
        return g.rows.map((r) => {
          const us = Math.round((r[k] as number) * MICROS);
          const d = us - last;
          last = us;
          return d;
        });
      }
      return g.rows.map((r) => {
        const v = r[k];
        if (kinds[i] === "s") return v === undefined ? ABSENT_STRING : intern(v as string);
        if (kinds[i] === "w") return v === undefined ? 0 : [v];
        return v === undefined ? null : v;
      });
    });
    types.push({ keys: g.keys, kinds, cols });
  }
  return { strings, types, order };
}

export function unpackEvents<T = TraceEvent>(p: PackedEvents): T[] {
  const next = p.types.map(() => 0);
  // Running sums of the delta columns, per type and key.
  const sums = p.types.map((ty) => ty.kinds.map(() => 0));
  const out: T[] = new Array(p.order.length);
  for (let i = 0; i < p.order.length; i++) {
    const ti = p.order[i]!;
    const ty = p.types[ti]!;
    const row = next[ti]!++;
    const e: Record<string, unknown> = {};
    for (let k = 0; k < ty.keys.length; k++) {
      const v = ty.cols[k]![row];
      const kind = ty.kinds[k];
      if (kind === "d") {
        const us = sums[ti]![k]! + (v as number);
        sums[ti]![k] = us;
        e[ty.keys[k]!] = us / MICROS;
      } else if (kind === "s") {
        if (v !== ABSENT_STRING) e[ty.keys[k]!] = p.strings[v as number];
      } else if (kind === "w") {
        if (v !== 0) e[ty.keys[k]!] = (v as unknown[])[0];
      } else if (v !== null) e[ty.keys[k]!] = v;
    }
    out[i] = e as T;
  }
  return out;
}

/** A result as the page embeds it: its events packed, and the pods at the start and at the end. */
type WireResult = Omit<ReportResult, "events" | "initial" | "summary"> & {
  packedEvents: PackedEvents;
  initial: Omit<ReportResult["initial"], "pods"> & { pods: PackedEvents };
  summary: Omit<ReportResult["summary"], "pods"> & { pods: PackedEvents };
};

const packResult = (r: ReportResult): WireResult => {
  const { events, ...rest } = r;
  return {
    ...rest,
    initial: { ...r.initial, pods: packEvents(r.initial.pods) },
    summary: { ...r.summary, pods: packEvents(r.summary.pods) },
    packedEvents: packEvents(events),
  };
};
const unpackResult = (r: WireResult): ReportResult => {
  const { packedEvents, ...rest } = r;
  return {
    ...rest,
    initial: { ...r.initial, pods: unpackEvents(r.initial.pods) },
    summary: { ...r.summary, pods: unpackEvents(r.summary.pods) },
    events: unpackEvents(packedEvents),
  } as ReportResult;
};

/** The payload as the page embeds it: every run's events packed (the detector payload as it is). */
export function packPayload(p: ReportPayload): unknown {
  if (p.kind !== "simulate") return p;
  return {
    ...p,
    result: packResult(p.result),
    ...(p.variants
      ? { variants: p.variants.map((v) => (v.result ? { ...v, result: packResult(v.result) } : v)) }
      : {}),
  };
}

export function unpackPayload(wire: unknown): ReportPayload {
  const p = wire as ReportPayload;
  if (p.kind !== "simulate") return p;
  const w = wire as { result: WireResult; variants?: { result?: WireResult }[] };
  return {
    ...p,
    result: unpackResult(w.result),
    ...(p.variants
      ? {
          variants: p.variants.map((v, i) => {
            const r = w.variants![i]!.result;
            return r ? { ...v, result: unpackResult(r) } : v;
          }),
        }
      : {}),
  };
}
