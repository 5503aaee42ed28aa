// How long callers waited, request by request: from the request's creation (time queued in the
// caller's pool included) until it had its answer (ok, refused, an error) or its caller gave up (a
// timeout). Each request is recorded once, in microseconds, into an HdrHistogram of its caller
// group and send second (hdr-histogram-js, pinned in package.json); a second's histograms are
// merged into its row's percentiles and into the groups' totals once no request sent in it can
// change any more (Latency.close), then reused, so memory follows the longest request, not the run.
//
// Two significant digits: every percentile is within 1% of a recorded value, never below it (HDR
// reports a bucket's highest equivalent value). WebAssembly where the platform compiles the
// library's module synchronously (Node), its JavaScript twin elsewhere (a browser's main thread):
// the same algorithm, so the same figures. The library is loaded at the first histogram (hdr.ts).

import type { Histogram } from "hdr-histogram-js";
import { hdr } from "./hdr.ts";

/** Compiled on the first histogram, not at import: a run without callers never needs it. */
let wasm: boolean | undefined;
function useWasm(): boolean {
  if (wasm === undefined) {
    try {
      hdr().initWebAssemblySync();
      wasm = true;
    } catch {
      wasm = false;
    }
  }
  return wasm;
}

const US = 1e6;

function histogram(): Histogram {
  return hdr().build({
    bitBucketSize: 32,
    numberOfSignificantValueDigits: 2,
    lowestDiscernibleValue: 1,
    // an hour in µs; larger values grow it
    highestTrackableValue: 3_600 * US,
    autoResize: true,
    useWebAssembly: useWasm(),
  });
}

/** Percentiles of a set of requests' latencies, in milliseconds. */
export interface LatencyMs {
  p50: number;
  p90: number;
  p99: number;
  p999: number;
  max: number;
}

const ms = (us: number) => Math.round(us / 100) / 10;

function percentiles(h: Histogram): LatencyMs | null {
  if (h.totalCount === 0) return null;
  return {
    p50: ms(h.getValueAtPercentile(50)),
    p90: ms(h.getValueAtPercentile(90)),
    p99: ms(h.getValueAtPercentile(99)),
    p999: ms(h.getValueAtPercentile(99.9)),
    max: ms(h.getValueAtPercentile(100)),
  };
}

export class Latency {
  /** per group, per send second: the requests recorded so far, until the second is closed */
  private readonly open: (Histogram | undefined)[][];
  private readonly totals: Histogram[];
  private readonly spare: Histogram[] = [];
  private readonly row: Histogram;
  /** seconds before this one are closed */
  private closed = 0;

  /** Whether close(upTo) would close a second. */
  closes(upTo: number): boolean {
    return this.closed < Math.min(upTo, this.seconds + 1);
  }
  /** per second of send time: p50, p99 and max in ms (NaN: no request) */
  readonly p50: Float64Array;
  readonly p99: Float64Array;
  readonly max: Float64Array;

  constructor(
    groups: number,
    private readonly seconds: number,
  ) {
    this.open = Array.from({ length: groups }, () => []);
    this.totals = Array.from({ length: groups }, histogram);
    this.row = histogram();
    this.p50 = new Float64Array(seconds).fill(Number.NaN);
    this.p99 = new Float64Array(seconds).fill(Number.NaN);
    this.max = new Float64Array(seconds).fill(Number.NaN);
  }

  /** Group `g`'s request of send second `sec` waited `seconds`. */
  record(g: number, sec: number, seconds: number): void {
    const o = this.open[g]!;
    let h = o[sec];
    if (h === undefined) {
      h = this.spare.pop() ?? histogram();
      o[sec] = h;
    }
    h.recordValue(Math.round(seconds * US));
  }

  /**
   * No request sent before second `upTo` can change any more: their rows and totals are final, and
   * `closed` hears each group's p99 of each closed second it sent requests in.
   */
  close(upTo: number, closed?: (g: number, sec: number, p99Ms: number) => void): void {
    const end = Math.min(upTo, this.seconds + 1);
    for (; this.closed < end; this.closed++) {
      const sec = this.closed;
      this.row.reset();
      for (let g = 0; g < this.open.length; g++) {
        const h = this.open[g]![sec];
        if (h === undefined) continue;
        closed?.(g, sec, ms(h.getValueAtPercentile(99)));
        this.row.add(h);
        this.totals[g]!.add(h);
        h.reset();
        this.spare.push(h);
        this.open[g]![sec] = undefined;
      }
      if (this.row.totalCount === 0 || sec >= this.seconds) continue;
      this.p50[sec] = ms(this.row.getValueAtPercentile(50));
      this.p99[sec] = ms(this.row.getValueAtPercentile(99));
      this.max[sec] = ms(this.row.getValueAtPercentile(100));
    }
  }

  /** Every second closed: each group's percentiles and all groups' together; the histograms freed. */
  finish(closed?: (g: number, sec: number, p99Ms: number) => void): {
    groups: (LatencyMs | null)[];
    all: LatencyMs | null;
  } {
    this.close(Number.POSITIVE_INFINITY, closed);
    const groups = this.totals.map(percentiles);
    this.row.reset();
    for (const h of this.totals) this.row.add(h);
    const all = percentiles(this.row);
    for (const h of [...this.totals, ...this.spare, this.row]) h.destroy();
    return { groups, all };
  }
}
