// What every pod worker (pod-worker.ts) holds and answers without changing its containers: the
// pod's containers by role (app, init, sidecar: runtime.ts ContainerRun), the application model,
// the probe manager and the restarts (made when first needed), the fields of its events, the status
// manager's calls (status-manager.ts), the restart policy of each container and the timeline's
// process faults. Split out of pod-worker.ts, which starts, kills and restarts the containers.

import type { Timer } from "../engine/engine.ts";
import { type PodRow, podRow } from "../kubernetes/kubectl.ts";
import type { ContainerStatus, Pod } from "../kubernetes/objects.ts";
import type { Behaviour } from "../scenario/types.ts";
import type { KubeletReadyCause, StartCause } from "../trace/node-events.ts";
import { App } from "./app.ts";
import type { PodWorkerHost } from "./pod-host.ts";
import type { ProbeWorker, Result } from "./prober.ts";
import { ProbeManager, type ProbeResults } from "./prober-manager.ts";
import { type RestartHost, Restarts, shouldRestart } from "./restart.ts";
import { ContainerRun, roleOf, writeContainerStatus } from "./runtime.ts";
import type { PodStatusSource } from "./status-manager.ts";

const NO_CONTAINERS: readonly ContainerRun[] = Object.freeze([]);

/** Some status has a start time. */
function anyStarted(statuses: readonly ContainerStatus[] | undefined): boolean {
  if (statuses) for (const s of statuses) if (s.startedAt !== undefined) return true;
  return false;
}

export type RestartPolicy = "Always" | "OnFailure" | "Never";

/** The scenario's behaviour of one of the pod's containers (`init`: one of spec.initContainers). */
export type BehaviourOf = (container: string, init: boolean) => Behaviour;

// A large cluster has a pod worker per pod: what most pods never need (the application model, a
// probe manager for a pod without probes, restarts and their back-off, timers, the event fields)
// is made when first needed, and the status manager is the kubelet's (pod-host.ts).
export abstract class PodWorkerBase implements ProbeResults, RestartHost, PodStatusSource {
  /** spec.containers */
  readonly containers: ContainerRun[];
  /** spec.initContainers, in order: those that run to completion and the sidecars */
  readonly inits: readonly ContainerRun[];
  /** the sidecars (init containers with restartPolicy: Always), in spec order */
  readonly sidecars: readonly ContainerRun[];
  /** the containers whose readiness makes the pod's (generateAPIPodStatus): the sidecars, then the app containers */
  readonly serving: ContainerRun[];
  /** the pod's deletionTimestamp was seen: its containers are being killed (preStop, SIGTERM), no more restarts */
  terminating = false;
  /** stop() ran: everything this worker had scheduled is cancelled (its start among them) */
  stopped = false;
  /** every init container completed (and every sidecar started): the app containers run */
  initialized: boolean;
  /** its containers ran before (the machine came back: their statuses keep the start times this kubelet wrote): restartCount climbs */
  readonly rebooted: boolean;
  resyncTimer: Timer | undefined;
  /** the kubelet process runs: its PLEG sees exits and its pod worker restarts them */
  protected kubeletRunning = true;
  protected timers: Timer[] | undefined;
  /** made when the kubelet adds a pod with probes */
  protected prober: ProbeManager | undefined;
  protected restartsModel: Restarts | undefined;
  private appModel: App | undefined;
  private base: { object: string; node: string; owner?: string } | undefined;

  constructor(
    protected readonly host: PodWorkerHost,
    readonly pod: Pod,
    /** the pod's workload (`Deployment/<ns>/<name>`…), for events; undefined for a bare Pod */
    readonly owner: string | undefined,
    /** the scenario's behaviour for one of the pod's containers */
    behaviourOf: BehaviourOf,
  ) {
    const changes = host.planeChanges;
    this.containers = pod.spec.containers.map(
      (c) => new ContainerRun(c, behaviourOf(c.name, false), "app", changes),
    );
    const inits = pod.spec.initContainers;
    // Most pods have no init containers: they share one empty list, and no sidecars are sought.
    this.inits =
      inits && inits.length > 0
        ? inits.map((c) => new ContainerRun(c, behaviourOf(c.name, true), roleOf(c, true), changes))
        : NO_CONTAINERS;
    this.sidecars = this.inits.length > 0 ? this.inits.filter((c) => c.role === "sidecar") : NO_CONTAINERS;
    this.serving = this.sidecars.length > 0 ? [...this.sidecars, ...this.containers] : this.containers;
    this.initialized = this.inits.length === 0;
    // A cluster dump's pod brings only its counts (load/cluster/dump.ts writes no start time): it is
    // not rebooted, and starts from them.
    this.rebooted = anyStarted(pod.status.containerStatuses) || anyStarted(pod.status.initContainerStatuses);
  }

  /** The application inside (app.ts); its dependency flag is the pod's, so it is made once. */
  protected get app(): App {
    this.appModel ??= new App(this.host.engine, this.host.healthChecks, this.pod);
    return this.appModel;
  }

  // The prober, the status manager and the restarts call back into this worker's own methods and
  // fields (ProbeResults, PodStatusSource, RestartHost): no closures per pod.
  /** The container restarts and their back-off (restart.ts), made at the first exit. */
  protected get restarts(): Restarts {
    this.restartsModel ??= new Restarts(this.host, this);
    return this.restartsModel;
  }

  /** Every container of the pod: the init containers (sidecars among them), then the app containers. */
  protected get all(): readonly ContainerRun[] {
    return this.inits.length === 0 ? this.containers : [...this.inits, ...this.containers];
  }

  get running(): boolean {
    return this.containers.some((c) => c.running) || this.inits.some((c) => c.running);
  }

  /** What a caller's connection to the pod IP meets (the first container serves). */
  appState(): "serving" | "hung" | "refusing" {
    return this.app.connection(this.containers[0]);
  }

  /** The fields every event of this pod starts with, built once. */
  eventBase(): { object: string; node: string; owner?: string } {
    if (this.base) return this.base;
    const pod = this.pod;
    this.base = {
      object: `Pod/${pod.metadata.namespace}/${pod.metadata.name}`,
      node: this.host.node,
      ...(this.owner === undefined ? {} : { owner: this.owner }),
    };
    return this.base;
  }

  protected writeStatus(c: ContainerRun, patch: Partial<ContainerStatus>): void {
    writeContainerStatus(this.pod, c.role === "app" ? this.containers : this.inits, c, patch);
  }

  /** The kubelet added the pod (prober_manager.go AddPod): probe workers, before its containers exist. */
  added(): void {
    this.addProbeWorkers();
  }

  /** A probe worker per probe (the sidecars' too); a pod without probes has none to make, nor a manager for them. */
  protected addProbeWorkers(): void {
    if (!this.prober && this.serving.every((c) => c.probes.length === 0)) return;
    this.prober ??= new ProbeManager(this.host, this, this.app);
    this.prober.addPod(this.serving);
  }

  // ---- status (status-manager.ts) ---------------------------------------------------------------

  /** One pod sync (status-manager.ts): `cause` is what this sync was for, if it changes the pod's Ready. */
  sync(cause?: KubeletReadyCause): void {
    this.host.status.sync(this, cause);
  }

  /** Write the pod's Ready condition again (after the kubelet reconnects). */
  report(): void {
    this.host.status.report(this);
  }

  /** The API's Ready condition is not the kubelet's (status-manager.ts needsReconcile). */
  needsReconcile(): boolean {
    return this.host.status.needsReconcile(this);
  }

  /** The status manager's syncBatch writes the kubelet's Ready condition back over someone else's. */
  reconcile(syncPeriod: number): void {
    this.host.status.report(this, { cause: "status-reconcile", syncPeriod });
  }

  // ---- restarts (restart.ts) --------------------------------------------------------------------

  /** The pod's restartPolicy. */
  restartPolicy(): RestartPolicy {
    return this.pod.spec.restartPolicy ?? "Always";
  }

  /**
   * The restart policy one container follows: a sidecar's own Always (KEP-753); an init container
   * is restarted only when it failed, and not at all under the pod's Never (kuberuntime_manager.go
   * computeInitContainerActions, restartOnFailure); an app container the pod's.
   */
  restartPolicyOf(c: ContainerRun): RestartPolicy {
    if (c.role === "sidecar") return "Always";
    const pod = this.restartPolicy();
    if (c.role === "init") return pod === "Never" ? "Never" : "OnFailure";
    // KEP-5307 (1.35+): an app container's own restartPolicy overrides the pod's.
    if (this.host.containerRestartRules && c.spec.restartPolicy) return c.spec.restartPolicy;
    return pod;
  }

  /**
   * ContainerShouldRestart (pkg/api/v1/pod, KEP-5307, 1.35+): the first of the container's
   * restartPolicyRules whose exit codes match decides (Restart); with none matching, its
   * restartPolicy (restart.ts shouldRestart: Always; OnFailure on a non-zero exit; Never).
   */
  restartDecision(c: ContainerRun): { restart: boolean; policy: string } {
    const policy = this.restartPolicyOf(c);
    const code = c.exitCode;
    const rules = c.role === "app" && this.host.containerRestartRules ? c.spec.restartPolicyRules : undefined;
    const rule = rules?.find((r) => {
      const e = r.exitCodes;
      if (!e) return true;
      const listed = code !== undefined && e.values.includes(code);
      return e.operator === "In" ? listed : !listed;
    });
    if (rule)
      return { restart: true, policy: `${policy}, restartPolicyRules: ${rule.action} on exit code ${code}` };
    return { restart: shouldRestart(policy, code), policy };
  }

  crashLoopWaiting(c: ContainerRun): PodRow {
    // ErrCrashLoopBackOff: the container waits, and kubectl shows CrashLoopBackOff (Init:CrashLoopBackOff).
    this.writeStatus(c, { state: "waiting", reason: "CrashLoopBackOff" });
    if (this.host.connected()) this.host.api.update(this.pod);
    return podRow(this.pod, this.host.engine.now);
  }

  abstract restartContainer(c: ContainerRun, cause: StartCause): void;
  abstract containerDone(c: ContainerRun): void;
  abstract startupPassed(c: ContainerRun): void;
  abstract readinessChanged(c: ContainerRun, w: ProbeWorker, result: Result): void;
  abstract killForProbe(c: ContainerRun, w: ProbeWorker): void;

  // ---- faults -----------------------------------------------------------------------------------

  /** The process hangs; a kill under way re-plans: no answer to an httpGet hook, no exit after SIGTERM (kill-course.ts). */
  deadlock(): void {
    for (const c of this.containers) if (c.running) c.setHung(true);
    this.prober?.poke(this.containers);
  }

  recover(): void {
    for (const c of this.containers) c.setHung(false);
    this.prober?.poke(this.containers);
  }

  setDependency(up: boolean): void {
    this.app.dependencyDown = !up;
    this.prober?.poke(this.containers);
  }

  addTimer(t: Timer): void {
    this.timers ??= [];
    this.timers.push(t);
  }
}
