// The system default spreading's zone term (scores.ts) sums a workload's pods per zone over the
// nodes that passed the filters. When those are a stretch of the node list (cycle.ts takeAll), the
// sums come from blocks here: per workload, its pods per zone in each run of 64 positions of the
// list, kept write by write, so a stretch of 500 nodes reads 7 blocks and the nodes at its two ends
// instead of 500 nodes. The sums are of whole numbers, exact in any order: the same as node by node.

/** Pods per node (row) of one workload; 16 bits until a node holds more than 65,535 of them. */
export type Counts = Uint16Array | Int32Array;

/** Positions per block. */
const BLOCK = 64;

/** What the blocks read of the scheduler cache. */
export interface ZoneView {
  /** zone id per row, or -1 */
  readonly zone: Int32Array;
  /** position of each row in the node list, or -1 */
  readonly positionOf: Int32Array;
  readonly zones: readonly string[];
  /** the rows of the node list, by position */
  nodeRows(): { rows: Int32Array; n: number };
  workloads(): Iterable<[string, Counts]>;
}

export class ZoneBlocks {
  private readonly blocks = new Map<string, Int32Array>();
  private zones = 0;
  private length = 0;
  /** the list, a row's zone or the zones changed since the blocks were made: made again when read */
  private stale = true;

  constructor(private readonly view: ZoneView) {}

  invalidate(): void {
    this.stale = true;
  }

  /** The workload `owner` has `delta` more pods on `row`. */
  add(owner: string, row: number, delta: number): void {
    if (this.stale) return;
    const at = this.view.positionOf[row]!;
    const z = this.view.zone[row]!;
    if (at < 0 || z < 0) return;
    let b = this.blocks.get(owner);
    if (!b) {
      b = new Int32Array(this.length);
      this.blocks.set(owner, b);
    }
    b[Math.trunc(at / BLOCK) * this.zones + z]! += delta;
  }

  /**
   * Adds to `out` (per zone id) the pods `own` of `owner` on the nodes at positions [from, to) of the
   * list, whose rows are `rows`.
   */
  sum(owner: string, own: Counts, rows: Int32Array, from: number, to: number, out: Float64Array): void {
    if (this.stale) this.make();
    const zone = this.view.zone;
    const zones = this.zones;
    const b = this.blocks.get(owner);
    // the nodes before the first whole block, the whole blocks, the nodes after the last
    const head = b ? Math.min(to, Math.ceil(from / BLOCK) * BLOCK) : to;
    const tail = b ? Math.max(head, Math.floor(to / BLOCK) * BLOCK) : to;
    for (let p = from; p < head; p++) {
      const z = zone[rows[p]!]!;
      if (z >= 0) out[z]! += own[rows[p]!]!;
    }
    for (let p = head; p < tail; p += BLOCK) {
      const first = (p / BLOCK) * zones;
      for (let z = 0; z < zones; z++) out[z]! += b![first + z]!;
    }
    for (let p = tail; p < to; p++) {
      const z = zone[rows[p]!]!;
      if (z >= 0) out[z]! += own[rows[p]!]!;
    }
  }

  private make(): void {
    const { rows, n } = this.view.nodeRows();
    const zone = this.view.zone;
    this.zones = this.view.zones.length;
    this.length = Math.ceil(n / BLOCK) * this.zones;
    this.blocks.clear();
    for (const [owner, own] of this.view.workloads()) {
      const b = new Int32Array(this.length);
      for (let p = 0; p < n; p++) {
        const row = rows[p]!;
        const z = zone[row]!;
        if (z >= 0) b[Math.trunc(p / BLOCK) * this.zones + z]! += own[row]!;
      }
      this.blocks.set(owner, b);
    }
    this.stale = false;
  }
}
