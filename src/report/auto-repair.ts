// The starting state's line on the platform's node auto-repair: on or off as the platform ships a
// node pool, what it watches and does, so that a repair (or its absence) in the timeline is never a
// surprise. Only for a named platform profile (eks, gke, aks, doks): stock Kubernetes has none.

import { autoRepairOn, PLATFORMS } from "../platforms/index.ts";
import type { PlatformName } from "../platforms/types.ts";
import type { Scenario } from "../scenario/types.ts";

const ACTION: Record<string, string> = {
  recreate: "re-create the VM under the same name",
  reboot: "reboot it",
  replace: "replace it with a new node under a new name",
};

export function autoRepairLines(
  scenario: Pick<Scenario, "profile" | "profileFile" | "autoRepair">,
): string[] {
  if (scenario.profileFile || !scenario.profile || !(scenario.profile in PLATFORMS)) return [];
  const p = PLATFORMS[scenario.profile as PlatformName];
  const r = p.autoRepair;
  if (!r) return [`  node auto-repair (${p.title}): none — ${p.noAutoRepair ?? "none documented"}`];
  const more = r.conditions?.length
    ? ` (or ${r.conditions.map((c) => c.type).join(", ")}, each its own wait)`
    : "";
  const rule = `Ready not True for ${r.afterSeconds / 60} min${more} → ${ACTION[r.action]}`;
  const set = scenario.autoRepair;
  if (autoRepairOn(r, set))
    return [`  node auto-repair (${p.title}): on${set === undefined ? "" : " (autoRepair: true)"} — ${rule}`];
  const why =
    set === false ? "off (autoRepair: false)" : "off by default (opt-in: autoRepair: true turns it on)";
  return [`  node auto-repair (${p.title}): ${why} — when on: ${rule}; ${r.source.split(" ")[0]}`];
}
