// One simulation seen as an API server sees its objects: the run stepped one virtual instant at a
// time (every engine event at that instant), and after each instant the served objects that changed.
// A change of one model object can change others the API derives from it (a pod changes its
// ReplicaSet's, Deployment's, StatefulSet's, DaemonSet's and PodDisruptionBudget's status), and a
// trace event can change its pod (container history) and record an Event. All writes within one
// instant are one change per object, as if the API server had seen the instant's last write.

import { ASSUMED_DEFAULT_CLASS } from "../controllers/persistentvolume-controller.ts";
import type { KubeObject, Pod } from "../kubernetes/objects.ts";
import { createSimulation, type Simulation, WARM_UP_SECONDS } from "../run/simulate.ts";
import type { Scenario } from "../scenario/types.ts";
import type { ApiObject, EventJ } from "./api-types.ts";
import { inputConfigObjects, namespaceDefaults, storageClassJ } from "./config-objects.ts";
import { type ConvertContext, convert, justBound, namespaceJ, SYSTEM_NAMESPACES } from "./convert.ts";
import { ContainerHistory } from "./convert-pod.ts";
import { DeploymentConditionMemory } from "./deployment-conditions.ts";

const ANN_DEFAULT_CLASS = "storageclass.kubernetes.io/is-default-class";

/**
 * How long after its binding a pod is shown Pending before ContainerCreating. The kubelet learns of
 * the pod from its watch and its status manager then posts the first status; the model does not
 * time that, so the pod is shown Pending at the instant it is bound and ContainerCreating one
 * millisecond later: the order a real watch sees, at about the same moment.
 */
const RECHECK_SECONDS = 0.001;

import { correlationKey, eventName, newEvent, repeatEvent } from "./event-objects.ts";
import { type Recorded, recordedFor } from "./events.ts";
import { findResource, type ResourceInfo } from "./resources.ts";

/** How each run of the scenario is made: its seed, and the engine's hard cap (src/run/budget.ts). */
export interface RunOptions {
  seed?: number;
  maxEvents?: number;
}

export interface Served {
  resource: ResourceInfo;
  object: ApiObject;
  /** the object's JSON, to tell a real change from a rewrite of the same state */
  body: string;
}

/** A served object that changed at an instant; `object` null when it was deleted. */
export interface Change {
  key: string;
  resource: ResourceInfo;
  object: ApiObject | null;
}

const MODEL_KINDS = [
  "Node",
  "Lease",
  "Pod",
  "Deployment",
  "ReplicaSet",
  "StatefulSet",
  "DaemonSet",
  "Service",
  "PersistentVolumeClaim",
  "PersistentVolume",
  "PodDisruptionBudget",
  "EndpointSlice",
  "VolumeAttachment",
  "StorageClass",
] as const;

/** The resource a served object is stored under (core v1 for Events: events.k8s.io/v1 is a view of them). */
export function resourceOf(o: ApiObject): ResourceInfo {
  const [group, version] = o.apiVersion.includes("/") ? o.apiVersion.split("/") : ["", o.apiVersion];
  const r =
    findResource(group!, version!, `${o.kind.toLowerCase()}s`) ??
    findResource(group!, version!, pluralOf(o.kind));
  if (!r) throw new Error(`no resource serves ${o.apiVersion} ${o.kind}`);
  return r;
}

function pluralOf(kind: string): string {
  const lower = kind.toLowerCase();
  return lower.endsWith("s") ? `${lower}es` : lower.endsWith("y") ? `${lower.slice(0, -1)}ies` : `${lower}s`;
}

export function storageKey(r: ResourceInfo, namespace: string | undefined, name: string): string {
  return `${r.group}/${r.resource}/${namespace ?? ""}/${name}`;
}

export class ClusterMirror {
  readonly sim: Simulation;
  readonly objects = new Map<string, Served>();
  private readonly cc: ConvertContext;
  private readonly dirty = new Set<KubeObject>();
  /** each Lease's renewTime at the last flush */
  private readonly leaseSeen = new WeakMap<KubeObject, number>();
  private traceCursor = 0;
  /** pods bound at the instant last flushed, to convert again at recheckAt */
  private readonly justBound = new Set<Pod>();
  private recheckAt = 0;
  /** each pod is looked at again once */
  private readonly rechecked = new WeakSet<Pod>();
  /** correlation key → storage key of the Event it merges into */
  private readonly correlated = new Map<string, string>();
  private pending: Change[] = [];

  constructor(scenario: Scenario, run: RunOptions = {}) {
    this.sim = createSimulation(scenario, {
      ...(run.seed !== undefined ? { seed: run.seed } : {}),
      ...(run.maxEvents !== undefined ? { engine: { maxEvents: run.maxEvents } } : {}),
    });
    this.cc = {
      ctx: this.sim.ctx,
      history: new ContainerHistory(),
      deployments: new DeploymentConditionMemory(),
    };
    for (const ns of SYSTEM_NAMESPACES) this.ensureNamespace(ns);
    for (const o of inputConfigObjects(scenario.ignored, -WARM_UP_SECONDS)) this.put(o);
    const store = this.sim.store;
    if (!store.list("StorageClass").some((c) => c.metadata.annotations?.[ANN_DEFAULT_CLASS] === "true"))
      this.put(
        storageClassJ(this.cc, {
          ...ASSUMED_DEFAULT_CLASS,
          metadata: { ...ASSUMED_DEFAULT_CLASS.metadata, creationTimestamp: -WARM_UP_SECONDS },
        }),
      );
    for (const kind of MODEL_KINDS) for (const obj of this.sim.store.list(kind)) this.dirty.add(obj);
    this.flush();
    this.sim.store.observe((obj) => this.dirty.add(obj));
  }

  get now(): number {
    return this.sim.engine.now;
  }

  /** The changes made so far and not yet taken (the initial state, at first). */
  take(): Change[] {
    const out = this.pending;
    this.pending = [];
    return out;
  }

  /**
   * Run the next instant that has engine events, if it is at or before `until`, and return its
   * changes; otherwise move the clock to `until` and return null.
   */
  step(until: number): Change[] | null {
    const next = this.sim.engine.nextAt();
    // A pod bound at the last instant is converted again a millisecond later (convert.ts justBound).
    const recheck = this.justBound.size > 0 ? this.recheckAt : Number.POSITIVE_INFINITY;
    if (recheck > this.now && recheck < next && recheck <= until) {
      this.sim.runUntil(recheck);
      this.flush();
      return this.take();
    }
    if (next > until) {
      this.sim.runUntil(until);
      return null;
    }
    // The handle's runUntil only moves the clock forward; events due at the current instant (the
    // writes of t=0, a step's instant) run on the engine itself.
    if (next > this.now) this.sim.runUntil(next);
    else this.sim.engine.run(next);
    this.flush();
    return this.take();
  }

  private flush(): void {
    const ctx = this.sim.ctx;
    // Pods bound at the last instant flushed: their kubelet has posted ContainerCreating since (convert.ts justBound).
    if (this.justBound.size > 0 && this.now >= this.recheckAt) {
      for (const p of this.justBound) this.dirty.add(p);
      this.justBound.clear();
    }
    const trace = this.sim.trace.events;
    for (; this.traceCursor < trace.length; this.traceCursor++) {
      const e = trace[this.traceCursor]!;
      this.cc.history.add(e);
      const named = this.modelObject(e.object);
      if (named) this.dirty.add(named);
      for (const r of recordedFor(ctx, e)) this.record(r);
    }
    // A healthy kubelet's renewals are computed, not written (kubelet/node-lease.ts): a Lease whose
    // renewTime moved since the last flush changed (seen at the next instant the engine runs).
    for (const lease of this.sim.store.list("Lease")) {
      const t = lease.spec.renewTime;
      if (this.leaseSeen.get(lease) === t) continue;
      this.leaseSeen.set(lease, t);
      this.dirty.add(lease);
    }
    if (this.dirty.size === 0) return;
    const objs = [...this.dirty];
    this.dirty.clear();
    for (const o of objs) for (const d of this.dependents(o)) this.dirty.add(d);
    for (const o of objs) this.dirty.add(o);
    const all = [...this.dirty];
    this.dirty.clear();
    // Deletions first, so that a pod recreated under its old name at the same instant is a DELETED then an ADDED.
    for (const o of all) if (!this.sim.store.exists(o)) for (const a of convert(this.cc, o)) this.remove(a);
    for (const o of all) if (this.sim.store.exists(o)) for (const a of convert(this.cc, o)) this.put(a);
    for (const o of all)
      if (o.kind === "Pod" && !this.rechecked.has(o) && this.sim.store.exists(o) && justBound(this.cc, o)) {
        this.justBound.add(o);
        this.rechecked.add(o);
        this.recheckAt = this.now + RECHECK_SECONDS;
      }
  }

  private modelObject(ref: string): KubeObject | undefined {
    const i = ref.indexOf("/");
    const kind = ref.slice(0, i) as KubeObject["kind"];
    if (!(MODEL_KINDS as readonly string[]).includes(kind)) return undefined;
    return this.sim.store.get(kind, ref.slice(i + 1));
  }

  /** The objects whose served status a change of `o` can change. */
  private dependents(o: KubeObject): KubeObject[] {
    const store = this.sim.store;
    const out: KubeObject[] = [];
    const ns = o.metadata.namespace ?? "";
    const ownerOf = (x: KubeObject) => x.metadata.ownerReferences?.find((r) => r.controller !== false);
    if (o.kind === "Pod") {
      const owner = ownerOf(o);
      const ownerObj = owner && store.get(owner.kind as "ReplicaSet", `${ns}/${owner.name}`);
      if (ownerObj) {
        out.push(ownerObj);
        const dep = ownerObj.kind === "ReplicaSet" ? ownerOf(ownerObj) : undefined;
        const depObj = dep && store.get("Deployment", `${ns}/${dep.name}`);
        if (depObj) out.push(depObj);
      }
      for (const pdb of store.list("PodDisruptionBudget")) if (pdb.metadata.namespace === ns) out.push(pdb);
    } else if (o.kind === "ReplicaSet") {
      const dep = ownerOf(o);
      const depObj = dep && store.get("Deployment", `${ns}/${dep.name}`);
      if (depObj) out.push(depObj);
    } else if (o.kind === "Node") {
      out.push(...store.list("DaemonSet"));
    } else if (o.kind === "Service") {
      const key = `${ns}/${o.metadata.name}`;
      out.push(...store.list("EndpointSlice").filter((es) => es.service === key));
    }
    return out;
  }

  private ensureNamespace(ns: string): void {
    const r = findResource("", "v1", "namespaces")!;
    const key = storageKey(r, undefined, ns);
    if (this.objects.has(key)) return;
    this.set(key, r, namespaceJ(ns, -WARM_UP_SECONDS));
    for (const o of namespaceDefaults(ns, -WARM_UP_SECONDS)) this.put(o);
  }

  private set(key: string, resource: ResourceInfo, object: ApiObject): void {
    const body = JSON.stringify(object);
    if (this.objects.get(key)?.body === body) return;
    this.objects.set(key, { resource, object, body });
    this.pending.push({ key, resource, object });
  }

  private put(a: ApiObject): void {
    if (a.metadata.namespace) this.ensureNamespace(a.metadata.namespace);
    const r = resourceOf(a);
    this.set(storageKey(r, a.metadata.namespace, a.metadata.name), r, a);
  }

  private remove(a: ApiObject): void {
    const r = resourceOf(a);
    const key = storageKey(r, a.metadata.namespace, a.metadata.name);
    const current = this.objects.get(key);
    // Only the incarnation that was deleted: a new one under the same name has another UID.
    if (!current || current.object.metadata.uid !== a.metadata.uid) return;
    this.objects.delete(key);
    this.pending.push({ key, resource: r, object: null });
  }

  private record(r: Recorded): void {
    const ck = correlationKey(r);
    const existing = this.correlated.get(ck);
    const current = existing ? this.objects.get(existing) : undefined;
    if (existing && current) {
      this.set(existing, current.resource, repeatEvent(current.object as EventJ, r));
      return;
    }
    const resource = findResource("", "v1", "events")!;
    const ns = r.involved.namespace || "default";
    const name = eventName(r, (n) => this.objects.has(storageKey(resource, ns, n)));
    const key = storageKey(resource, ns, name);
    this.correlated.set(ck, key);
    this.ensureNamespace(ns);
    this.set(key, resource, newEvent(r, name));
  }
}
