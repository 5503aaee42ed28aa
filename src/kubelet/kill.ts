// How the kubelet stops one container (pkg/kubelet/kuberuntime/kuberuntime_container.go
// killContainer): it takes the grace period (the probe's or the pod's terminationGracePeriodSeconds
// for a probe kill, setTerminationGracePeriod; the deletion's for a pod being deleted, passed as
// gracePeriodOverride), runs the preStop hook first and waits for it at most that grace period
// (executePreStopHook), takes the whole seconds the hook ran off the grace period, raises what is
// left to minimumGracePeriodInSeconds (2s), and only then calls StopContainer: SIGTERM, and SIGKILL
// when that grace runs out. Meanwhile the process runs and serves as before.
//
// How long a hook takes comes from the manifest and the scenario, never from running anything: the
// `sleep` action's seconds (PodLifecycleSleepAction, beta and on by default from 1.30); for `exec`,
// `behaviour.<workload>.preStopSeconds`, else the `sleep N` in its command, else at once; for
// `httpGet`, `behaviour.<workload>.preStopSeconds`, else at once, except that a hung process never
// answers, so the hook runs out the grace period; `tcpSocket` is no lifecycle handler the kubelet
// runs (pkg/kubelet/lifecycle/handlers.go Run: "invalid handler"), so it fails at once.

import type { Engine, Timer } from "../engine/engine.ts";
import { DEFAULT_TERMINATION_GRACE_PERIOD, MINIMUM_GRACE_PERIOD } from "../kubernetes/defaults.ts";
import type { Container, Pod } from "../kubernetes/objects.ts";
import type { Behaviour } from "../scenario/types.ts";
import type { Trace } from "../trace/events.ts";
import type { PreStopRun } from "../trace/node-events.ts";
import { KillCourse, type KillPlan, type KillTurn, type PreStopHook, stopGraceAfter } from "./kill-course.ts";
import type { ResolvedProbe } from "./prober.ts";
import type { ContainerRun } from "./runtime.ts";

export type { KillPlan, KillTurn, PreStopHook };

/**
 * The grace period of a kill for a failed probe: the probe's terminationGracePeriodSeconds, else the
 * pod's (setTerminationGracePeriod, GA 1.28).
 */
export function probeKillGracePeriod(
  pod: Pod,
  probe: ResolvedProbe,
): { grace: number; from: "probe" | "pod" } {
  const grace =
    probe.terminationGracePeriodSeconds ??
    pod.spec.terminationGracePeriodSeconds ??
    DEFAULT_TERMINATION_GRACE_PERIOD;
  return { grace, from: probe.terminationGracePeriodSeconds !== undefined ? "probe" : "pod" };
}

/** The grace period of a deletion (the pod worker's gracePeriodOverride): the pod's deletionGracePeriodSeconds. */
export function deletionGracePeriod(pod: Pod): number {
  return pod.metadata.deletionGracePeriodSeconds ?? DEFAULT_TERMINATION_GRACE_PERIOD;
}

/** The preStop hook of a container, if it has one, as this process would run it now. */
export function preStopHook(spec: Container, behaviour: Behaviour, hung: boolean): PreStopHook | undefined {
  const h = spec.lifecycle?.preStop;
  if (!h) return undefined;
  const set = behaviour.preStopSeconds;
  if (h.sleep)
    return {
      handler: "sleep",
      describe: `sleep ${h.sleep.seconds}s`,
      seconds: h.sleep.seconds,
      from: "sleep-action",
    };
  if (h.exec) {
    const describe = `exec ${h.exec.command.join(" ")}`;
    if (set !== undefined) return { handler: "exec", describe, seconds: set, from: "behaviour" };
    const slept = sleepSeconds(h.exec.command);
    return slept === undefined
      ? { handler: "exec", describe, seconds: 0, from: "instant" }
      : { handler: "exec", describe, seconds: slept, from: "exec-sleep" };
  }
  if (h.httpGet) {
    const describe = `httpGet :${h.httpGet.port}${h.httpGet.path ?? "/"}`;
    if (hung) return { handler: "httpGet", describe, seconds: Number.POSITIVE_INFINITY, from: "hung" };
    if (set !== undefined) return { handler: "httpGet", describe, seconds: set, from: "behaviour" };
    return { handler: "httpGet", describe, seconds: 0, from: "instant" };
  }
  return { handler: "tcpSocket", describe: "tcpSocket", seconds: 0, from: "unsupported" };
}

const SLEEP = /(?:^|[\s;&|()/])sleep\s+(\d+(?:\.\d+)?)([smhd]?)(?=$|[\s;&|()])/g;
const UNIT: Record<string, number> = { "": 1, s: 1, m: 60, h: 3600, d: 86400 };

/**
 * The seconds the `sleep N` commands of an exec hook's command line add up to (coreutils sleep: a
 * number with an optional s, m, h or d suffix), or undefined when it has none.
 */
export function sleepSeconds(command: readonly string[]): number | undefined {
  let total: number | undefined;
  for (const m of command.join(" ").matchAll(SLEEP)) total = (total ?? 0) + Number(m[1]) * UNIT[m[2]!]!;
  return total;
}

/**
 * killContainer for a grace period of `grace` seconds: the hook runs for at most `grace` (time.After
 * in executePreStopHook); what is left is `grace` minus the whole seconds it ran (int64 of the
 * seconds), at least 2s; the process then exits after its shutdownSeconds, or is killed when that
 * runs out (a hung process never finishes its shutdown).
 */
export function killPlan(
  container: string,
  grace: number,
  hook: PreStopHook | undefined,
  hung: boolean,
  shutdownSeconds: number | undefined,
): KillPlan {
  let preStop: PreStopRun | undefined;
  let sigtermAfter = 0;
  const ran = hook && grace > 0;
  if (ran) sigtermAfter = Math.min(hook.seconds, grace);
  const stopGrace = stopGraceAfter(grace, sigtermAfter);
  if (ran) {
    // A hook that never ends (an httpGet to a hung process) is reported as the time it was given.
    const seconds = Number.isFinite(hook.seconds) ? hook.seconds : sigtermAfter;
    preStop = { ...hook, seconds, container, ranSeconds: sigtermAfter, graceLeftSeconds: stopGrace };
  }
  const shutdown = shutdownSeconds ?? 0;
  const killed = hung || shutdown >= stopGrace;
  return {
    ...(preStop ? { preStop } : {}),
    stopGrace,
    sigtermAfter,
    exitAfter: sigtermAfter + (killed ? stopGrace : shutdown),
    signal: killed ? "SIGKILL" : "SIGTERM",
  };
}

/** What a kill needs from its pod worker: the clock, the trace, the pod's event fields, its timers. */
export interface KillEnv {
  readonly engine: Engine;
  readonly trace: Trace;
  readonly event: { object: string; node: string; owner?: string };
  readonly timers: Timer[];
}

/**
 * Start killContainer on a running container: `started` (the Killing event) with the kill as
 * planned now (returned), the preStop hook (PreStopHookDone when it ends), then SIGTERM and the process's exit
 * or SIGKILL; the container runs and serves until `exit`, which gets the kill as it went (a change
 * to the process meanwhile re-plans it: kill-course.ts). A probe kill's instant exit happens at
 * once, in its SyncPod; a deletion's in the pod worker's own turn.
 */
export function startKill(
  env: KillEnv,
  c: ContainerRun,
  grace: number,
  kind: "deletion" | "probe",
  exit: (plan: KillPlan) => void,
  started?: (plan: KillPlan) => void,
  turn?: KillTurn,
): KillPlan {
  const planned = killPlan(
    c.name,
    grace,
    preStopHook(c.spec, c.behaviour, c.hung),
    c.hung,
    c.behaviour.shutdownSeconds,
  );
  started?.(planned);
  // The instance this kill is for: one that exits by itself meanwhile may be restarted, and the
  // kill does not touch its successor.
  const id = c.id;
  const alive = () => c.running && c.id === id;
  const course = new KillCourse(
    {
      engine: env.engine,
      hookDone: (preStop) => {
        if (alive())
          env.trace.emit({
            type: "PreStopHookDone",
            lane: "kubelet",
            ...env.event,
            preStop,
            kill: kind,
            terminationGracePeriodSeconds: grace,
          });
      },
      exit: (plan) => {
        if (alive()) exit(plan);
      },
    },
    c,
    grace,
    // The hook as the process would run it left alone: the course decides what a hang does to it.
    preStopHook(c.spec, c.behaviour, false),
    kind === "probe",
    turn,
  );
  c.kill = course;
  course.begin();
  return planned;
}

/**
 * computePodActions' kill of a container whose liveness or startup probe failed: the probe's grace
 * period (probeKillGracePeriod), the Killing event ("Container X failed liveness probe, will be
 * restarted", ContainerKilled), then startKill.
 */
export function startProbeKill(
  env: KillEnv,
  pod: Pod,
  c: ContainerRun,
  p: ResolvedProbe,
  timedOut: boolean,
  exit: (plan: KillPlan) => void,
): void {
  const { grace, from } = probeKillGracePeriod(pod, p);
  startKill(env, c, grace, "probe", exit, (plan) =>
    env.trace.emit({
      type: "ContainerKilled",
      lane: "kubelet",
      ...env.event,
      container: c.name,
      cause: "probe",
      probe: p.type,
      periodSeconds: p.periodSeconds,
      failureThreshold: p.failureThreshold,
      initialDelaySeconds: p.initialDelaySeconds,
      terminationGracePeriodSeconds: Math.max(MINIMUM_GRACE_PERIOD, grace),
      gracePeriodFrom: from,
      hung: c.hung,
      ...(timedOut ? { timedOut: true as const } : {}),
      ...(plan.preStop ? { preStop: plan.preStop } : {}),
    }),
  );
}

/** One container's kill at a pod's deletion, as it ended: seconds from the kill's start. */
export interface EndedKill {
  container: ContainerRun;
  afterSeconds: number;
  signal: KillPlan["signal"];
}

/**
 * A pod's deletion (pod_workers.go SyncTerminatingPod → killPod): every running container is
 * killed at once, with the deletion's grace period as gracePeriodOverride; `done` once every kill
 * has ended, with the one that ended last. Returns what the pod worker calls when a container
 * exits by itself meanwhile: its kill ends then, except while a sleep action runs
 * (runSleepHandler waits on its own timer, and killContainer waits for the hook); an exec or
 * httpGet hook ends with its container.
 */
export function terminatePod(
  env: KillEnv,
  containers: readonly ContainerRun[],
  grace: number,
  stopped: (c: ContainerRun) => void,
  done: (last: KillPlan | undefined, ended: readonly EndedKill[]) => void,
  /** a pod with sidecars: the containers each one's SIGTERM waits for (init-containers.ts sidecarTurns) */
  prereqsOf?: (c: ContainerRun) => readonly ContainerRun[],
): (c: ContainerRun) => void {
  const start = env.engine.now;
  const pending = new Map<ContainerRun, KillPlan>();
  // The containers whose kill has not ended (containerTerminated closes their channel when it has).
  const unfinished = new Set(containers.filter((c) => c.running));
  const waiting = new Map<ContainerRun, () => void>();
  let last: KillPlan | undefined;
  const ended: EndedKill[] = [];
  const turnOf = (c: ContainerRun): KillTurn | undefined => {
    const prereqs = prereqsOf?.(c).filter((p) => unfinished.has(p));
    if (!prereqs || prereqs.length === 0) return undefined;
    const ready = () => prereqs.every((p) => !unfinished.has(p));
    const wait = (then: () => void) => {
      waiting.set(c, () => {
        if (!ready()) return;
        waiting.delete(c);
        then();
      });
    };
    return { ready, wait };
  };
  const settle = (c: ContainerRun, signal: KillPlan["signal"]) => {
    if (unfinished.delete(c)) ended.push({ container: c, afterSeconds: env.engine.since(start), signal });
    for (const go of [...waiting.values()]) go();
    if (pending.delete(c) && pending.size === 0) done(last, ended);
  };
  for (const c of [...unfinished]) {
    const plan = startKill(
      env,
      c,
      grace,
      "deletion",
      (p) => {
        last = p;
        stopped(c);
        settle(c, p.signal);
      },
      undefined,
      turnOf(c),
    );
    pending.set(c, plan);
  }
  return (c) => {
    const plan = pending.get(c);
    if (!plan) return;
    last = { ...plan, ownExit: true };
    const sleeping = plan.preStop?.handler === "sleep" ? start + plan.sigtermAfter - env.engine.now : 0;
    if (sleeping > 0) env.timers.push(env.engine.after(sleeping, () => settle(c, plan.signal)));
    else settle(c, plan.signal);
  };
}
