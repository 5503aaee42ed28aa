// The managed platforms faultline knows, and how a cluster dump says which one it came from: the
// scheme of its Nodes' spec.providerID (each cloud provider's CCM sets it: aws://, gce://,
// azure://, digitalocean://) and, failing that, its node-group label.

import { AKS } from "./aks.ts";
import { DOKS } from "./doks.ts";
import { EKS } from "./eks.ts";
import { GKE } from "./gke.ts";
import type { AutoRepair, Platform, PlatformName } from "./types.ts";

export type { Platform, PlatformName } from "./types.ts";
export { PLATFORM_NAMES } from "./types.ts";

export const PLATFORMS: Record<PlatformName, Platform> = { eks: EKS, gke: GKE, aks: AKS, doks: DOKS };

/** What told the platform apart: `spec.providerID aws://…` or `label eks.amazonaws.com/nodegroup`. */
export interface Recognised {
  platform: PlatformName;
  evidence: string;
  /** the node groups the label names, in first-seen order */
  nodeGroups: string[];
}

/** Karpenter's NodePool label (karpenter.sh/docs/concepts/nodepools): on any cloud, beside the platform's own. */
export const KARPENTER_NODEPOOL_LABEL = "karpenter.sh/nodepool";

export interface NodeFacts {
  name: string;
  providerID?: string;
  labels: Record<string, string>;
}

/** The platform of a dump's nodes: the first node whose providerID or label names one (node order). */
export function recognisePlatform(nodes: readonly NodeFacts[]): Recognised | undefined {
  const all = Object.values(PLATFORMS);
  let found: { platform: Platform; evidence: string } | undefined;
  for (const n of nodes) {
    const byId = all.find((p) => n.providerID?.startsWith(p.providerIdScheme));
    if (byId) {
      found = { platform: byId, evidence: `spec.providerID ${byId.providerIdScheme}… on Node ${n.name}` };
      break;
    }
  }
  if (!found)
    for (const n of nodes) {
      const byLabel = all.find((p) => n.labels[p.nodeGroupLabel] !== undefined);
      if (byLabel) {
        found = { platform: byLabel, evidence: `label ${byLabel.nodeGroupLabel} on Node ${n.name}` };
        break;
      }
    }
  if (!found) return undefined;
  const label = found.platform.nodeGroupLabel;
  const groups: string[] = [];
  for (const n of nodes) {
    const g = n.labels[label] ?? n.labels[KARPENTER_NODEPOOL_LABEL];
    if (g !== undefined && !groups.includes(g)) groups.push(g);
  }
  return { platform: found.platform.name, evidence: found.evidence, nodeGroups: groups };
}

/**
 * Whether the run's platform repairs nodes: the scenario's `autoRepair:` when it says, else as the
 * platform creates a node pool (GKE and AKS on; EKS off: "Node auto repair is disabled by default",
 * docs.aws.amazon.com/eks/latest/APIReference/API_NodeRepairConfig.html, `enabled`).
 */
export function autoRepairOn(rule: AutoRepair | undefined, setting: boolean | undefined): boolean {
  return rule !== undefined && (setting ?? rule.enabledByDefault);
}
