// The `autoscaler:` section of a scenario, validated with positions:
//   autoscaler:
//     kind: cluster-autoscaler        # or karpenter
//     scanInterval: 10s               # CA's --scan-interval (Karpenter: its 1s batch idle time)
//     maxNodeProvisionTime: 15m       # CA's --max-node-provision-time
//     bootSeconds: 90s                # scale-up to the new node Ready (the platform's bootToReady, else 90s)
//     nodeGroups:
//       - {name: pool-b, like: worker-3, maxNewNodes: 2}
// A dump's nodes give the node groups by their label (platforms/index.ts) when nodeGroups is absent.

import {
  CA_MAX_NODE_PROVISION_TIME,
  CA_SCAN_INTERVAL,
  ESTIMATED_BOOT_TO_READY,
} from "../../platforms/cluster-autoscaler.ts";
import { KARPENTER_NODEPOOL_LABEL, PLATFORMS } from "../../platforms/index.ts";
import type { AutoscalerSpec, NodeGroupSpec, NodeSpec, Scenario } from "../../scenario/types.ts";
import { closest, duration, fail, int, knownFields, list, obj, oneOf, str } from "../check.ts";
import type { SourceDoc } from "../source.ts";

const FIELDS = ["kind", "scanInterval", "maxNodeProvisionTime", "bootSeconds", "nodeGroups"] as const;
const GROUP_FIELDS = ["name", "like", "maxNewNodes"] as const;
/** Karpenter's BATCH_IDLE_DURATION default (karpenter.sh/docs/reference/settings): 1s. */
export const KARPENTER_BATCH_IDLE = 1;

export function parseAutoscaler(src: SourceDoc, v: unknown, scenario: Scenario): AutoscalerSpec {
  const o = obj(
    src,
    ["autoscaler"],
    v,
    "an autoscaler (a mapping such as {kind: cluster-autoscaler, nodeGroups: […]})",
  );
  knownFields(src, ["autoscaler"], o, FIELDS);
  const kind =
    o.kind == null
      ? "cluster-autoscaler"
      : oneOf(src, ["autoscaler", "kind"], o.kind, ["cluster-autoscaler", "karpenter"] as const);
  const platform = scenario.profile ? PLATFORMS[scenario.profile as keyof typeof PLATFORMS] : undefined;
  const seconds = (key: "scanInterval" | "maxNodeProvisionTime" | "bootSeconds", dflt: number) =>
    o[key] == null
      ? dflt
      : duration(src, ["autoscaler", key], o[key], { min: key === "bootSeconds" ? 0 : 0.001 });
  const groups =
    o.nodeGroups == null ? groupsFromLabels(src, scenario) : parseGroups(src, o.nodeGroups, scenario.nodes);
  return {
    kind,
    scanInterval: seconds("scanInterval", kind === "karpenter" ? KARPENTER_BATCH_IDLE : CA_SCAN_INTERVAL),
    maxNodeProvisionTime: seconds("maxNodeProvisionTime", CA_MAX_NODE_PROVISION_TIME),
    bootSeconds: seconds("bootSeconds", platform?.autoscaler.bootToReadySeconds ?? ESTIMATED_BOOT_TO_READY),
    nodeGroups: groups,
    pos: { file: src.file, ...lineCol(src.locate(["autoscaler"])) },
  };
}

function lineCol(p: { line: number; col: number }): { line: number; col: number } {
  return { line: p.line, col: p.col };
}

function parseGroups(src: SourceDoc, v: unknown, nodes: readonly NodeSpec[]): NodeGroupSpec[] {
  const names = nodes.map((n) => n.name);
  const items = list(
    src,
    ["autoscaler", "nodeGroups"],
    v,
    "a list of node groups such as {name: pool-b, like: worker-3}",
  );
  if (items.length === 0)
    fail(src, ["autoscaler", "nodeGroups"], "invalid-value", "an autoscaler needs at least one node group");
  const seen = new Set<string>();
  return items.map((item, i) => {
    const p = ["autoscaler", "nodeGroups", i];
    const g = obj(src, p, item, "a node group (a mapping such as {name: pool-b, like: worker-3})");
    knownFields(src, p, g, GROUP_FIELDS);
    if (g.name == null) fail(src, [...p, "name"], "missing-field", 'missing required field "name"');
    const name = str(src, [...p, "name"], g.name);
    if (seen.has(name)) fail(src, [...p, "name"], "invalid-value", `node group "${name}" is listed twice`);
    seen.add(name);
    if (g.like == null)
      fail(
        src,
        [...p, "like"],
        "missing-field",
        `a node group needs like: <node> (its template; one of ${names.join(", ")})`,
      );
    const like = str(src, [...p, "like"], g.like);
    const template = nodes.find((n) => n.name === like);
    if (!template) {
      const near = closest(like, names);
      fail(
        src,
        [...p, "like"],
        "unknown-node",
        `no node named "${like}"${near ? ` (did you mean "${near}"?)` : ""}`,
      );
    }
    const maxNewNodes =
      g.maxNewNodes == null ? 1 : int(src, [...p, "maxNewNodes"], g.maxNewNodes, { min: 1, max: 1000 });
    return { name, template, maxNewNodes, size: 1 };
  });
}

/** A dump's node groups, by the platform's node-group label (or Karpenter's NodePool label): each group's first node is its template. */
function groupsFromLabels(src: SourceDoc, scenario: Scenario): NodeGroupSpec[] {
  const platform = scenario.cluster?.platform;
  const label = platform ? PLATFORMS[platform.name].nodeGroupLabel : undefined;
  const groups: NodeGroupSpec[] = [];
  for (const n of scenario.nodes) {
    const g = (label ? n.labels[label] : undefined) ?? n.labels[KARPENTER_NODEPOOL_LABEL];
    if (g === undefined) continue;
    const known = groups.find((x) => x.name === g);
    if (known) known.size++;
    else groups.push({ name: g, template: n, maxNewNodes: 1, size: 1 });
  }
  if (groups.length === 0)
    fail(
      src,
      ["autoscaler"],
      "missing-field",
      "the autoscaler needs nodeGroups: (e.g. [{name: pool-b, like: worker-3}]); no node here carries a node-group label to take them from",
    );
  return groups;
}
