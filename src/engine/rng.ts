// A seeded pseudo-random generator (sfc32, Chris Doty-Humphrey's "small fast counter"), so the
// same scenario and seed give the same run. Models draw from it instead of Math.random.

/** sfc32's four words. */
export type RngState = readonly [number, number, number, number];

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /** With `state`, the generator starts in it (Rng.at) and the seed is not read. */
  constructor(seed: number, state?: RngState) {
    if (state) {
      [this.a, this.b, this.c, this.d] = state;
      return;
    }
    // Spread the seed over the state with splitmix32, then warm up as sfc32's reference does.
    let s = seed >>> 0;
    const next = (): number => {
      s = (s + 0x9e3779b9) >>> 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = 1;
    for (let i = 0; i < 12; i++) this.uint32();
  }

  uint32(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0;
    this.c = (this.c + t) >>> 0;
    return t;
  }

  /** A float in [0, 1). */
  float(): number {
    return this.uint32() / 4294967296;
  }

  /** A float in [lo, hi). */
  uniform(lo: number, hi: number): number {
    return lo + (hi - lo) * this.float();
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.float() * n);
  }

  /** The generator's state, plain numbers: `Rng.at(state)` draws what this one draws next. */
  state(): RngState {
    return [this.a, this.b, this.c, this.d];
  }

  /** A generator in a state taken by `state()` (a schedule replayed, e.g. a Lease's renewals). */
  static at(state: RngState): Rng {
    // Not seeded first: seeding draws 15 words that the state then overwrites.
    return new Rng(0, state);
  }

  /** An independent generator for one component, so adding draws in one model does not shift another. */
  fork(label: string): Rng {
    let h = 0x811c9dc5;
    for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 0x01000193);
    return new Rng((this.uint32() ^ h) >>> 0);
  }
}
