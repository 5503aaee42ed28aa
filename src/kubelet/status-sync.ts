// The status manager's periodic sync (pkg/kubelet/status/status_manager.go Start): a ticker every
// syncPeriod (10s, time.NewTicker from the kubelet's start) runs syncBatch(true), which compares
// each pod's status in the API with the kubelet's (needsReconcile) and writes the kubelet's back
// where someone else changed it: "kubelet should be the source of truth of pod status". The API's
// status reaches it through the kubelet's pod source: a status-only change is a RECONCILE
// (pkg/kubelet/config/config.go checkAndUpdatePod) that updates the pod manager's copy.

import type { Engine, Timer } from "../engine/engine.ts";
import type { Rng } from "../engine/rng.ts";
import { STATUS_MANAGER_SYNC_PERIOD } from "../kubernetes/defaults.ts";
import type { PodWorker } from "./pod-worker.ts";

/** What the ticker needs from its kubelet. */
export interface StatusSyncHost {
  readonly engine: Engine;
  readonly rng: Rng;
  /** when the kubelet process started: the ticker starts with it */
  readonly kubeletStartedAt: number;
  /** the kubelet reaches the API server */
  connected(): boolean;
  /** the pod's current worker is this one */
  current(worker: PodWorker): boolean;
}

export class StatusSyncTicker {
  private pending = new Set<PodWorker>();
  private timer: Timer | undefined;
  /** a time on the ticker's 10s lattice, drawn when first needed in this kubelet process */
  private phase: number | undefined;

  constructor(private readonly host: StatusSyncHost) {}

  /** The pod's status in the API is not the kubelet's: write it back at the ticker's next tick. */
  reconcile(worker: PodWorker): void {
    this.pending.add(worker);
    if (this.timer) return;
    const engine = this.host.engine;
    const period = STATUS_MANAGER_SYNC_PERIOD;
    // time.NewTicker at statusManager.Start (kubelet.go Run), shortly after the process starts: the
    // model does not know that delay and draws the phase anywhere in the first period (for a
    // `start: running` node, whose start is before the scenario, any phase is as good).
    this.phase ??= this.host.kubeletStartedAt + this.host.rng.uniform(0, period);
    const next = this.phase + (Math.floor((engine.now - this.phase) / period) + 1) * period;
    this.timer = engine.at(next, () => {
      this.timer = undefined;
      const workers = [...this.pending];
      this.pending.clear();
      if (!this.host.connected()) return;
      for (const w of workers) if (this.host.current(w) && w.needsReconcile()) w.reconcile(period);
    });
  }

  /** The kubelet process stops: its ticker with it (a new process starts a new one). */
  stop(): void {
    this.host.engine.cancel(this.timer);
    this.timer = undefined;
    this.pending.clear();
    this.phase = undefined;
  }
}
