// Random deviates for the simulation and the gap distributions, drawn from the engine's seeded PRNG
// (`src/engine/rng.ts`, sfc32), so that the same seed gives the same run and nothing reads Math.random.

import type { Rng } from "../engine/rng.ts";

/** Standard normal deviate (Box–Muller, one value per call: two uniform draws). */
export function normal(rng: Rng): number {
  let u = rng.float();
  while (u === 0) u = rng.float();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.float());
}

/** Exponential deviate with the given mean (one uniform draw). */
export function exponential(rng: Rng, mean: number): number {
  return -mean * Math.log(1 - rng.float());
}
