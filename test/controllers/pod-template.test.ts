// podFromTemplate: the pods of one template share its labels, annotations, ownerReferences and the
// values of its spec, frozen (a write in place throws instead of changing every pod), and each pod
// keeps its own metadata and spec objects for the fields written per pod. What is shared is made
// per template, owner and namespace: another owner or namespace gets its own.

import { describe, expect, it } from "vitest";
import { controllerOf } from "../../src/cluster/store.ts";
import { podFromTemplate } from "../../src/controllers/pod-template.ts";
import { Engine } from "../../src/engine/engine.ts";
import type { PodTemplateSpec } from "../../src/kubernetes/objects.ts";

const ctx = { engine: new Engine(1) };
const rs = (name: string) => ({ kind: "ReplicaSet", name });

function template(): PodTemplateSpec {
  return {
    metadata: { labels: { app: "web" }, annotations: { note: "x" } },
    spec: { containers: [{ name: "app", resources: { requests: { cpu: 0.5 } } }] },
  };
}

describe("pods from one template", () => {
  it("share the template's frozen parts and keep their own spec and metadata objects", () => {
    const t = template();
    const a = podFromTemplate(ctx, t, "default", "web-a", rs("web"));
    const b = podFromTemplate(ctx, t, "default", "web-b", rs("web"));
    expect(a.spec.containers).toBe(b.spec.containers);
    expect(a.metadata.labels).toBe(b.metadata.labels);
    expect(a.metadata.ownerReferences).toBe(b.metadata.ownerReferences);
    expect(() => {
      a.spec.containers[0]!.name = "changed";
    }).toThrow(TypeError);
    expect(() => {
      a.metadata.labels!.app = "changed";
    }).toThrow(TypeError);
    a.spec.nodeName = "n1";
    a.metadata.deletionTimestamp = 5;
    expect(b.spec.nodeName).toBeUndefined();
    expect(b.metadata.deletionTimestamp).toBeUndefined();
    expect(t.spec.nodeName).toBeUndefined();
    expect(a.metadata).toMatchObject({ labels: { app: "web" }, annotations: { note: "x" } });
  });

  it("of another owner or namespace name theirs; extra labels are the pod's own", () => {
    const t = template();
    const a = podFromTemplate(ctx, t, "default", "web-a", rs("web"));
    const other = podFromTemplate(ctx, t, "default", "web-b", rs("web-2"));
    const elsewhere = podFromTemplate(ctx, t, "prod", "web-c", rs("web"));
    const labelled = podFromTemplate(ctx, t, "default", "web-d", rs("web"), { "pod-name": "web-d" });
    expect(a.metadata.ownerReferences).toEqual([{ kind: "ReplicaSet", name: "web", controller: true }]);
    expect(other.metadata.ownerReferences).toEqual([{ kind: "ReplicaSet", name: "web-2", controller: true }]);
    expect(controllerOf(a)).toBe("ReplicaSet/default/web");
    expect(controllerOf(other)).toBe("ReplicaSet/default/web-2");
    expect(controllerOf(elsewhere)).toBe("ReplicaSet/prod/web");
    expect(labelled.metadata.labels).toEqual({ app: "web", "pod-name": "web-d" });
    expect(a.metadata.labels).toEqual({ app: "web" });
    expect(t.metadata!.labels).toEqual({ app: "web" });
  });
});
