// The cluster the server serves: the mirror of the simulation at the virtual now, with resource
// versions, a change log for watches, and the clock the user controls (frozen, playing at a speed,
// seeking). Resource versions only grow, across seeks too: seeking back re-runs the scenario from
// the start (it is deterministic) and serves the difference as ordinary changes. Watchers that
// resume from a version older than the log answer 410 Gone, as an API server whose watch cache has
// moved on does, and clients relist.

import { EventBudgetExceeded } from "../engine/engine.ts";
import type { Scenario } from "../scenario/types.ts";
import type { ApiObject } from "./api-types.ts";
import { type Change, ClusterMirror, type RunOptions } from "./mirror.ts";
import type { ResourceInfo } from "./resources.ts";

export type WatchType = "ADDED" | "MODIFIED" | "DELETED";

export interface Entry {
  resource: ResourceInfo;
  object: ApiObject;
}

interface LogEntry {
  rv: number;
  resource: ResourceInfo;
  old: ApiObject | undefined;
  object: ApiObject;
  deleted: boolean;
}

export interface Subscriber {
  resource: ResourceInfo;
  namespace: string | undefined;
  match(o: ApiObject): boolean;
  send(type: WatchType, o: ApiObject): void;
}

export class ExpiredError extends Error {}

/** How many changes the watch log keeps (a watch cache's window). */
const LOG_LIMIT = 100_000;
/** How often a playing clock advances, in wall milliseconds. */
const TICK_MS = 50;

export class ServedCluster {
  private mirror: ClusterMirror;
  private rv = 0;
  private readonly entries = new Map<string, Entry>();
  private log: LogEntry[] = [];
  /** the oldest resourceVersion a watch may resume from */
  private oldest = 0;
  private readonly subscribers = new Set<Subscriber>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private speed = 0;
  private anchorWall = 0;
  private anchorVirtual = 0;
  /** What stopped the run short (its event budget), if anything did. */
  stoppedBy: EventBudgetExceeded | undefined;

  constructor(
    readonly scenario: Scenario,
    private readonly run: RunOptions = {},
    private readonly wallClock: () => number = () => performance.now(),
  ) {
    this.mirror = new ClusterMirror(scenario, run);
    for (const c of this.mirror.take()) this.apply(c);
    this.oldest = this.rv;
  }

  get now(): number {
    return this.mirror.now;
  }

  get duration(): number {
    return this.scenario.duration;
  }

  get stopped(): string | undefined {
    return this.stoppedBy?.message;
  }

  get playing(): boolean {
    return this.timer !== undefined;
  }

  get playSpeed(): number {
    return this.speed;
  }

  get resourceVersion(): string {
    return String(this.rv);
  }

  get kubernetesVersion(): string {
    return this.mirror.sim.ctx.versionString;
  }

  /** Step forward to virtual time t (at most the scenario's duration), serving every instant's changes. */
  advanceTo(t: number): void {
    if (this.stoppedBy) return;
    const until = Math.min(t, this.duration);
    try {
      while (until > this.now || this.mirror.sim.engine.nextAt() <= until) {
        const changes = this.mirror.step(until);
        if (changes === null) break;
        for (const c of changes) this.apply(c);
      }
    } catch (error) {
      if (!(error instanceof EventBudgetExceeded)) throw error;
      // The run went past its budget: it stops where it is, served as it was; a seek back starts a new run.
      this.stoppedBy = error;
      this.pause();
    }
  }

  /** Move the view to virtual time t; back in time re-runs the scenario from the start. */
  seek(t: number): void {
    const target = Math.max(0, Math.min(t, this.duration));
    if (target >= this.now) {
      this.advanceTo(target);
    } else {
      const fresh = new ClusterMirror(this.scenario, this.run);
      fresh.take();
      this.stoppedBy = undefined;
      try {
        while (fresh.step(target) !== null);
      } catch (error) {
        if (!(error instanceof EventBudgetExceeded)) throw error;
        this.stoppedBy = error;
      }
      this.mirror = fresh;
      const seen = new Set<string>();
      const changes: Change[] = [];
      for (const [key, s] of fresh.objects) {
        seen.add(key);
        const current = this.entries.get(key);
        if (!current || JSON.stringify(stripRv(current.object)) !== s.body)
          changes.push({ key, resource: s.resource, object: s.object });
      }
      for (const [key, e] of this.entries)
        if (!seen.has(key)) changes.push({ key, resource: e.resource, object: null });
      // Watchers cannot resume across a seek back: the log restarts here.
      this.log = [];
      for (const c of changes) this.apply(c);
      this.oldest = this.rv;
    }
    if (this.playing) this.anchor();
  }

  /** Play from the current virtual time at `speed` × wall time. */
  play(speed: number): void {
    this.speed = speed;
    this.anchor();
    if (this.timer) return;
    this.timer = setInterval(() => this.tick(), TICK_MS);
  }

  pause(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private anchor(): void {
    this.anchorWall = this.wallClock();
    this.anchorVirtual = this.now;
  }

  private tick(): void {
    const target = this.anchorVirtual + ((this.wallClock() - this.anchorWall) / 1000) * this.speed;
    this.advanceTo(target);
    if (this.now >= this.duration || this.stoppedBy) this.pause();
  }

  list(resource: ResourceInfo, namespace: string | undefined): ApiObject[] {
    const out: ApiObject[] = [];
    for (const e of this.entries.values()) {
      if (e.resource !== resource) continue;
      if (namespace !== undefined && e.object.metadata.namespace !== namespace) continue;
      out.push(e.object);
    }
    return out.sort(
      (a, b) =>
        compare(a.metadata.namespace ?? "", b.metadata.namespace ?? "") ||
        compare(a.metadata.name, b.metadata.name),
    );
  }

  get(resource: ResourceInfo, namespace: string | undefined, name: string): ApiObject | undefined {
    return this.entries.get(`${resource.group}/${resource.resource}/${namespace ?? ""}/${name}`)?.object;
  }

  /**
   * Start a watch. From a resourceVersion: every change after it, then live; without one (or "0"):
   * ADDED for every object now, then live. Returns the function that ends it.
   */
  watch(sub: Subscriber, fromRv: number | undefined): () => void {
    if (fromRv === undefined) {
      for (const o of this.list(sub.resource, sub.namespace)) if (sub.match(o)) sub.send("ADDED", o);
    } else {
      if (fromRv < this.oldest)
        throw new ExpiredError(`too old resource version: ${fromRv} (${this.oldest})`);
      for (const e of this.log) if (e.rv > fromRv) deliver(sub, e);
    }
    this.subscribers.add(sub);
    return () => this.subscribers.delete(sub);
  }

  get watchers(): number {
    return this.subscribers.size;
  }

  close(): void {
    this.pause();
    this.subscribers.clear();
  }

  private apply(c: Change): void {
    const old = this.entries.get(c.key);
    if (c.object === null) {
      if (!old) return;
      this.entries.delete(c.key);
      const object = withRv(old.object, ++this.rv);
      this.append({ rv: this.rv, resource: c.resource, old: old.object, object, deleted: true });
      return;
    }
    const object = withRv(c.object, ++this.rv);
    this.entries.set(c.key, { resource: c.resource, object });
    this.append({ rv: this.rv, resource: c.resource, old: old?.object, object, deleted: false });
  }

  private append(e: LogEntry): void {
    this.log.push(e);
    // Trimmed by halves of the window, so that appending stays cheap.
    if (this.log.length > LOG_LIMIT * 1.5) {
      const drop = this.log.length - LOG_LIMIT;
      this.oldest = this.log[drop - 1]!.rv;
      this.log = this.log.slice(drop);
    }
    for (const s of this.subscribers) {
      try {
        deliver(s, e);
      } catch {
        // A watcher that cannot take an event (its connection broke) is dropped; the clock goes on.
        this.subscribers.delete(s);
      }
    }
  }
}

function deliver(s: Subscriber, e: LogEntry): void {
  if (s.resource !== e.resource) return;
  if (s.namespace !== undefined && e.object.metadata.namespace !== s.namespace) return;
  const was = e.old !== undefined && s.match(e.old);
  if (e.deleted) {
    if (was) s.send("DELETED", e.object);
    return;
  }
  const is = s.match(e.object);
  // A watch with a selector sees an object that stops matching as DELETED, one that starts as ADDED.
  if (is) s.send(was ? "MODIFIED" : "ADDED", e.object);
  else if (was) s.send("DELETED", e.object);
}

function withRv(o: ApiObject, rv: number): ApiObject {
  return { ...o, metadata: { ...o.metadata, resourceVersion: String(rv) } };
}

function stripRv(o: ApiObject): ApiObject {
  const { resourceVersion: _rv, ...metadata } = o.metadata;
  return { ...o, metadata };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
