// The node's heartbeat: its Lease in kube-node-lease, renewed by the kubelet's lease controller
// (staging/src/k8s.io/component-helpers/apimachinery/lease/controller.go, started in
// pkg/kubelet/kubelet.go with renewInterval = nodeLeaseDurationSeconds × 0.25).
//
// Computed, not simulated: after a pass that renews, while nothing disturbs the kubelet (power,
// the kubelet process, a partition, the Lease deleted), its next renewals are a pure function of its
// random stream, so none is an engine event. The Lease's spec.renewTime is worked out when something
// reads it (an accessor), and the renewals are drawn then, in the order the passes would have drawn
// them: before any other draw from the kubelet's stream (`orderedRng`), before a disturbance. The
// trace keeps them as stretches of that schedule (trace/lease-renewals.ts). Nothing watches a
// healthy renewal: the one Lease watch (network.ts) acts only on a stale kube-proxy, which a node
// renewing steadily does not have, and the pass that ends a disturbance is a real one (its write is
// seen).

import { type LeaseSteadiness, leaseSteadiness } from "../cluster/lease-steadiness.ts";
import type { Store } from "../cluster/store.ts";
import type { Engine, Timer } from "../engine/engine.ts";
import { Rng } from "../engine/rng.ts";
import {
  LEASE_BACKOFF_INITIAL,
  LEASE_BACKOFF_MAX,
  LEASE_RENEW_JITTER,
  NODE_LEASE_RENEW_INTERVAL_FRACTION,
} from "../kubernetes/defaults.ts";
import type { Lease } from "../kubernetes/objects.ts";
import type { Trace } from "../trace/events.ts";
import { type LeaseLog, nextRenewal, type RenewalStretch } from "../trace/lease-renewals.ts";

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

export class NodeLease implements LeaseSteadiness {
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
  /** While the schedule is computed: the next renewal's time (drawn at the last one); NaN while passes are events. */
  private steadyNext = Number.NaN;
  /** spec.renewTime as last renewed, behind the Lease's accessor */
  private renewTime = 0;
  /** this node's renewals in the trace, and the stretch being drawn (undefined after another draw closed it) */
  private readonly log: LeaseLog;
  private stretch: RenewalStretch | undefined;
  /** the renewals in the open stretch so far */
  private stretchCount = 0;
  private readonly sync = () => this.renew();
  /** the node lifecycle controller's word that it skips this Lease while it is steady */
  onUnsteady: (() => void) | undefined = undefined;
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
    this.log = host.trace.leaseLog({
      event: {
        type: "LeaseRenewed",
        lane: "kubelet",
        object: `Lease/${this.key}`,
        node: host.node,
        nodeLeaseDurationSeconds: host.nodeLeaseDurationSeconds,
        renewIntervalSeconds: this.renewInterval,
      },
      interval: this.renewInterval,
      jitter: LEASE_RENEW_JITTER,
      stretches: [],
    });
    leasesOf(host.store).set(this.key, this);
    leaseSteadiness(host.store).set(this.key, this);
  }

  /** The longest gap two computed renewals can have: renewInterval × 1.04, and half a tick of the grid. */
  get steadyGap(): number {
    return Number.isNaN(this.steadyNext) ? Number.NaN : this.renewInterval * (1 + LEASE_RENEW_JITTER) + 1e-6;
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

  /**
   * The kubelet's stream as its other parts draw from it: each draw first draws the renewals due
   * before it (the passes that would have run before), and ends the stretch being recorded.
   */
  orderedRng(): Rng {
    return new OrderedRng(this.rng, () => {
      this.catchUp(this.engine.now, false);
      this.closeStretch();
    });
  }

  /** The loop as it stands when a `start: running` scenario begins: its next renewal anywhere in one interval. */
  startRunning(): void {
    this.schedule(this.rng.uniform(0, this.renewInterval * (1 + LEASE_RENEW_JITTER)));
  }

  /** A kubelet process starts: the controller's first pass is at once. */
  start(): void {
    this.disturbed();
    this.backoff = 0;
    this.schedule(0);
  }

  stop(): void {
    this.disturbed();
    this.engine.cancel(this.timer);
    this.timer = undefined;
  }

  /**
   * Something the schedule does not foresee happened now (a partition, the Lease deleted): the
   * renewals before now are drawn, and the next one is a pass of its own again, at its time.
   */
  disturbed(): void {
    if (Number.isNaN(this.steadyNext)) return;
    this.catchUp(this.engine.now, false);
    this.closeStretch();
    this.timer = this.engine.at(this.steadyNext, this.sync);
    this.steadyNext = Number.NaN;
    const unsteady = this.onUnsteady;
    this.onUnsteady = undefined;
    unsteady?.();
  }

  private schedule(delay: number): void {
    this.engine.cancel(this.timer);
    this.timer = this.engine.after(delay, this.sync);
  }

  /**
   * The renewals due by `now` while the schedule is computed, as the passes would have made them:
   * spec.renewTime, then the wait renewInterval × U[1, 1.04) drawn from the end of the pass.
   * `inclusive`: a renewal at `now` itself counts (a reader; a disturbance or a draw at the same
   * instant comes first, as events queued before the pass's would).
   */
  private catchUp(now: number, inclusive: boolean): void {
    let next = this.steadyNext;
    while (next < now || (inclusive && next === now)) {
      this.renewTime = next;
      this.record(next, undefined);
      next = nextRenewal(next, this.renewInterval, LEASE_RENEW_JITTER, this.rng);
    }
    this.steadyNext = next;
  }

  /** A renewal at `t` in the trace's schedule: a new stretch from the stream's state now, or one more in the open one. */
  private record(t: number, at: number | undefined): void {
    if (this.stretch && at === undefined) {
      this.stretchCount++;
      return;
    }
    this.closeStretch();
    this.stretch = { start: t, rng: this.rng.state(), count: undefined, at };
    this.stretchCount = 1;
    this.log.stretches.push(this.stretch);
  }

  /** The open stretch ends here: another draw or a disturbance comes next in the stream. */
  private closeStretch(): void {
    if (!this.stretch) return;
    this.stretch.count = this.stretchCount;
    this.stretch = undefined;
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
      this.engine.rearm(ran, engine.now + this.backoff);
      this.timer = ran;
      return;
    }
    this.backoff = 0;
    const store = this.store;
    let lease = this.lease;
    if (!lease || !store.exists(lease))
      lease = this.adopt(store.get("Lease", this.key) ?? store.create(this.object(engine.now)));
    this.renewTime = engine.now;
    store.update(lease);
    this.record(engine.now, this.trace.events.length);
    // From here on the schedule is computed until something disturbs it.
    this.steadyNext = nextRenewal(engine.now, this.renewInterval, LEASE_RENEW_JITTER, this.rng);
  }

  /** The Lease this controller renews: its spec.renewTime read through the schedule. */
  private adopt(lease: Lease): Lease {
    // The Lease renewed before (deleted from the API) keeps its last renewTime, no longer computed.
    if (this.lease && this.lease !== lease)
      Object.defineProperty(this.lease.spec, "renewTime", {
        value: this.renewTime,
        writable: true,
        enumerable: true,
        configurable: true,
      });
    this.lease = lease;
    this.renewTime = lease.spec.renewTime;
    Object.defineProperty(lease.spec, "renewTime", {
      enumerable: true,
      configurable: true,
      get: () => {
        if (!Number.isNaN(this.steadyNext)) this.catchUp(this.engine.now, true);
        return this.renewTime;
      },
      set: (t: number) => {
        this.renewTime = t;
      },
    });
    return lease;
  }
}

/** The kubelet's stream, each draw preceded by `before` (the renewals due first). */
class OrderedRng extends Rng {
  constructor(
    private readonly inner: Rng,
    private readonly before: () => void,
  ) {
    super(0);
  }

  override uint32(): number {
    // Rng's constructor warms up its own state, before this one's fields are set.
    if (this.inner === undefined) return super.uint32();
    this.before();
    return this.inner.uint32();
  }
}

/**
 * Each store's node lease controllers by Lease key, and the one observer that tells a controller its
 * Lease was deleted (`kubectl delete node` takes the Lease too): its next pass creates it again.
 */
const byStore = new WeakMap<Store, Map<string, NodeLease>>();

function leasesOf(store: Store): Map<string, NodeLease> {
  let m = byStore.get(store);
  if (!m) {
    const leases = new Map<string, NodeLease>();
    m = leases;
    byStore.set(store, leases);
    store.observe((obj) => {
      if (obj.kind === "Lease" && !store.exists(obj))
        leases.get(`${obj.metadata.namespace}/${obj.metadata.name}`)?.disturbed();
    });
  }
  return m;
}
