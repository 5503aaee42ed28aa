// A caller's failures told as episodes: one per cause and window, not one per request. An episode
// of a cause opens with its first failure (RequestsFailing) and closes (RequestsRecovered, with its
// counts by outcome and its first and last send times) once no request of that cause has been sent
// for `gap` seconds: QUIET, or the longest a request of the caller can take (its timeout, once per
// attempt) when that is longer, since a caller still waiting out one timeout is inside the failure
// when the next one starts. A trickle (one timeout a few seconds apart from an overloaded pod) is
// one episode; a burst a minute after the first loss is another.

import { elapsed } from "../engine/time.ts";
import type { Trace } from "../trace/events.ts";
import { CAUSES, OUTCOMES } from "./outcomes.ts";

/** Seconds without a failure of a cause that end its episode, at least (the caller's timeout if longer). */
export const QUIET = 3;

/** Outcomes that are failures (timeout, refused, error): OUTCOMES[1..3]. */
const FAILURES = 3;

export class Episodes {
  private readonly open = new Uint8Array(CAUSES.length);
  private readonly first = new Float64Array(CAUSES.length);
  private readonly last = new Float64Array(CAUSES.length);
  /** per cause, its failures by outcome: cause × FAILURES + outcome − 1 */
  private readonly counts = new Float64Array(CAUSES.length * FAILURES);
  /** the causes with an open episode, in the order they opened */
  private readonly order: number[] = [];
  readonly gap: number;

  constructor(
    private readonly trace: Trace,
    private readonly service: string,
    private readonly timeout: number,
    longest: number,
  ) {
    this.gap = Math.max(QUIET, longest);
  }

  /** Some episode is open (a close may tell its end). */
  get anyOpen(): boolean {
    return this.order.length > 0;
  }

  /** A request sent at `sent` failed with `outcome` (1 timeout, 2 refused, 3 error) for `cause`. */
  fail(sent: number, outcome: number, cause: number): void {
    if (!this.open[cause]) {
      this.open[cause] = 1;
      this.first[cause] = sent;
      this.last[cause] = sent;
      this.counts.fill(0, cause * FAILURES, (cause + 1) * FAILURES);
      this.order.push(cause);
      this.trace.emit({
        type: "RequestsFailing",
        lane: "app",
        object: `Service/${this.service}`,
        service: this.service,
        outcome: OUTCOMES[outcome]!,
        cause: CAUSES[cause]!,
        sentAt: sent,
        timeoutSeconds: this.timeout,
      });
    }
    if (sent < this.first[cause]!) this.first[cause] = sent;
    if (sent > this.last[cause]!) this.last[cause] = sent;
    this.counts[cause * FAILURES + outcome - 1]!++;
  }

  /** Close every episode quiet for `gap` seconds by `to` (all of them, `ongoing`, at the end of the run). */
  close(to: number, end = false): void {
    if (this.order.length === 0) return;
    const still: number[] = [];
    for (const cause of this.order) {
      if (!end && elapsed(to, this.last[cause]!) <= this.gap) {
        still.push(cause);
        continue;
      }
      this.open[cause] = 0;
      const at = cause * FAILURES;
      const [timeouts, refused, errors] = [this.counts[at]!, this.counts[at + 1]!, this.counts[at + 2]!];
      this.trace.emit({
        type: "RequestsRecovered",
        lane: "app",
        object: `Service/${this.service}`,
        service: this.service,
        cause: CAUSES[cause]!,
        lost: timeouts + refused + errors,
        timeouts,
        refused,
        errors,
        firstSentAt: this.first[cause]!,
        lastFailureAt: this.last[cause]!,
        quietSeconds: this.gap,
        ...(end && elapsed(to, this.last[cause]!) <= this.gap ? { ongoing: true } : {}),
      });
    }
    this.order.length = 0;
    this.order.push(...still);
  }
}
