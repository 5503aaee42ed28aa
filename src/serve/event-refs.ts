// The objects an Event is about, as the recording component names them (core/v1 ObjectReference):
// a pod with its UID, a container by its field path in the spec, a node by UID or by name.

import type { Context } from "../cluster/context.ts";
import type { ObjectReferenceJ } from "./api-types.ts";
import { uuidOf } from "./convert-meta.ts";

export function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

export function podRef(ctx: Context, object: string, withUid = true): ObjectReferenceJ | undefined {
  const [, namespace, name] = object.split("/") as [string, string, string];
  const pod = ctx.store.get("Pod", `${namespace}/${name}`);
  return {
    apiVersion: "v1",
    kind: "Pod",
    namespace,
    name,
    ...(withUid && pod?.metadata.uid ? { uid: uuidOf(pod.metadata.uid) } : {}),
  };
}

export function containerRef(ctx: Context, object: string, container: string): ObjectReferenceJ | undefined {
  const ref = podRef(ctx, object);
  const pod = ctx.store.get("Pod", object.slice("Pod/".length));
  const i = pod?.spec.containers.findIndex((c) => c.name === container) ?? -1;
  // kubecontainer.GenerateContainerRef: the field path of the container in the spec.
  return (
    ref && {
      ...ref,
      fieldPath: i >= 0 ? `spec.containers{${container}}` : `spec.initContainers{${container}}`,
    }
  );
}

/** The node lifecycle controller names the Node with its UID; the kubelet with the node's name as UID (kubelet.go nodeRef). */
export function nodeRef(ctx: Context, name: string, by: "controller" | "kubelet"): ObjectReferenceJ {
  const node = ctx.store.get("Node", name);
  const uid = by === "kubelet" ? name : node?.metadata.uid ? uuidOf(node.metadata.uid) : name;
  return { apiVersion: "v1", kind: "Node", name, uid };
}
