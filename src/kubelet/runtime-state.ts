// The container runtime (containerd, CRI-O) as the kubelet sees it (pkg/kubelet/runtime.go
// runtimeState, kubelet.go updateRuntimeUp, pkg/kubelet/pleg/generic.go Healthy): when the runtime
// stops, the kubelet's periodic Status call and the PLEG's relist fail, and once they have failed
// long enough runtimeErrors says so. Those errors make the kubelet post Ready=False (setters.go
// ReadyCondition) and make its syncLoop skip pod synchronization; the containers themselves keep
// running (their shims outlive the runtime daemon). The Lease is renewed as before.

import type { Engine, Timer } from "../engine/engine.ts";
import type { Rng } from "../engine/rng.ts";
import {
  MAX_WAIT_FOR_CONTAINER_RUNTIME,
  PLEG_RELIST_PERIOD,
  PLEG_RELIST_THRESHOLD,
  RUNTIME_UP_PERIOD,
} from "../kubernetes/defaults.ts";
import { goDuration } from "../kubernetes/go-duration.ts";
import type { RuntimeErrors } from "../trace/node-events.ts";

/** What the runtime state needs from its kubelet. */
export interface RuntimeStateHost {
  readonly engine: Engine;
  /** the kubelet's random source (the phases of its runtime and PLEG loops) */
  readonly rng: Rng;
  /** runtimeErrors changed (began, grew, or cleared) */
  changed(): void;
}

export class RuntimeState {
  /** the runtime daemon answers */
  up = true;
  /** updateRuntimeUp's last success (lastBaseRuntimeSync); undefined: none since the kubelet started */
  private lastSync: number | undefined;
  /** the PLEG's last successful relist; undefined: none since the kubelet started */
  private lastRelist: number | undefined;
  /** a time on the updateRuntimeUp loop's 5s lattice, and on the PLEG's 1s one */
  private syncPhase = 0;
  private relistPhase = 0;
  /** the kubelet process runs its loops */
  private running = true;
  private timers: Timer[] = [];
  /** runs of the two loops still to succeed after the runtime came back */
  private recovering = 0;

  constructor(private readonly host: RuntimeStateHost) {}

  /** The runtime stops answering: the loops' last successes stay where they were. */
  stop(): void {
    if (!this.up) return;
    this.up = false;
    if (!this.running) return;
    const now = this.host.engine.now;
    // Both loops have been running for a while: their last success falls anywhere in one period.
    this.lastSync = now - this.host.rng.uniform(0, RUNTIME_UP_PERIOD);
    this.lastRelist = now - this.host.rng.uniform(0, PLEG_RELIST_PERIOD);
    this.syncPhase = this.lastSync;
    this.relistPhase = this.lastRelist;
    this.watchErrors();
  }

  /** The runtime answers again: the next run of each loop succeeds. */
  start(): void {
    if (this.up) return;
    this.up = true;
    if (!this.running) return;
    this.clearTimers();
    const now = this.host.engine.now;
    const next = (phase: number, period: number) => phase + Math.ceil((now - phase) / period) * period;
    this.recovering = 2;
    this.timers.push(
      this.host.engine.at(next(this.syncPhase, RUNTIME_UP_PERIOD), () => {
        this.lastSync = this.host.engine.now;
        this.recovering--;
        this.host.changed();
      }),
      this.host.engine.at(next(this.relistPhase, PLEG_RELIST_PERIOD), () => {
        this.lastRelist = this.host.engine.now;
        this.recovering--;
        this.host.changed();
      }),
    );
  }

  /** The kubelet process stops: its loops with it. */
  kubeletStopped(): void {
    this.running = false;
    this.clearTimers();
  }

  /**
   * A kubelet process starts: its loops start with it (wait.Until runs at once). With the runtime up
   * they succeed at once; with it down they never have: both errors hold from the start.
   */
  kubeletStarted(): void {
    this.running = true;
    this.clearTimers();
    const now = this.host.engine.now;
    this.syncPhase = now;
    this.relistPhase = now;
    this.lastSync = this.up ? now : undefined;
    this.lastRelist = this.up ? now : undefined;
  }

  /** The machine boots: the runtime daemon starts with it. */
  reset(): void {
    this.up = true;
    this.clearTimers();
  }

  /**
   * runtimeErrors now (runtime.go): "container runtime is down" once the last successful Status call
   * is maxWaitForContainerRuntime old (`!lastBaseRuntimeSync.Add(threshold).After(now)`), and the
   * PLEG health check once the last relist is more than relistThreshold old; undefined when none.
   */
  errors(): RuntimeErrors | undefined {
    if (!this.running || (this.up && this.recovering === 0)) return undefined;
    const now = this.host.engine.now;
    const errs: string[] = [];
    let runtimeDown = false;
    if (this.lastSync === undefined) {
      errs.push("container runtime status check may not have completed yet");
      runtimeDown = true;
    } else if (!(this.lastSync + MAX_WAIT_FOR_CONTAINER_RUNTIME > now)) {
      errs.push("container runtime is down");
      runtimeDown = true;
    }
    let plegUnhealthy = false;
    if (this.lastRelist === undefined) {
      errs.push("PLEG is not healthy: pleg has yet to be successful");
      plegUnhealthy = true;
    } else if (now - this.lastRelist > PLEG_RELIST_THRESHOLD) {
      errs.push(
        `PLEG is not healthy: pleg was last seen active ${goDuration(now - this.lastRelist)} ago; threshold is ${goDuration(PLEG_RELIST_THRESHOLD)}`,
      );
      plegUnhealthy = true;
    }
    if (errs.length === 0) return undefined;
    return {
      // utilerrors.NewAggregate(...).Error(): one error as it is, several as "[a, b]".
      message: errs.length === 1 ? errs[0]! : `[${errs.join(", ")}]`,
      ...(runtimeDown && this.lastSync !== undefined ? { lastRuntimeSync: this.lastSync } : {}),
      ...(plegUnhealthy
        ? { pleg: this.lastRelist === undefined ? {} : { lastRelist: this.lastRelist } }
        : {}),
    };
  }

  /** Tell the kubelet when each error begins: the runtime's after 30s, the PLEG's after 3m. */
  private watchErrors(): void {
    this.clearTimers();
    const engine = this.host.engine;
    this.timers.push(
      engine.at(Math.max(engine.now, this.lastSync! + MAX_WAIT_FOR_CONTAINER_RUNTIME), () =>
        this.host.changed(),
      ),
      // Strictly after the threshold (elapsed > relistThreshold): the first status-loop run after it.
      engine.at(Math.max(engine.now, this.lastRelist! + PLEG_RELIST_THRESHOLD), () => this.host.changed()),
    );
  }

  private clearTimers(): void {
    for (const t of this.timers) this.host.engine.cancel(t);
    this.timers = [];
    this.recovering = 0;
  }
}
