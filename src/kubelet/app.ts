// The application inside one pod's containers, as the scenario describes it (`behaviour`:
// bootSeconds, readyAfterSeconds, healthSharesRequestQueue) and as the timeline changes it
// (deadlock, recover, dependency-down/up): what a health check or a caller's connection finds. This
// is the world the kubelet probes, not Kubernetes: nothing here follows an upstream source.

import type { Engine } from "../engine/engine.ts";
import type { Behaviour } from "../scenario/types.ts";
import type { ProbeFinding, ProbeType } from "../trace/node-events.ts";
import type { Outcome, ResolvedProbe } from "./prober.ts";

/**
 * The request queue a health check may wait in: the traffic model's (src/traffic/), when the
 * scenario has callers. `latency` is `behaviour.serviceTimeMs` plus, with
 * `healthSharesRequestQueue: true`, the seconds of requests queued ahead in that pod.
 */
export interface HealthCheckQueue {
  /** The scenario has callers (known from the start, before the traffic model joins after the warm-up). */
  readonly callers: boolean;
  /** Seconds a health check sent now to the pod at `podIP` waits for its answer; undefined before the callers start. */
  latency(podIP: string): number | undefined;
}

/** A container's process as the application model reads it (runtime.ts ContainerRun). */
export interface AppProcess {
  readonly running: boolean;
  readonly startedAt: number;
  readonly hung: boolean;
  readonly behaviour: Behaviour;
}

export class App {
  /** a dependency the readiness endpoint checks is down (pod-wide, survives restarts) */
  dependencyDown = false;

  constructor(
    private readonly engine: Engine,
    private readonly queue: HealthCheckQueue,
    /** the pod (its IP, once it has one) */
    private readonly pod: { readonly status: { readonly podIP?: string | undefined } },
  ) {}

  /** Seconds since the container started, on the engine's grid. */
  upFor(c: AppProcess): number {
    return this.engine.since(c.startedAt);
  }

  /**
   * What a check finds: nothing listens until bootSeconds after the start (refused: a fast
   * failure); a hung process never answers (the check times out), except that the kernel still
   * completes a TCP handshake, so a tcpSocket probe passes; readiness also needs readyAfterSeconds
   * and its dependency.
   */
  outcome(
    c: AppProcess,
    type: ProbeType,
    handler: ResolvedProbe["handler"],
    timeoutSeconds: number,
  ): Outcome {
    const up = this.upFor(c);
    const boot = c.behaviour.bootSeconds ?? 0;
    if (up < boot) return "fail";
    if (c.hung) return handler === "tcpSocket" ? "pass" : "timeout";
    // An HTTP or gRPC health endpoint served by the same request queue answers only after the
    // requests ahead of it (a health check stuck behind the load it should report on): past
    // timeoutSeconds the check has timed out.
    const ip = this.pod.status.podIP;
    if (this.sharesRequestQueue(c, handler) && ip) {
      const latency = this.queue.latency(ip);
      if (latency !== undefined && latency > timeoutSeconds) return "timeout";
    }
    if (type === "readiness") {
      if (this.dependencyDown && handler !== "tcpSocket") return "fail";
      if (up < (c.behaviour.readyAfterSeconds ?? boot)) return "fail";
    }
    return "pass";
  }

  /** What a failed check found, for ProbeFailed. */
  finding(c: AppProcess, timedOut: boolean, timeoutSeconds: number): ProbeFinding {
    const up = this.upFor(c);
    const boot = c.behaviour.bootSeconds ?? 0;
    if (timedOut) return { finding: "timeout", timeoutSeconds };
    if (up < boot) return { finding: "booting", bootSeconds: boot, upSeconds: up };
    if (this.dependencyDown) return { finding: "dependency-down" };
    return { finding: "not-ready-yet", readyAfterSeconds: c.behaviour.readyAfterSeconds };
  }

  /**
   * behaviour.healthSharesRequestQueue, with callers in the scenario, for the handlers the app serves
   * itself: the check's outcome can then change with the load, without any event the prober hears of.
   */
  sharesRequestQueue(c: AppProcess, handler: ResolvedProbe["handler"]): boolean {
    // The scenario's callers, not whether the traffic model runs yet: it joins after the warm-up,
    // and a worker that went to sleep as "steady" before then would never hear of the load.
    return (
      this.queue.callers &&
      c.behaviour.healthSharesRequestQueue === true &&
      (handler === "httpGet" || handler === "grpc")
    );
  }

  /** What a caller's connection to the pod IP meets (the first container serves). */
  connection(c: AppProcess | undefined): "serving" | "hung" | "refusing" {
    if (!c?.running) return "refusing";
    if (this.upFor(c) < (c.behaviour.bootSeconds ?? 0)) return "refusing";
    return c.hung ? "hung" : "serving";
  }
}
