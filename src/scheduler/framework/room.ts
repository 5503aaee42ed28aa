// What the nodes have room for, by their position in the node list (the order the filters walk
// them in): a segment tree of minimums, so that the walk can tell in a few steps that every node
// of a stretch passes the filters of a pod with nothing but requests (cycle.ts), instead of
// checking the nodes one by one and finding each passes.
//
// Per position it keeps the two numbers the walk's own test reads (cycle.ts walk):
// - cpu: the millicores left (allocatable − requested), or −∞ when the node is cordoned, has a
//   NoSchedule/NoExecute taint or no room for one more pod (and for NaN, which no request passes);
//   `cpu ≥ request` is then the walk's test on those four, a request being never NaN (a sum of
//   rounded quantities, which the loader takes finite and ≥ 0, load/check.ts quantity);
// - memory: the bytes left, or −∞ when what the node holds or has is not a whole number of bytes
//   below 2^53 (or +∞ when it gives none). For whole numbers there the subtraction is exact, so
//   `request ≤ left` answers `requested + request ≤ allocatable` as the walk computes it, for a
//   request of whole bytes too (the walk asks the room about no other, cycle.ts); otherwise the
//   walk decides.

export class Room {
  /** leaves: a power of two, at least the positions */
  private leaves = 1;
  private cpu = new Float64Array(2);
  private memory = new Float64Array(2);

  /** Room for `n` positions, each with none until set. */
  reset(n: number): void {
    let leaves = 1;
    while (leaves < n) leaves *= 2;
    if (leaves !== this.leaves) {
      this.leaves = leaves;
      this.cpu = new Float64Array(2 * leaves);
      this.memory = new Float64Array(2 * leaves);
    }
    this.cpu.fill(Number.NEGATIVE_INFINITY);
    this.memory.fill(Number.NEGATIVE_INFINITY);
  }

  set(position: number, cpu: number, memory: number): void {
    let i = this.leaves + position;
    const c = this.cpu;
    const m = this.memory;
    if (c[i] === cpu && m[i] === memory) return;
    c[i] = cpu;
    m[i] = memory;
    // up to the first minimum that stays as it was: those above it stay too
    for (i >>= 1; i >= 1; i >>= 1) {
      const cpuMin = Math.min(c[2 * i]!, c[2 * i + 1]!);
      const memoryMin = Math.min(m[2 * i]!, m[2 * i + 1]!);
      if (c[i] === cpuMin && m[i] === memoryMin) return;
      c[i] = cpuMin;
      m[i] = memoryMin;
    }
  }

  /** A position's numbers before `build`: the whole list at once costs one pass, not one per node. */
  load(position: number, cpu: number, memory: number): void {
    this.cpu[this.leaves + position] = cpu;
    this.memory[this.leaves + position] = memory;
  }

  build(): void {
    const c = this.cpu;
    const m = this.memory;
    for (let i = this.leaves - 1; i >= 1; i--) {
      c[i] = Math.min(c[2 * i]!, c[2 * i + 1]!);
      m[i] = Math.min(m[2 * i]!, m[2 * i + 1]!);
    }
  }

  /** Whether every position of [from, to) has at least `cpu` millicores and `memory` bytes left. */
  fits(from: number, to: number, cpu: number, memory: number): boolean {
    const c = this.cpu;
    const m = this.memory;
    let lo = from + this.leaves;
    let hi = to + this.leaves;
    while (lo < hi) {
      if (lo & 1) {
        if (c[lo]! < cpu || m[lo]! < memory) return false;
        lo++;
      }
      if (hi & 1) {
        hi--;
        if (c[hi]! < cpu || m[hi]! < memory) return false;
      }
      lo >>= 1;
      hi >>= 1;
    }
    return true;
  }
}

/** A whole number of bytes in [0, 2^53): sums and differences of two of them are exact. */
export function wholeBytes(bytes: number): boolean {
  return Number.isSafeInteger(bytes) && bytes >= 0;
}

/** The memory number of `Room` for a node holding `requested` bytes of `allocatable`. */
export function memoryLeft(requested: number, allocatable: number): number {
  if (!wholeBytes(requested)) return Number.NEGATIVE_INFINITY;
  if (allocatable === Number.POSITIVE_INFINITY) return allocatable;
  return wholeBytes(allocatable) ? allocatable - requested : Number.NEGATIVE_INFINITY;
}
