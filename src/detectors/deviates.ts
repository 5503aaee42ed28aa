// Random deviates for the simulation and the gap distributions, drawn from the engine's seeded PRNG
// (`src/engine/rng.ts`, sfc32), so that the same seed gives the same run and nothing reads Math.random.

import type { Rng } from "../engine/rng.ts";
import { MAX_TIME_MS, show } from "./validate.ts";

/** Standard normal deviate (Box–Muller, one value per call: two uniform draws). */
export function normal(rng: Rng): number {
  checkRng("normal", rng);
  let u = rng.float();
  while (u === 0) u = rng.float();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.float());
}

/**
 * Exponential deviate with the given mean (one uniform draw). A mean of 0 gives 0 (the simulation's
 * `networkJitterMs: 0`); a negative or non-finite one is a RangeError, as exponentialGaps' mean gap.
 */
export function exponential(rng: Rng, mean: number): number {
  checkRng("exponential", rng);
  if (!(mean >= 0 && mean <= MAX_TIME_MS))
    throw new RangeError(`exponential: mean must be a finite number >= 0, got ${show(mean)}`);
  return -mean * Math.log(1 - rng.float());
}

function checkRng(owner: string, rng: Rng): void {
  if (typeof rng?.float !== "function")
    throw new TypeError(`${owner}: rng must be an Rng (new Rng(seed)), got ${show(rng)}`);
}
