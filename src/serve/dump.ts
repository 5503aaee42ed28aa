// `simulate --dump-at T`: the model's cluster at virtual time T as `kubectl get nodes,pods,… -A -o
// yaml` prints it: a `kind: List` of the served objects (the same conversion as `faultline serve`),
// grouped by resource in the order of the command, each group by namespace and name, keys sorted
// as kubectl's YAML printer sorts them. Such a dump is a valid `--cluster` input.

import { stringify } from "yaml";
import type { Scenario } from "../scenario/types.ts";
import type { ApiObject } from "./api-types.ts";
import { ClusterMirror, type RunOptions } from "./mirror.ts";

/** The kinds of `kubectl get nodes,pods,deployments,replicasets,statefulsets,daemonsets,services,endpointslices,poddisruptionbudgets,persistentvolumeclaims,persistentvolumes,storageclasses,leases`, in that order (the node Leases date the dump and say how long a NotReady node has been silent). */
export const DUMP_KINDS = [
  "Node",
  "Pod",
  "Deployment",
  "ReplicaSet",
  "StatefulSet",
  "DaemonSet",
  "Service",
  "EndpointSlice",
  "PodDisruptionBudget",
  "PersistentVolumeClaim",
  "PersistentVolume",
  "StorageClass",
  "Lease",
] as const;

/** The cluster of `scenario` at virtual time `at` (0 to its duration), as API objects in kubectl's order. */
export function dumpAt(scenario: Scenario, at: number, run: RunOptions = {}): ApiObject[] {
  const mirror = new ClusterMirror(scenario, run);
  while (mirror.step(at) !== null);
  const items = [...mirror.objects.values()]
    .map((s) => s.object)
    .filter((o) => (DUMP_KINDS as readonly string[]).includes(o.kind));
  return inKubectlOrder(items);
}

/** Sorted as kubectl prints a List: by resource in DUMP_KINDS' order, then namespace and name. */
export function inKubectlOrder(items: ApiObject[]): ApiObject[] {
  const order = (o: ApiObject) => (DUMP_KINDS as readonly string[]).indexOf(o.kind);
  const key = (o: ApiObject) => `${o.metadata.namespace ?? ""}/${o.metadata.name}`;
  return items.sort((a, b) => order(a) - order(b) || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** The List as `kubectl get -o yaml` (`json`: `-o json`) prints it. */
export function formatDump(items: readonly ApiObject[], format: "yaml" | "json" = "yaml"): string {
  const list = { apiVersion: "v1", items, kind: "List", metadata: { resourceVersion: "" } };
  if (format === "json") return `${JSON.stringify(list, null, 4)}\n`;
  // kubectl's printer goes through JSON to YAML (sigs.k8s.io/yaml, go-yaml): keys sorted, lists not
  // indented under their key, no folding, no anchors, and YAML 1.1 quoting (timestamps, "yes"/"no"
  // quoted), except that go-yaml writes managedFields' "." key plain.
  return stringify(list, {
    sortMapEntries: true,
    indentSeq: false,
    lineWidth: 0,
    version: "1.1",
    aliasDuplicateObjects: false,
  }).replace(/^(\s*)"\.": /gm, "$1.: ");
}
