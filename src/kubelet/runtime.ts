// The container runtime's side of one pod: each container and its current instance (ID, running,
// started, exit) and the containerStatuses the kubelet reports from them. How a kill ends is
// kill.ts.

import type { PlaneChanges } from "../cluster/context.ts";
import type { Engine, Timer } from "../engine/engine.ts";
import type { Container, ContainerStatus, Pod } from "../kubernetes/objects.ts";
import type { Behaviour } from "../scenario/types.ts";
import type { AppProcess } from "./app.ts";
import {
  type ContainerView,
  PROBE_TYPES,
  type ProbeType,
  type ProbeWorker,
  type ResolvedProbe,
  resolveProbe,
} from "./prober.ts";

/** Exit codes of a killed process: 128 + SIGTERM (15) when it exits in the grace period, 128 + SIGKILL (9) after. */
export const EXIT_SIGTERM = 143;
export const EXIT_SIGKILL = 137;
/** A crash with no behaviour.exitCode: a generic failure. */
export const DEFAULT_CRASH_EXIT_CODE = 1;

/** The workers of every container without probes: nothing is ever added to it (prober-manager.ts addPod). */
const NO_PROBE_WORKERS = new Map<ProbeType, ProbeWorker>();
/** The probes of every container without any. */
const NO_PROBES: readonly ResolvedProbe[] = [];
/** Each probe type and its Container field, named once (not a string per container). */
const PROBE_FIELDS = PROBE_TYPES.map((type) => [type, `${type}Probe`] as const);
/** Where a container made outside a kubelet counts its changes: nobody reads them. */
const UNCOUNTED: PlaneChanges = { count: 0, bootingUntil: Number.NEGATIVE_INFINITY };

/** A kill under way (kill-course.ts): told when the process changes, cancelled when the process is gone. */
export interface RunningKill {
  processChanged(): void;
  cancel(): void;
}

/**
 * What a container is to its pod: an app container (spec.containers), an init container that runs to
 * completion, or a sidecar (an init container with `restartPolicy: Always`, KEP-753,
 * types.IsRestartableInitContainer).
 */
export type ContainerRole = "app" | "init" | "sidecar";

/** The role of one of the pod's containers, from the list it is in and its restartPolicy. */
export function roleOf(spec: Container, init: boolean): ContainerRole {
  if (!init) return "app";
  return spec.restartPolicy === "Always" ? "sidecar" : "init";
}

/** One container of the pod and its current instance. */
export class ContainerRun implements ContainerView, AppProcess {
  /** container ID: a new one per start; 0 before the first */
  id = 0;
  private isRunning = false;
  private startTime = Number.NaN;
  private isHung = false;
  started = false;
  /** the status manager's view: running, started, readiness passed (or no readiness probe) */
  ready = false;
  /** the kill under way (killContainer), if any */
  kill: RunningKill | undefined;
  restartCount = 0;
  /** FinishedAt of the last exited instance (doBackOff's eventTime) */
  finishedAt: number | undefined;
  exitCode: number | undefined;
  /** the pod worker's retry while the container waits out its CrashLoopBackOff */
  waitingTimer: Timer | undefined;
  /** behaviour.exitAfterSeconds: the process's own exit, counted from its start */
  exitTimer: Timer | undefined;
  /** the pod has been given up: restartPolicy says no restart */
  done = false;
  /** one per probe (prober-manager.ts sets them); a container without probes shares one that stays empty */
  readonly workers: Map<ProbeType, ProbeWorker>;
  readonly probes: readonly ResolvedProbe[];

  constructor(
    readonly spec: Container,
    /**
     * The scenario's behaviour of the container. Replaced only when a run played from a shared
     * warm-up has its own bootSeconds (run/warm-serves.ts), as its creation would have given it.
     */
    public behaviour: Behaviour,
    readonly role: ContainerRole = "app",
    /** the machines' count of changes a connection would see (cluster/context.ts PlaneChanges) */
    private readonly changes: PlaneChanges = UNCOUNTED,
  ) {
    let probes: ResolvedProbe[] | undefined;
    for (const [type, field] of PROBE_FIELDS) {
      const p = spec[field];
      if (!p) continue;
      probes ??= [];
      probes.push(resolveProbe(type, p));
    }
    this.probes = probes ?? NO_PROBES;
    this.workers = this.probes.length > 0 ? new Map() : NO_PROBE_WORKERS;
  }

  get name(): string {
    return this.spec.name;
  }

  // What a connection meets changes with these three (app.ts connection): each write is counted.
  get running(): boolean {
    return this.isRunning;
  }
  set running(v: boolean) {
    this.isRunning = v;
    this.changes.count++;
  }
  /** the instance's start; it refuses connections for behaviour.bootSeconds after it */
  get startedAt(): number {
    return this.startTime;
  }
  set startedAt(v: number) {
    this.startTime = v;
    this.changes.count++;
    const boot = this.behaviour.bootSeconds;
    if (boot) this.changes.bootingUntil = Math.max(this.changes.bootingUntil, v + boot);
  }
  /** the process hangs (deadlock): health checks time out, requests hang */
  get hung(): boolean {
    return this.isHung;
  }
  set hung(v: boolean) {
    this.isHung = v;
    this.changes.count++;
  }

  get killing(): boolean {
    return this.kill !== undefined;
  }

  /** The instance is gone or replaced: its kill, if any, is over. */
  endKill(): void {
    this.kill?.cancel();
    this.kill = undefined;
  }

  /** The process hangs or recovers: a kill under way re-plans the rest of its course. */
  setHung(hung: boolean): void {
    this.hung = hung;
    this.kill?.processChanged();
  }

  /** The container's process is gone, with nothing more to come of it. */
  stop(engine: Engine): void {
    for (const w of this.workers.values()) w.stop();
    engine.cancel(this.waitingTimer);
    engine.cancel(this.exitTimer);
    this.waitingTimer = undefined;
    this.exitTimer = undefined;
    this.running = false;
    this.endKill();
    this.ready = false;
  }
}

/** Update the container's entry in pod.status.containerStatuses (added in the spec's order). */
export function writeContainerStatus(
  pod: Pod,
  containers: readonly ContainerRun[],
  c: ContainerRun,
  patch: Partial<ContainerStatus>,
): void {
  // Init containers (and sidecars) report in initContainerStatuses (generateAPIPodStatus).
  if (c.role !== "app") pod.status.initContainerStatuses ??= [];
  let statuses = c.role === "app" ? pod.status.containerStatuses : pod.status.initContainerStatuses!;
  let s = statuses.find((x) => x.name === c.name);
  if (!s) {
    s = { name: c.name, ready: false, started: false, restartCount: 0, state: "waiting" };
    // A new array of exactly its length, not a push (V8 grows a pushed array's store to 16 slots
    // or more, kept by every pod for the run), and not a spread either: `[...a, s]` is built by
    // pushes too (17 slots for one status); concat allocates the exact length. Readers take the
    // status's array anew each time.
    statuses = statuses.concat([s]);
    if (c.role === "app") pod.status.containerStatuses = statuses;
    else pod.status.initContainerStatuses = statuses;
    if (statuses.length > 1)
      statuses.sort(
        (a, b) =>
          containers.findIndex((x) => x.name === a.name) - containers.findIndex((x) => x.name === b.name),
      );
  }
  s.restartCount = c.restartCount;
  s.ready = c.ready;
  s.started = c.started;
  delete s.reason;
  delete s.exitCode;
  Object.assign(s, patch);
}
