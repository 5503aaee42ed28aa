// A caller's retry budget, as Linkerd's (and Finagle's RetryBudget) works: retries in the last 10
// seconds may not exceed max(ratio × requests, minRetriesPerSecond × 10). Counted per second of
// send time.

import type { RetryBudgetSpec } from "../scenario/types.ts";

/** The 10s window the budget counts over (Linkerd's default ttl). */
const WINDOW_SECONDS = 10;

export class RetryBudget {
  private readonly requests: Int32Array;
  private readonly retries: Int32Array;

  constructor(
    private readonly spec: RetryBudgetSpec,
    seconds: number,
  ) {
    this.requests = new Int32Array(seconds + 1);
    this.retries = new Int32Array(seconds + 1);
  }

  /** A request was sent in second `sec`. */
  request(sec: number): void {
    this.requests[sec]!++;
  }

  /** A retry was sent in second `sec`. */
  retry(sec: number): void {
    this.retries[sec]!++;
  }

  /** May a request sent in second `sec` be retried? */
  allows(sec: number): boolean {
    let req = 0;
    let ret = 0;
    for (let s = Math.max(0, sec - (WINDOW_SECONDS - 1)); s <= sec; s++) {
      req += this.requests[s]!;
      ret += this.retries[s]!;
    }
    return ret < Math.max(this.spec.ratio * req, this.spec.minRetriesPerSecond * WINDOW_SECONDS);
  }
}
