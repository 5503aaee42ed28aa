// One container's kill as it runs (pkg/kubelet/kuberuntime/kuberuntime_container.go killContainer):
// the preStop hook, waited for at most the grace period (executePreStopHook selects on
// time.After(gracePeriod) and returns int64 of the seconds it waited); what is left, at least
// minimumGracePeriodInSeconds (2s), is StopContainer's timeout: SIGTERM, and SIGKILL when it runs
// out. The kubelet's two clocks run whatever the process does; what the process does decides only
// whether it gets there first. So a change to the process while the kill is under way (a deadlock,
// a recovery) re-plans the rest of the kill from that moment:
// - a hung process makes no progress: an httpGet hook (served by the process itself) gets no
//   answer and is waited for until the grace period runs out; after SIGTERM it never finishes its
//   shutdown and is SIGKILLed when StopContainer's timeout runs out (exit code 137);
// - a process that recovers carries on where it stopped: the rest of its httpGet hook's answer, the
//   rest of its behaviour.shutdownSeconds (faultline's assumption: the work is resumed, not redone);
// - a sleep action (runSleepHandler's own timer) and an exec hook (a new process in the container)
//   run beside the process: a hang changes neither;
// - a process that exits by itself (a crash, exitAfterSeconds) ends its kill then (pod-worker.ts).

import type { Engine, Timer } from "../engine/engine.ts";
import { elapsed } from "../engine/time.ts";
import { MINIMUM_GRACE_PERIOD } from "../kubernetes/defaults.ts";
import type { PreStopRun } from "../trace/node-events.ts";
import type { ContainerRun, RunningKill } from "./runtime.ts";

/** A container's preStop hook and how long it takes left alone (PreStopRun without the kill's figures). */
export type PreStopHook = Omit<PreStopRun, "container" | "ranSeconds" | "graceLeftSeconds">;

/** One container's kill, from its start to the process's exit. */
export interface KillPlan {
  /** the hook as it ran, if the container has one */
  preStop?: PreStopRun;
  /** StopContainer's grace period: what the hook left, at least minimumGracePeriodInSeconds */
  stopGrace: number;
  /** seconds from the kill's start to SIGTERM (the hook's run) */
  sigtermAfter: number;
  /** seconds from the kill's start to the exit */
  exitAfter: number;
  signal: "SIGTERM" | "SIGKILL";
  /** the process exited by itself during its kill (a crash, exitAfterSeconds): the kill ended with it */
  ownExit?: true;
}

/** StopContainer's timeout after a hook that ran `ran` seconds of `grace`: the rest in whole seconds, at least 2s. */
export function stopGraceAfter(grace: number, ran: number): number {
  return Math.max(MINIMUM_GRACE_PERIOD, grace - Math.floor(ran));
}

/**
 * A sidecar's turn at a pod's termination (kuberuntime_termination_order.go waitForTurn): after its
 * preStop hook, SIGTERM waits until the containers before it in the termination order have exited,
 * or the grace period left runs out; the whole seconds waited come off StopContainer's grace.
 */
export interface KillTurn {
  /** every container this one waits for has exited */
  ready(): boolean;
  /** call `then` once ready (not at all if the kill is over first) */
  wait(then: () => void): void;
}

/** What a running kill needs: the clock, and where the hook's end is announced. */
export interface KillCourseEnv {
  readonly engine: Engine;
  /** the hook ended (or was given up) and SIGTERM follows */
  hookDone(preStop: PreStopRun): void;
  /** the process is gone: exited after SIGTERM, or SIGKILLed */
  exit(plan: KillPlan): void;
}

export class KillCourse implements RunningKill {
  private readonly start: number;
  /** the hook runs until it ends or the grace period runs out; undefined once SIGTERM is sent */
  private hook: PreStopHook | undefined;
  /** the process itself serves the hook (httpGet): a hang stops it */
  private readonly served: boolean;
  /** seconds of the process's own work left (the httpGet hook's answer, then its shutdown), as of `since` */
  private work: number;
  private since: number;
  private hung: boolean;
  private sigtermAt = Number.NaN;
  private stopGrace = Number.NaN;
  private preStop: PreStopRun | undefined;
  private timer: Timer | undefined;
  /** a probe kill's instant steps run in its SyncPod, at once; a deletion's in the pod worker's turn */
  private sync: boolean;
  /** the grace period the hook left (gracePeriod after executePreStopHook), for the turn's wait */
  private graceLeft = Number.NaN;
  /** the sidecar waits for its turn (waitForTurn) since this time; NaN when it does not */
  private waitingSince = Number.NaN;

  constructor(
    private readonly env: KillCourseEnv,
    private readonly c: ContainerRun,
    private readonly grace: number,
    hook: PreStopHook | undefined,
    probeKill: boolean,
    private readonly turn?: KillTurn,
  ) {
    this.start = env.engine.now;
    this.hung = c.hung;
    this.since = this.start;
    // The kubelet runs no hook with a grace period of 0 ("gracePeriod > 0").
    this.hook = grace > 0 ? hook : undefined;
    this.served = this.hook?.handler === "httpGet";
    this.work = this.served ? this.hook!.seconds : 0;
    this.sync = probeKill;
  }

  /** Run the hook, or send SIGTERM at once; a probe kill's instant steps run now (the container's `kill` set first). */
  begin(): void {
    if (this.hook) this.schedule(this.hookEnd(), () => this.sigterm());
    else this.sigterm();
    this.sync = false;
  }

  /** c.hung changed: count the work done until now, then plan the rest. */
  processChanged(): void {
    if (this.c.hung === this.hung) return;
    const now = this.env.engine.now;
    if (!this.hung) this.work = Math.max(0, this.work - elapsed(now, this.since));
    this.hung = this.c.hung;
    this.since = now;
    if (this.hook) {
      if (this.served) this.schedule(this.hookEnd(), () => this.sigterm());
    } else if (!Number.isNaN(this.sigtermAt)) this.scheduleExit();
  }

  cancel(): void {
    this.env.engine.cancel(this.timer);
    this.timer = undefined;
    this.waitingSince = Number.NaN;
  }

  /** When the hook ends: its own time, or the grace period's end (time.After), or never while a served hook's process hangs. */
  private hookEnd(): number {
    const hook = this.hook!;
    const limit = this.start + this.grace;
    if (!this.served) return Math.min(limit, this.start + hook.seconds);
    return this.hung ? limit : Math.min(limit, this.since + this.work);
  }

  /**
   * The hook is over (or there is none): a sidecar waits for its turn while grace is left
   * (`ordering != nil && gracePeriod > 0`), then StopContainer with what is left of the grace period.
   */
  private sigterm(): void {
    const engine = this.env.engine;
    const ran = engine.since(this.start);
    this.graceLeft = this.grace - (this.hook ? Math.floor(ran) : 0);
    this.stopGrace = stopGraceAfter(this.grace, this.hook ? ran : 0);
    this.endHook(ran);
    const turn = this.turn;
    if (!turn || this.graceLeft <= 0 || turn.ready()) {
      this.stopContainer(0);
      return;
    }
    this.waitingSince = engine.now;
    const go = () => {
      if (Number.isNaN(this.waitingSince)) return;
      // int64(waitForTurn(...)): the seconds waited, truncated.
      const waited = Math.floor(engine.since(this.waitingSince));
      this.waitingSince = Number.NaN;
      this.stopContainer(waited);
    };
    // waitForTurn's timer: the grace period left runs out.
    this.schedule(engine.now + this.graceLeft, go);
    turn.wait(go);
  }

  /** The hook's end (PreStopHookDone), with the grace period it left. */
  private endHook(ran: number): void {
    const hook = this.hook;
    if (hook) {
      // A served hook the hung process never answered is reported as the time it was given.
      const cut = this.served && this.hung;
      this.preStop = {
        ...hook,
        ...(cut ? { from: "hung" as const, seconds: ran } : {}),
        container: this.c.name,
        ranSeconds: ran,
        graceLeftSeconds: this.stopGrace,
      };
      this.hook = undefined;
      this.env.hookDone(this.preStop);
    }
  }

  /** StopContainer: SIGTERM with the grace period left after the hook and the turn's wait (at least 2s). */
  private stopContainer(waited: number): void {
    const now = this.env.engine.now;
    this.env.engine.cancel(this.timer);
    this.timer = undefined;
    this.sigtermAt = now;
    this.stopGrace = Math.max(MINIMUM_GRACE_PERIOD, this.graceLeft - waited);
    this.work = this.c.behaviour.shutdownSeconds ?? 0;
    this.since = now;
    this.scheduleExit();
  }

  /** After SIGTERM: the exit when the shutdown is done, or SIGKILL when StopContainer's timeout runs out first. */
  private scheduleExit(): void {
    const deadline = this.sigtermAt + this.stopGrace;
    const done = this.hung ? Number.POSITIVE_INFINITY : this.since + this.work;
    const killed = done >= deadline;
    this.schedule(killed ? deadline : done, () => this.end(killed ? "SIGKILL" : "SIGTERM"));
  }

  private end(signal: KillPlan["signal"]): void {
    this.timer = undefined;
    const engine = this.env.engine;
    this.env.exit({
      ...(this.preStop ? { preStop: this.preStop } : {}),
      stopGrace: this.stopGrace,
      sigtermAfter: elapsed(this.sigtermAt, this.start),
      exitAfter: engine.since(this.start),
      signal,
    });
  }

  private schedule(at: number, fn: () => void): void {
    const engine = this.env.engine;
    engine.cancel(this.timer);
    this.timer = undefined;
    if (this.sync && at <= engine.now) fn();
    else this.timer = engine.at(at, fn);
  }
}
