// The ownerReferences of a dump's objects, checked as a graph. The API server checks each reference
// on its own (apimachinery pkg/apis/meta/v1/validation ValidateOwnerReferences: apiVersion, kind,
// name and uid set, at most one controller), not what they form together, so a dump can hold an
// object that owns itself or a ring of owners. No controller makes either (a Deployment owns its
// ReplicaSets, a ReplicaSet its Pods, each created with its owner set), the garbage collector never
// collects a ring with no owner outside it, and the run could not tell which object manages the
// pods: both are located errors.

import { fail, isObj } from "../check.ts";
import type { Path, SourceDoc } from "../source.ts";

interface Owned {
  key: string;
  uid?: string;
  /** Each reference: the owner's uid and kind/namespace/name, where it stands. */
  refs: { uid?: string; key: string; at: Path }[];
  src: SourceDoc;
}

export class OwnerGraph {
  private readonly objects: Owned[] = [];
  private readonly byKey = new Map<string, number>();
  private readonly byUid = new Map<string, number>();

  /** An object of the dump (kind, metadata) at `path`. */
  add(src: SourceDoc, path: Path, kind: string, value: unknown): void {
    if (!isObj(value) || !isObj(value.metadata)) return;
    const meta = value.metadata;
    if (typeof meta.name !== "string") return;
    // ownerReferences name an owner in the same namespace (or a cluster-scoped one).
    const namespace = typeof meta.namespace === "string" ? meta.namespace : "";
    const key = `${kind} ${namespace ? `${namespace}/` : ""}${meta.name}`;
    const refs: Owned["refs"] = [];
    const raw = Array.isArray(meta.ownerReferences) ? meta.ownerReferences : [];
    raw.forEach((r, i) => {
      if (!isObj(r) || typeof r.kind !== "string" || typeof r.name !== "string") return;
      refs.push({
        key: `${r.kind} ${namespace ? `${namespace}/` : ""}${r.name}`,
        ...(typeof r.uid === "string" && r.uid !== "" ? { uid: r.uid } : {}),
        at: [...path, "metadata", "ownerReferences", i],
      });
    });
    const index = this.objects.length;
    const uid = typeof meta.uid === "string" && meta.uid !== "" ? meta.uid : undefined;
    this.objects.push({ key, ...(uid ? { uid } : {}), refs, src });
    if (!this.byKey.has(key)) this.byKey.set(key, index);
    if (uid && !this.byUid.has(uid)) this.byUid.set(uid, index);
  }

  /** The owner a reference names, when the dump holds it: by uid when the reference has one, as the garbage collector matches. */
  private owner(ref: Owned["refs"][number]): number | undefined {
    return ref.uid ? this.byUid.get(ref.uid) : this.byKey.get(ref.key);
  }

  /** Refuses the first object that owns itself, then the first ring of owners (in the dump's order). */
  check(): void {
    for (const [i, o] of this.objects.entries())
      for (const ref of o.refs)
        if (this.owner(ref) === i)
          fail(
            o.src,
            ref.at,
            "invalid-value",
            `${o.key} names itself as its owner; no controller makes such an object (the API server checks each reference's fields, not whom it names)`,
          );
    // Depth-first over owner edges, iterative (a chain may be as long as the dump): 1 on the path, 2 done.
    const state = new Uint8Array(this.objects.length);
    for (let start = 0; start < this.objects.length; start++) {
      if (state[start] !== 0) continue;
      const stack: { node: number; next: number }[] = [{ node: start, next: 0 }];
      state[start] = 1;
      while (stack.length > 0) {
        const top = stack[stack.length - 1]!;
        const o = this.objects[top.node]!;
        if (top.next >= o.refs.length) {
          state[top.node] = 2;
          stack.pop();
          continue;
        }
        const ref = o.refs[top.next++]!;
        const to = this.owner(ref);
        if (to === undefined || state[to] === 2) continue;
        if (state[to] === 1) this.ring(stack, to, o, ref.at);
        state[to] = 1;
        stack.push({ node: to, next: 0 });
      }
    }
  }

  private ring(stack: { node: number }[], to: number, last: Owned, at: Path): never {
    const from = stack.findIndex((s) => s.node === to);
    const names = [...stack.slice(from).map((s) => this.objects[s.node]!.key), this.objects[to]!.key];
    fail(
      last.src,
      at,
      "invalid-value",
      `a ring of owners: ${names.join(" is owned by ")}; no controller makes one, and the run could not tell which of them manages what they own`,
    );
  }
}
