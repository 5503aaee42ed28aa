// CrashLoopBackOff: the per-container back-off the kubelet keeps between restarts.
//
// The algorithm is client-go's flowcontrol.Backoff (staging/src/k8s.io/client-go/util/flowcontrol/
// backoff.go) as the kubelet configures it (pkg/kubelet/kubelet.go newCrashLoopBackOff): 10s
// initial, doubling to a 300s cap, and an entry that expires when the event it is asked about comes
// more than 600s after its last update (HasExpiredFunc, ≈1.33+; the library's own 2 × max is also
// 600s at the default cap). The constants, with the feature-gated ones, are in
// kubernetes/defaults.ts.
//
// Times are compared on the engine's microsecond grid (engine/time.ts `elapsed`): a retry scheduled
// at exactly eventTime + backoff finds the back-off over, whatever the floating-point sum says
// (`t - exitAt < backoff` true again by rounding made the retry reschedule itself forever).

import { elapsed } from "../engine/time.ts";
import {
  CRASH_LOOP_BACKOFF_INITIAL,
  CRASH_LOOP_BACKOFF_MAX,
  CRASH_LOOP_BACKOFF_RESET,
} from "../kubernetes/defaults.ts";

interface Entry {
  backoff: number;
  lastUpdate: number;
}

export class Backoff {
  private readonly entries = new Map<string, Entry>();

  constructor(
    readonly initial = CRASH_LOOP_BACKOFF_INITIAL,
    readonly max = CRASH_LOOP_BACKOFF_MAX,
    readonly expiry = CRASH_LOOP_BACKOFF_RESET,
  ) {}

  private live(key: string, eventTime: number): Entry | undefined {
    const e = this.entries.get(key);
    return e && elapsed(eventTime, e.lastUpdate) <= this.expiry ? e : undefined;
  }

  /** IsInBackOffSince: is `now` still within the back-off counted from `eventTime` (the last exit)? */
  isInBackOffSince(key: string, eventTime: number, now: number): boolean {
    const e = this.live(key, eventTime);
    return e !== undefined && elapsed(now, eventTime) < e.backoff;
  }

  /** When the back-off counted from `eventTime` ends (eventTime + backoff), if one applies. */
  backOffUntil(key: string, eventTime: number): number | undefined {
    const e = this.live(key, eventTime);
    return e ? eventTime + e.backoff : undefined;
  }

  /** The current back-off of a key, for messages. */
  get(key: string): number {
    return this.entries.get(key)?.backoff ?? 0;
  }

  /** Next: start at `initial` (no entry, or expired relative to eventTime) or double up to `max`. */
  next(key: string, eventTime: number, now: number): number {
    const e = this.live(key, eventTime);
    const backoff = e ? Math.min(e.backoff * 2, this.max) : this.initial;
    this.entries.set(key, { backoff, lastUpdate: now });
    return backoff;
  }

  /** Was the entry reset (expired) relative to this event? For the "why". */
  expired(key: string, eventTime: number): boolean {
    return this.entries.has(key) && this.live(key, eventTime) === undefined;
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
