// The node's heartbeat: its Lease in kube-node-lease, renewed by the kubelet's lease controller
// (staging/src/k8s.io/component-helpers/apimachinery/lease/controller.go, started in
// pkg/kubelet/kubelet.go with renewInterval = nodeLeaseDurationSeconds × 0.25).

import type { Store } from "../cluster/store.ts";
import type { Engine, Timer } from "../engine/engine.ts";
import type { Rng } from "../engine/rng.ts";
import {
  LEASE_BACKOFF_INITIAL,
  LEASE_BACKOFF_MAX,
  LEASE_RENEW_JITTER,
  NODE_LEASE_RENEW_INTERVAL_FRACTION,
} from "../kubernetes/defaults.ts";
import type { Lease } from "../kubernetes/objects.ts";
import type { EventOf, Trace } from "../trace/events.ts";

/** What the lease controller needs from its kubelet. */
export interface NodeLeaseHost {
  readonly engine: Engine;
  readonly store: Store;
  readonly trace: Trace;
  /** the kubelet's random source (the renewal jitter) */
  readonly rng: Rng;
  readonly node: string;
  /** kubelet setting nodeLeaseDurationSeconds (40s) */
  readonly nodeLeaseDurationSeconds: number;
  /** the machine and its kubelet as they are now (the Kubelet itself) */
  readonly machine: LeaseMachine;
}

/** What a pass reads of the machine: whether it runs the loop, and whether it reaches the API server. */
export interface LeaseMachine {
  readonly powered: boolean;
  readonly kubeletRunning: boolean;
  /** the kubelet cannot reach the API server */
  readonly partitioned: boolean;
}

// A large cluster renews a Lease per node every 10s, and a renewal's cost is mostly reaching the
// node's objects in memory: a pass reads its own fields and the machine's flags directly, not
// through the host object and a closure per flag.
export class NodeLease {
  /** the loop's next pass, while one is queued */
  private timer: Timer | undefined;
  /** backoffEnsureLease's current wait while the API server is unreachable; 0 when reachable */
  private backoff = 0;
  /** `kube-node-lease/<node>`, the Lease's key */
  private readonly key: string;
  /** the Lease last renewed: renewed again while the API still has it, else found by key or created */
  private lease: Lease | undefined;
  /** renewInterval: nodeLeaseDurationSeconds × nodeLeaseRenewIntervalFraction (0.25), pkg/kubelet/kubelet.go. */
  readonly renewInterval: number;
  /** The LeaseRenewed event without its time, built once: every renewal's is the same (the trace stamps the time). */
  private readonly renewed: Omit<EventOf<"LeaseRenewed">, "t">;
  private readonly sync = () => this.renew();
  private readonly engine: Engine;
  private readonly store: Store;
  private readonly trace: Trace;
  private readonly rng: Rng;
  private readonly machine: LeaseMachine;

  constructor(private readonly host: NodeLeaseHost) {
    this.engine = host.engine;
    this.store = host.store;
    this.trace = host.trace;
    this.rng = host.rng;
    this.machine = host.machine;
    this.key = `kube-node-lease/${host.node}`;
    this.renewInterval = host.nodeLeaseDurationSeconds * NODE_LEASE_RENEW_INTERVAL_FRACTION;
    this.renewed = {
      type: "LeaseRenewed",
      lane: "kubelet",
      object: `Lease/${this.key}`,
      node: host.node,
      nodeLeaseDurationSeconds: host.nodeLeaseDurationSeconds,
      renewIntervalSeconds: this.renewInterval,
    };
  }

  /** The Lease as the controller creates it. */
  object(createdAt: number): Lease {
    return {
      kind: "Lease",
      metadata: { name: this.host.node, namespace: "kube-node-lease", creationTimestamp: createdAt },
      spec: {
        holderIdentity: this.host.node,
        leaseDurationSeconds: this.host.nodeLeaseDurationSeconds,
        renewTime: this.engine.now,
      },
    };
  }

  /** The loop as it stands when a `start: running` scenario begins: its next renewal anywhere in one interval. */
  startRunning(): void {
    this.schedule(this.rng.uniform(0, this.renewInterval * (1 + LEASE_RENEW_JITTER)));
  }

  /** A kubelet process starts: the controller's first pass is at once. */
  start(): void {
    this.backoff = 0;
    this.schedule(0);
  }

  stop(): void {
    this.engine.cancel(this.timer);
    this.timer = undefined;
  }

  private schedule(delay: number): void {
    this.engine.cancel(this.timer);
    this.timer = this.engine.after(delay, this.sync);
  }

  /** The next pass, from the pass now running: its timer, which has run, is queued again (no new one per renewal). */
  private next(ran: Timer, delay: number): void {
    this.engine.rearm(ran, this.engine.now + delay);
    this.timer = ran;
  }

  /**
   * One pass: renew, then wait renewInterval × U[1, 1.04) from the end of this pass (JitterUntil,
   * sliding). Unreachable API: backoffEnsureLease retries forever, 200ms doubling to 7s.
   */
  private renew(): void {
    const machine = this.machine;
    const engine = this.engine;
    // The pass runs from its timer, the one queued last (schedule cancels any other).
    const ran = this.timer!;
    this.timer = undefined;
    if (!machine.powered || !machine.kubeletRunning) return;
    if (machine.partitioned) {
      this.backoff = Math.min(
        this.backoff === 0 ? LEASE_BACKOFF_INITIAL : this.backoff * 2,
        LEASE_BACKOFF_MAX,
      );
      this.next(ran, this.backoff);
      return;
    }
    this.backoff = 0;
    const store = this.store;
    let lease = this.lease;
    if (!lease || !store.exists(lease))
      lease = this.lease = store.get("Lease", this.key) ?? store.create(this.object(engine.now));
    lease.spec.renewTime = engine.now;
    store.update(lease);
    this.trace.emitRenewal(this.renewed);
    this.next(ran, this.renewInterval * this.rng.uniform(1, 1 + LEASE_RENEW_JITTER));
  }
}
