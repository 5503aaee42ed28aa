// Label selectors and topology labels.

import type { LabelSelector, Node } from "./objects.ts";

export const LABEL_HOSTNAME = "kubernetes.io/hostname";
export const LABEL_ZONE = "topology.kubernetes.io/zone";
export const LABEL_REGION = "topology.kubernetes.io/region";
const LABEL_ZONE_BETA = "failure-domain.beta.kubernetes.io/zone";
const LABEL_REGION_BETA = "failure-domain.beta.kubernetes.io/region";
/** Nodes with this label are left out of zone disruption state (node_lifecycle_controller.go). */
export const LABEL_EXCLUDE_DISRUPTION = "node.kubernetes.io/exclude-disruption";

export function matchesSelector(
  selector: LabelSelector | undefined,
  labels: Record<string, string> | undefined,
): boolean {
  if (!selector) return false;
  const l = labels ?? {};
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (l[k] !== v) return false;
  for (const req of selector.matchExpressions ?? []) {
    const has = Object.hasOwn(l, req.key);
    const value = l[req.key];
    switch (req.operator) {
      case "In":
        if (!has || !(req.values ?? []).includes(value!)) return false;
        break;
      case "NotIn":
        if (has && (req.values ?? []).includes(value!)) return false;
        break;
      case "Exists":
        if (!has) return false;
        break;
      case "DoesNotExist":
        if (has) return false;
        break;
    }
  }
  return true;
}

/** A Service's selector is a plain map; an empty one selects nothing for endpoints. */
export function matchesMap(
  selector: Record<string, string> | undefined,
  labels: Record<string, string> | undefined,
): boolean {
  if (!selector || Object.keys(selector).length === 0) return false;
  return matchesSelector({ matchLabels: selector }, labels);
}

/**
 * GetZoneKey (staging/src/k8s.io/component-helpers/node/topology/helpers.go): region and zone from
 * the GA labels, else the beta ones; a node without them is in zone "".
 */
export function zoneKey(node: Node): string {
  const labels = node.metadata.labels ?? {};
  const zone = labels[LABEL_ZONE] ?? labels[LABEL_ZONE_BETA] ?? "";
  const region = labels[LABEL_REGION] ?? labels[LABEL_REGION_BETA] ?? "";
  if (zone === "" && region === "") return "";
  return `${region}:\x00:${zone}`;
}

/** How a zone key reads in messages. */
export function zoneName(key: string): string {
  if (key === "") return '""';
  const [region, zone] = key.split(":\x00:");
  return region ? `${region}/${zone}` : (zone ?? "");
}
