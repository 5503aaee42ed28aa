// The store's list() is every stored object of a kind in key order, whatever creates and deletes came
// between two lists (the keys of the last list are merged with the new ones, not sorted again), and
// exists() is true exactly while the object itself is stored (not another object of the same key,
// not an object of another store); delete() by an equal copy deletes the stored object, from its
// indexes too, and its watchers are told of the object they saw.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Store } from "../../src/cluster/store.ts";
import { Engine } from "../../src/engine/engine.ts";
import type { Pod, Service } from "../../src/kubernetes/objects.ts";

const service = (name: string): Service => ({
  kind: "Service",
  metadata: { name, namespace: "default" },
  spec: { selector: { app: name }, ports: [{ port: 80 }] },
});

const step = fc.oneof(
  fc.record({
    op: fc.constant("create" as const),
    name: fc.constantFrom("a", "b", "c", "d", "e", "f", "B", "a0"),
  }),
  fc.record({
    op: fc.constant("delete" as const),
    name: fc.constantFrom("a", "b", "c", "d", "e", "f", "B", "a0"),
  }),
  fc.record({ op: fc.constant("list" as const) }),
);

describe("store indexes", () => {
  it("list() is the stored objects in key order after any creates and deletes", () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        const store = new Store(new Engine(1));
        const stored = new Map<string, Service>();
        const check = () => {
          const keys = [...stored.keys()].sort();
          const expected = keys.map((k) => stored.get(k));
          expect(store.list("Service")).toEqual(expected);
          expect(store.keys("Service")).toEqual(keys.map((k) => `default/${k}`));
          for (const [i, s] of store.list("Service").entries()) expect(s).toBe(expected[i]);
        };
        for (const s of steps) {
          if (s.op === "list") check();
          else if (s.op === "create" && !stored.has(s.name))
            stored.set(s.name, store.create(service(s.name)));
          else if (s.op === "delete" && stored.has(s.name)) {
            store.delete(stored.get(s.name)!);
            stored.delete(s.name);
          }
        }
        check();
      }),
    );
  });

  it("exists() holds for the stored object only", () => {
    const store = new Store(new Engine(1));
    const other = new Store(new Engine(1));
    const a = store.create(service("a"));
    const copy = service("a");
    expect(store.exists(a)).toBe(true);
    expect(store.exists(copy)).toBe(false);
    other.create(copy);
    expect(store.exists(copy)).toBe(false);
    store.delete(a);
    expect(store.exists(a)).toBe(false);
    expect(other.exists(copy)).toBe(true);
    const again = store.create(service("a"));
    expect(store.exists(again)).toBe(true);
    expect(store.exists(a)).toBe(false);
  });

  it("delete() by an equal copy removes the stored object from the indexes and tells the watchers of it", () => {
    const engine = new Engine(1);
    const store = new Store(engine);
    const pod = (): Pod =>
      ({
        kind: "Pod",
        metadata: { name: "p", namespace: "default" },
        spec: { nodeName: "n1", containers: [] },
        status: { phase: "Running", conditions: [], containerStatuses: [] },
      }) as unknown as Pod;
    const stored = store.create(pod());
    const deleted: Pod[] = [];
    store.watch("Pod", (type, p) => {
      if (type === "DELETED") deleted.push(p);
    });
    store.delete(pod());
    engine.run(0);
    expect(store.exists(stored)).toBe(false);
    expect(store.podsOnNode("n1")).toEqual([]);
    expect(deleted).toHaveLength(1);
    expect(deleted[0]).toBe(stored);
  });
});
