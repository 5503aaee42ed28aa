// The kubelet's syncLoop as the container runtime gates it (pkg/kubelet/kubelet.go syncLoop): while
// runtimeErrors is not empty it skips pod synchronization ("Skipping pod synchronization"),
// sleeping 100ms doubling to 5s between checks; and while the runtime is down every call that needs
// it (create a sandbox, start, kill or stop a container) fails. What could not run waits here and
// runs when the runtime answers again and the loop wakes up.

import type { Engine, Timer } from "../engine/engine.ts";
import type { Rng } from "../engine/rng.ts";
import { SYNC_LOOP_BACKOFF_MAX } from "../kubernetes/defaults.ts";
import type { Pod } from "../kubernetes/objects.ts";
import type { RuntimeState } from "./runtime-state.ts";

/** What the gate needs from its kubelet. */
export interface SyncLoopHost {
  readonly engine: Engine;
  readonly rng: Rng;
  readonly runtime: RuntimeState;
  /** sync these pods again (they waited for the runtime) */
  resync(pods: Pod[]): void;
}

export class SyncLoopGate {
  /** Pod syncs the runtime could not carry out, by pod UID. */
  private pods = new Map<string, Pod>();
  /** The pod workers' restarts and probe kills that wait for the runtime, in order. */
  private actions: (() => void)[] = [];
  /** the loop's back-off sleep after the runtime's errors cleared */
  private resume: Timer | undefined;
  /** runtimeErrors held during this outage: the loop was skipping, so it wakes from its sleep */
  private skipping = false;

  constructor(private readonly host: SyncLoopHost) {}

  /** Pod syncs cannot run: the runtime is down, its errors stop the loop, or the loop still sleeps. */
  blocked(): boolean {
    const runtime = this.host.runtime;
    return !runtime.up || runtime.errors() !== undefined || this.resume !== undefined;
  }

  /** A pod sync that waits for the runtime (its latest object). */
  deferPod(pod: Pod): void {
    this.pods.set(pod.metadata.uid!, pod);
  }

  /** Run an action that needs the runtime now, or when the loop can again. */
  whenRuntime(action: () => void): void {
    if (this.blocked()) this.actions.push(action);
    else action();
  }

  /**
   * The runtime's errors began or cleared. Once it answers without errors, what waited runs: at
   * once if the loop never skipped, else within its back-off sleep (at most 5s after a long outage).
   */
  runtimeChanged(): void {
    const runtime = this.host.runtime;
    if (!runtime.up) return;
    if (runtime.errors()) {
      this.skipping = true;
      return;
    }
    if (this.resume) return;
    const sleep = this.skipping ? this.host.rng.uniform(0, SYNC_LOOP_BACKOFF_MAX) : 0;
    this.skipping = false;
    this.resume = this.host.engine.after(sleep, () => {
      this.resume = undefined;
      const pods = [...this.pods.values()];
      const actions = this.actions;
      this.pods.clear();
      this.actions = [];
      this.host.resync(pods);
      for (const action of actions) action();
    });
  }

  /** The kubelet process stops: what waited lived in its memory (a new one resyncs from the API). */
  stop(): void {
    this.host.engine.cancel(this.resume);
    this.resume = undefined;
    this.skipping = false;
    this.pods.clear();
    this.actions = [];
  }
}
