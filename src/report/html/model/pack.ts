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
   * absent); "w" values some of which are null, each wrapped as [value] (0: absent)
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

type Kind = "s" | "n" | "j" | "w";
const ABSENT_STRING = -1;

export function packEvents(events: readonly TraceEvent[]): PackedEvents {
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
    let g = byType.get(e.type);
    if (!g) {
      g = { index: byType.size, rows: [], keys: [] };
      byType.set(e.type, g);
    }
    const row = e as unknown as Record<string, unknown>;
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
      return kind ?? "j";
    });
    const cols = g.keys.map((k, i) =>
      g.rows.map((r) => {
        const v = r[k];
        if (kinds[i] === "s") return v === undefined ? ABSENT_STRING : intern(v as string);
        if (kinds[i] === "w") return v === undefined ? 0 : [v];
        return v === undefined ? null : v;
      }),
    );
    types.push({ keys: g.keys, kinds, cols });
  }
  return { strings, types, order };
}

export function unpackEvents(p: PackedEvents): TraceEvent[] {
  const next = p.types.map(() => 0);
  const out: TraceEvent[] = new Array(p.order.length);
  for (let i = 0; i < p.order.length; i++) {
    const ti = p.order[i]!;
    const ty = p.types[ti]!;
    const row = next[ti]!++;
    const e: Record<string, unknown> = {};
    for (let k = 0; k < ty.keys.length; k++) {
      const v = ty.cols[k]![row];
      const kind = ty.kinds[k];
      if (kind === "s") {
        if (v !== ABSENT_STRING) e[ty.keys[k]!] = p.strings[v as number];
      } else if (kind === "w") {
        if (v !== 0) e[ty.keys[k]!] = (v as unknown[])[0];
      } else if (v !== null) e[ty.keys[k]!] = v;
    }
    out[i] = e as unknown as TraceEvent;
  }
  return out;
}

/** A result as the page embeds it: its events packed. */
type WireResult = Omit<ReportResult, "events"> & { packedEvents: PackedEvents };

const packResult = (r: ReportResult): WireResult => {
  const { events, ...rest } = r;
  return { ...rest, packedEvents: packEvents(events) };
};
const unpackResult = (r: WireResult): ReportResult => {
  const { packedEvents, ...rest } = r;
  return { ...rest, events: unpackEvents(packedEvents) } as ReportResult;
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
