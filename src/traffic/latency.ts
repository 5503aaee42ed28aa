// How long callers waited, request by request: from the request's creation (time queued in the
// caller's pool included) until it had its answer (ok, refused, an error) or its caller gave up (a
// timeout). Each request is recorded once, in microseconds: into an HdrHistogram of its caller
// group (hdr-histogram-js, pinned in package.json), the run's percentiles, and into the list of its
// group's send second, whose percentiles (its row's, and the group's p99 of that second) are read
// once no request sent in it can change any more (Latency.close); the lists are then reused, so
// memory follows the longest request, not the run.
//
// Two significant digits: every percentile is within 1% of a recorded value, never below it (HDR
// reports a bucket's highest equivalent value). A second's percentiles are HDR's, worked out from
// its sorted list (hdrAtPercentile below): the same figure as a histogram of the second, at a cost
// that follows the second's requests. A histogram per second cost its whole counts array (3,200
// buckets) to merge and clear each second, so a caller at 20 req/s cost nearly what one at 200 did.
// WebAssembly where the platform compiles the library's module synchronously (Node), its
// JavaScript twin elsewhere (a browser's main thread): the same algorithm, so the same figures.
// The library is loaded at the first histogram (hdr.ts).

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

/**
 * Histograms in the library's JavaScript from here on, never WebAssembly (the same figures). For the
 * audit's fork server: a forked child has none of Node's platform worker threads, and compiling
 * WebAssembly posts V8's compilation jobs to them; a child at 1,000 nodes was seen blocked for good in
 * pthread_cond_signal under NodePlatform::CallOnWorkerThread, from WebAssembly.Module.
 */
export function javaScriptHistograms(): void {
  wasm = false;
}

const US = 1e6;
const SIGNIFICANT_DIGITS = 2;

/** The histograms' settings (hdr-histogram-js's BuildRequest); the test builds its references from them. */
export const HDR_SETTINGS = {
  bitBucketSize: 32,
  numberOfSignificantValueDigits: SIGNIFICANT_DIGITS,
  lowestDiscernibleValue: 1,
  // an hour in µs; larger values grow it
  highestTrackableValue: 3_600 * US,
  autoResize: true,
} as const;

function histogram(): Histogram {
  return hdr().build({ ...HDR_SETTINGS, useWebAssembly: useWasm() });
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

/**
 * HDR's bucket arithmetic for the histograms above (hdr-histogram-js 3.0.1, dist/JsHistogram.js:
 * its constructor, getBucketIndex, getSubBucketIndex, highestEquivalentValue; lowestDiscernibleValue
 * 1, so unitMagnitude 0): a sub-bucket count that resolves 2 × 10^digits values one by one (256 for
 * two digits), and buckets that each double the one before.
 */
const SUB_BUCKET_HALF_MAGNITUDE = Math.ceil(Math.log2(2 * 10 ** SIGNIFICANT_DIGITS)) - 1;

/** The highest value HDR counts together with `value` (µs, a non-negative integer). */
export function highestEquivalent(value: number): number {
  const bucket = Math.max(Math.floor(Math.log2(value)) - SUB_BUCKET_HALF_MAGNITUDE, 0);
  const unit = 2 ** bucket;
  return Math.floor(value / unit) * unit + unit - 1;
}

/**
 * What HdrHistogram's getValueAtPercentile gives for these values (sorted ascending, the first `n`):
 * the bucket of the value at the percentile's count, rounded up as HDR rounds it (getValueAtPercentile
 * in dist/JsHistogram.js, with the ulp of dist/ulp.js), reported as its highest equivalent value.
 * Equal to the histogram's figure because equal buckets hold consecutive sorted values
 * (test/traffic/latency-hdr.test.ts compares the two).
 */
export function hdrAtPercentile(sorted: Float64Array, n: number, percentile: number): number {
  const fp = (Math.min(percentile, 100) / 100) * n;
  const ulp = fp > 0 ? 2 ** (Math.floor(Math.log2(fp)) - 52) : 0;
  const count = Math.max(Math.ceil(fp - ulp), 1);
  return highestEquivalent(sorted[Math.min(count, n) - 1]!);
}

/** A growable list of one send second's latencies (µs), reused once its second is closed. */
class Samples {
  values = new Float64Array(16);
  n = 0;
  /** whether the first n values are in ascending order (sorted() was called since the last push) */
  private inOrder = true;

  push(us: number): void {
    this.inOrder = false;
    if (this.n === this.values.length) {
      const grown = new Float64Array(this.n * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.n++] = us;
  }

  /** The list sorted ascending, in place; sorted once however often it is asked for. */
  sorted(): Float64Array {
    const view = this.values.subarray(0, this.n);
    if (!this.inOrder) view.sort();
    this.inOrder = true;
    return view;
  }

  clear(): void {
    this.n = 0;
    this.inOrder = true;
  }
}

export class Latency {
  /** per group, per send second: the requests recorded so far, until the second is closed */
  private readonly open: (Samples | undefined)[][];
  private readonly totals: Histogram[];
  private readonly spare: Samples[] = [];
  /** a closed second's requests of every group, when more than one sent in it */
  private readonly row = new Samples();
  /** the lists of the second being closed */
  private readonly closing: Samples[] = [];
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
    this.p50 = new Float64Array(seconds).fill(Number.NaN);
    this.p99 = new Float64Array(seconds).fill(Number.NaN);
    this.max = new Float64Array(seconds).fill(Number.NaN);
  }

  /** Group `g`'s request of send second `sec` waited `seconds`. */
  record(g: number, sec: number, seconds: number): void {
    const o = this.open[g]!;
    let list = o[sec];
    if (list === undefined) {
      list = this.spare.pop() ?? new Samples();
      o[sec] = list;
    }
    const us = Math.round(seconds * US);
    list.push(us);
    this.totals[g]!.recordValue(us);
  }

  /**
   * No request sent before second `upTo` can change any more: their rows are final, and `closed`
   * hears each group's p99 of each closed second it sent requests in.
   */
  close(upTo: number, closed?: (g: number, sec: number, p99Ms: number) => void): void {
    const end = Math.min(upTo, this.seconds + 1);
    for (; this.closed < end; this.closed++) {
      const sec = this.closed;
      const lists = this.closing;
      lists.length = 0;
      for (let g = 0; g < this.open.length; g++) {
        const list = this.open[g]![sec];
        if (list === undefined) continue;
        if (closed) closed(g, sec, ms(hdrAtPercentile(list.sorted(), list.n, 99)));
        lists.push(list);
        this.open[g]![sec] = undefined;
      }
      if (lists.length > 0 && sec < this.seconds) this.closeRow(sec, lists);
      for (const list of lists) {
        list.clear();
        this.spare.push(list);
      }
    }
  }

  /** Second `sec`'s row from the lists of the groups that sent in it. */
  private closeRow(sec: number, lists: readonly Samples[]): void {
    let all = lists[0]!;
    if (lists.length > 1) {
      // every group's requests together (a single group's list is the row itself, sorted once)
      all = this.row;
      all.clear();
      for (const list of lists) for (let i = 0; i < list.n; i++) all.push(list.values[i]!);
    }
    const sorted = all.sorted();
    this.p50[sec] = ms(hdrAtPercentile(sorted, all.n, 50));
    this.p99[sec] = ms(hdrAtPercentile(sorted, all.n, 99));
    this.max[sec] = ms(hdrAtPercentile(sorted, all.n, 100));
  }

  /** Every second closed: each group's percentiles and all groups' together; the histograms freed. */
  finish(closed?: (g: number, sec: number, p99Ms: number) => void): {
    groups: (LatencyMs | null)[];
    all: LatencyMs | null;
  } {
    this.close(Number.POSITIVE_INFINITY, closed);
    const groups = this.totals.map(percentiles);
    const all = histogram();
    for (const h of this.totals) all.add(h);
    const allMs = percentiles(all);
    for (const h of [...this.totals, all]) h.destroy();
    return { groups, all: allMs };
  }
}
