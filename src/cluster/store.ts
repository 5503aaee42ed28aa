// The API server's object store: get / list / watch, with the indexes controllers need
// (pods by node, pods by owner). Writes are visible at once; watchers are told through the
// engine at the same virtual instant, in write order, as informers deliver events after the write.

import type { Engine, Timer } from "../engine/engine.ts";
import type { Kind, KubeObject, OwnerReference, Pod } from "../kubernetes/objects.ts";

export type ObjectOf<K extends Kind> = Extract<KubeObject, { kind: K }>;
export type WatchEventType = "ADDED" | "MODIFIED" | "DELETED";
export type Watcher<K extends Kind> = (type: WatchEventType, obj: ObjectOf<K>) => void;

export function keyOf(obj: KubeObject): string {
  return obj.metadata.namespace ? `${obj.metadata.namespace}/${obj.metadata.name}` : obj.metadata.name;
}

/**
 * keyOf as one flat string, for a key kept for the run (the store's map and sorted keys): a
 * concatenation is a 32-byte cons string over its parts, which a Map's hashing flattens into a
 * second string beside it. Joined, which costs more than a concatenation: only where it is kept.
 */
function flatKeyOf(obj: KubeObject): string {
  return obj.metadata.namespace ? [obj.metadata.namespace, obj.metadata.name].join("/") : obj.metadata.name;
}

/** `Pod/default/web-abc`, `Node/worker-1`: how the trace names an object. */
export function ref(obj: KubeObject): string {
  return `${obj.kind}/${keyOf(obj)}`;
}

/**
 * Controller keys by ownerReferences array, built once: every watcher asks it of every pod write,
 * and the pods of one template share their array (controllers/pod-template.ts), so they share one
 * key too. The namespace is part of the key: kept with it, checked on each use.
 */
const controllers = new WeakMap<readonly OwnerReference[], { namespace: string; key: string | undefined }>();

/** `ReplicaSet/<ns>/<name>`: the object's controlling owner (ownerReferences are set at creation, never changed). */
export function controllerOf(obj: KubeObject): string | undefined {
  const refs = obj.metadata.ownerReferences;
  if (!refs) return undefined;
  const namespace = obj.metadata.namespace ?? "";
  const cached = controllers.get(refs);
  if (cached?.namespace === namespace) return cached.key;
  const owner = refs.find((o) => o.controller !== false);
  const key = owner ? `${owner.kind}/${namespace}/${owner.name}` : undefined;
  controllers.set(refs, { namespace, key });
  return key;
}

/**
 * Per-object state a watcher keeps (was this pod active, on which node did it last see it), in an
 * array indexed by the object's serial number in the store: a read per watch event instead of a
 * hash lookup by uid in a map as large as the cluster's pods. For objects of this store only.
 */
export class BySerial<T> {
  private readonly values: (T | undefined)[] = [];

  constructor(private readonly store: Store) {}

  get(obj: KubeObject): T | undefined {
    return this.values[this.store.serialOf(obj)!];
  }

  set(obj: KubeObject, value: T | undefined): void {
    const i = this.store.serialOf(obj)!;
    // Grown element by element: the array stays dense (a store far past its end would make it sparse).
    while (this.values.length <= i) this.values.push(undefined);
    this.values[i] = value;
  }
}

export class Store {
  private objects = new Map<Kind, Map<string, KubeObject>>();
  private watchers = new Map<Kind, Watcher<Kind>[]>();
  private podsByNode = new Map<string, Set<Pod>>();
  private podsByOwner = new Map<string, Set<Pod>>();
  /**
   * Each object's serial number in this store, under this store's own key (a hidden, non-enumerable
   * property: not data; an object never stored here has none), and whether the object with that
   * serial is stored: exists() reads a byte instead of hashing into a set of every object.
   */
  private readonly serialKey = Symbol("serial");
  private serial = 0;
  private alive = new Uint8Array(1024);
  /** nodesWithPods(), until a node's set of pods becomes empty or not empty */
  private nodesWithPodsCache: string[] | undefined;
  private uid = 0;
  private observers: ((obj: KubeObject, previousNodeName?: string) => void)[] = [];
  private sortedCache = new Map<Kind, KubeObject[]>();
  /** Each kind's keys in order as of its last list(), and the keys created since (merged in, not re-sorted). */
  private sortedKeys = new Map<Kind, string[]>();
  private addedKeys = new Map<Kind, string[]>();
  /** the watch events written since the last engine event was scheduled (notify) */
  private deliveries: Deliveries | undefined;
  /** a delivered batch, empty, whose timer may be re-armed for the next one (notify) */
  private spare: Deliveries | undefined;
  /** Nodes deleted so far: a reader that found every node it needs stored knows none went since */
  private nodesDeleted = 0;

  constructor(private readonly engine: Engine) {}

  get<K extends Kind>(kind: K, key: string): ObjectOf<K> | undefined {
    return this.objects.get(kind)?.get(key) as ObjectOf<K> | undefined;
  }

  /** Every object of a kind, in key order (a stable order for deterministic models). Do not mutate the array. */
  list<K extends Kind>(kind: K): ObjectOf<K>[] {
    const cached = this.sortedCache.get(kind);
    if (cached) return cached as ObjectOf<K>[];
    const m = this.objects.get(kind);
    if (!m) return [];
    const before = this.sortedKeys.get(kind);
    const added = this.addedKeys.get(kind);
    const keys: string[] = [];
    const list: ObjectOf<K>[] = [];
    const keep = (k: string) => {
      const obj = m.get(k);
      if (obj && keys[keys.length - 1] !== k) {
        keys.push(k);
        list.push(obj as ObjectOf<K>);
      }
    };
    if (!before) for (const k of [...m.keys()].sort()) keep(k);
    else {
      // The keys of the last list, those deleted since skipped, merged with the new ones sorted
      // (a key deleted and created again is in both: kept once, with its object now).
      const fresh = (added ?? []).sort();
      let i = 0;
      let j = 0;
      while (i < before.length || j < fresh.length)
        keep(j >= fresh.length || (i < before.length && before[i]! < fresh[j]!) ? before[i++]! : fresh[j++]!);
    }
    this.sortedKeys.set(kind, keys);
    this.addedKeys.delete(kind);
    this.sortedCache.set(kind, list);
    return list;
  }

  /** The keys (`<namespace>/<name>`) of `list(kind)`, in its order: a reader of every object need not build them again. */
  keys(kind: Kind): readonly string[] {
    // list() rebuilds the keys whenever its cache was dropped, so these are always its keys.
    this.list(kind);
    return this.sortedKeys.get(kind) ?? [];
  }

  count(kind: Kind): number {
    return this.objects.get(kind)?.size ?? 0;
  }

  podsOnNode(node: string): Pod[] {
    return sortPods(this.podsByNode.get(node));
  }

  /** The pods a controller owns, unsorted (counting needs no order). */
  podSetOwnedBy(owner: string): ReadonlySet<Pod> {
    return this.podsByOwner.get(owner) ?? EMPTY;
  }

  podsOwnedBy(owner: string): Pod[] {
    return sortPods(this.podsByOwner.get(owner));
  }

  /**
   * A synchronous observer of every write, for caches that must never lag the store (the
   * scheduler's node info). Observers only read; models react through `watch`.
   */
  observe(fn: (obj: KubeObject, previousNodeName?: string) => void): void {
    this.observers.push(fn);
  }

  /** The names of the nodes some pod is bound to (existing or not), sorted. */
  /** How many Nodes were deleted so far. */
  nodeDeletions(): number {
    return this.nodesDeleted;
  }

  /** The names of the nodes that have pods, sorted: the same array until that set changes. */
  nodesWithPods(): readonly string[] {
    if (this.nodesWithPodsCache) return this.nodesWithPodsCache;
    const out: string[] = [];
    for (const [node, pods] of this.podsByNode) if (pods.size > 0) out.push(node);
    this.nodesWithPodsCache = out.sort();
    return out;
  }

  /** The pods bound to a node, unsorted (for caches; models use podsOnNode). */
  podSetOnNode(node: string): ReadonlySet<Pod> {
    return this.podsByNode.get(node) ?? EMPTY;
  }

  watch<K extends Kind>(kind: K, watcher: Watcher<K>): void {
    const list = this.watchers.get(kind) ?? [];
    list.push(watcher as unknown as Watcher<Kind>);
    this.watchers.set(kind, list);
  }

  create<T extends KubeObject>(obj: T): T {
    const m = this.objects.get(obj.kind) ?? new Map<string, KubeObject>();
    this.objects.set(obj.kind, m);
    const key = flatKeyOf(obj);
    if (m.has(key)) throw new Error(`${obj.kind} ${key} already exists`);
    obj.metadata.uid ??= `uid-${++this.uid}`;
    const serial = ++this.serial;
    Object.defineProperty(obj, this.serialKey, { value: serial, writable: true, configurable: true });
    if (serial >= this.alive.length) {
      const grown = new Uint8Array(this.alive.length * 2);
      grown.set(this.alive);
      this.alive = grown;
    }
    this.alive[serial] = 1;
    obj.metadata.creationTimestamp ??= this.engine.now;
    m.set(key, obj);
    this.sortedCache.delete(obj.kind);
    if (this.sortedKeys.has(obj.kind)) {
      const added = this.addedKeys.get(obj.kind);
      if (added) added.push(key);
      else this.addedKeys.set(obj.kind, [key]);
    }
    if (obj.kind === "Pod") this.indexPod(obj, true);
    this.notify("ADDED", obj);
    return obj;
  }

  /** The object was changed in place by its writer; index and tell the watchers. */
  update(obj: KubeObject, previousNodeName?: string): void {
    if (obj.kind === "Pod" && previousNodeName !== obj.spec.nodeName) {
      if (previousNodeName) this.unbind(obj, previousNodeName);
      if (obj.spec.nodeName) this.bind(obj, obj.spec.nodeName);
    }
    this.notify("MODIFIED", obj, previousNodeName);
  }

  delete(obj: KubeObject): void {
    const m = this.objects.get(obj.kind);
    const key = keyOf(obj);
    const stored = m?.get(key);
    if (!m || !stored) return;
    m.delete(key);
    if (stored.kind === "Node") this.nodesDeleted++;
    this.alive[this.serialOf(stored)!] = 0;
    this.sortedCache.delete(obj.kind);
    // The stored object, which may not be `obj` itself (an equal copy, its key): it leaves the
    // indexes, and watchers keeping state by its serial (BySerial) get the object they saw.
    if (stored.kind === "Pod") this.indexPod(stored, false);
    this.notify("DELETED", stored);
  }

  exists(obj: KubeObject): boolean {
    const serial = this.serialOf(obj);
    return serial !== undefined && this.alive[serial] === 1;
  }

  /** The object's serial number in this store (undefined if never stored here): see BySerial. */
  serialOf(obj: KubeObject): number | undefined {
    return (obj as unknown as Record<symbol, number | undefined>)[this.serialKey];
  }

  private indexPod(pod: Pod, add: boolean): void {
    const owner = controllerOf(pod);
    if (add) {
      if (pod.spec.nodeName) this.bind(pod, pod.spec.nodeName);
      if (owner) setOf(this.podsByOwner, owner).add(pod);
    } else {
      if (pod.spec.nodeName) this.unbind(pod, pod.spec.nodeName);
      if (owner) this.podsByOwner.get(owner)?.delete(pod);
    }
  }

  private bind(pod: Pod, node: string): void {
    const pods = setOf(this.podsByNode, node);
    if (pods.size === 0) this.nodesWithPodsCache = undefined;
    pods.add(pod);
  }

  private unbind(pod: Pod, node: string): void {
    const pods = this.podsByNode.get(node);
    if (pods?.delete(pod) && pods.size === 0) this.nodesWithPodsCache = undefined;
  }

  private notify(type: WatchEventType, obj: KubeObject, previousNodeName?: string): void {
    for (const o of this.observers) o(obj, previousNodeName);
    const list = this.watchers.get(obj.kind);
    if (!list || list.length === 0) return;
    // Writes in a row with nothing scheduled between them share one engine event, delivered in
    // write order: the order one event per write gives, without a closure per write.
    let batch = this.deliveries;
    if (!batch || !this.engine.lastOfInstant(batch.timer)) {
      // The spare batch, delivered and emptied, with its timer re-armed (engine.rearm: the place a
      // new event gets): a write after quiet allocates no batch, arrays, closure or timer.
      const spare = this.spare;
      if (spare) {
        this.spare = undefined;
        this.engine.rearm(spare.timer, this.engine.now);
        this.deliveries = batch = spare;
      } else {
        const next: Deliveries = { types: [], objects: [], lists: [], timer: undefined! };
        next.timer = this.engine.at(this.engine.now, () => this.deliver(next));
        this.deliveries = batch = next;
      }
    }
    batch.types.push(type);
    batch.objects.push(obj);
    batch.lists.push(list);
  }

  private deliver(batch: Deliveries): void {
    if (this.deliveries === batch) this.deliveries = undefined;
    for (let i = 0; i < batch.objects.length; i++) {
      const type = batch.types[i]!;
      const obj = batch.objects[i]!;
      for (const w of batch.lists[i]!) w(type, obj);
    }
    // Its timer has run and is queued no more: kept, emptied, for the next batch.
    batch.types.length = 0;
    batch.objects.length = 0;
    batch.lists.length = 0;
    this.spare = batch;
  }
}

/** Watch events waiting for their delivery, one engine event for them all. */
interface Deliveries {
  types: WatchEventType[];
  objects: KubeObject[];
  lists: Watcher<Kind>[][];
  timer: Timer;
}

const EMPTY: ReadonlySet<Pod> = new Set();

function setOf<T>(m: Map<string, Set<T>>, key: string): Set<T> {
  let s = m.get(key);
  if (!s) {
    s = new Set();
    m.set(key, s);
  }
  return s;
}

function sortPods(set: Set<Pod> | undefined): Pod[] {
  if (!set) return [];
  // Each key built once, not twice per comparison.
  const keyed = [...set].map((pod) => ({ key: keyOf(pod), pod }));
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return keyed.map((k) => k.pod);
}
