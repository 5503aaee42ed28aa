// The store's watch events reach the watchers at the write's instant, in write order, and after
// whatever was scheduled for that instant before the write (informers see a write after it is
// made): writes in a row share one engine event, which must not change that order.

import { describe, expect, it } from "vitest";
import { Store } from "../../src/cluster/store.ts";
import { Engine } from "../../src/engine/engine.ts";
import type { Service } from "../../src/kubernetes/objects.ts";

const service = (name: string): Service => ({
  kind: "Service",
  metadata: { name, namespace: "default" },
  spec: { selector: { app: name }, ports: [{ port: 80 }] },
});

describe("watch delivery", () => {
  it("keeps write order around the other events of the instant, and a watcher's own writes come after", () => {
    const engine = new Engine(1);
    const store = new Store(engine);
    const seen: string[] = [];
    store.watch("Service", (type, s) => {
      seen.push(`${type} ${s.metadata.name}`);
      // A watcher that writes: its write is delivered after everything already queued.
      if (s.metadata.name === "a" && type === "ADDED") store.create(service("from-a"));
    });
    engine.at(0, () => {
      store.create(service("a"));
      store.create(service("b"));
      engine.at(0, () => seen.push("timer 1"));
      store.create(service("c"));
      engine.at(0, () => {
        seen.push("timer 2");
        store.create(service("d"));
      });
      store.create(service("e"));
    });
    engine.run(0);
    expect(seen).toEqual([
      "ADDED a",
      "ADDED b",
      "timer 1",
      "ADDED c",
      "timer 2",
      "ADDED e",
      "ADDED from-a",
      "ADDED d",
    ]);
  });
});
