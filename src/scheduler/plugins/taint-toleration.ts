// TaintToleration (pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go Filter): the
// first of the node's NoSchedule and NoExecute taints (DoNotScheduleTaintsFilterFunc; PreferNoSchedule
// is only scored) that the pod does not tolerate refuses the node, UnschedulableAndUnresolvable
// ("node(s) had untolerated taint {key: value}"). The nodes share few taint sets (the cache's
// `taintSets`): each set's verdict is worked out once per cycle.

import { tolerates } from "../../kubernetes/taints.ts";
import type { SchedulerCache } from "../framework/cache.ts";
import type { FilterReasons } from "../framework/filter-reasons.ts";
import type { PodInfo } from "../framework/pod-info.ts";
import { type FilterCode, PASS, UNRESOLVABLE } from "../framework/status.ts";

export class TaintToleration {
  /** per taint set, this cycle: 0 not yet checked, 1 tolerated, 2 + i: taint i not tolerated */
  private toleration = new Int32Array(16);
  private info!: PodInfo;

  constructor(private readonly cache: SchedulerCache) {}

  /** A new cycle, for `info`'s pod: every taint set's verdict is to be worked out again. */
  preFilter(info: PodInfo): void {
    this.info = info;
    const sets = this.cache.taintSets.length;
    if (this.toleration.length < sets) this.toleration = new Int32Array(sets * 2);
    this.toleration.fill(0, 0, sets);
  }

  /** The first NoSchedule/NoExecute taint of the node's row the pod does not tolerate, or −1. */
  untolerated(row: number): number {
    const set = this.cache.taintSet[row]!;
    if (set === 0) return -1;
    let v = this.toleration[set]!;
    if (v === 0) {
      v = 1;
      const taints = this.cache.taintSets[set]!;
      for (let i = 0; i < taints.length; i++)
        if (!this.info.tolerations.some((t) => tolerates(t, taints[i]!))) {
          v = 2 + i;
          break;
        }
      this.toleration[set] = v;
    }
    return v === 1 ? -1 : v - 2;
  }

  filter(row: number, reasons: FilterReasons): FilterCode {
    const taint = this.untolerated(row);
    if (taint < 0) return PASS;
    const t = this.cache.taintSets[this.cache.taintSet[row]!]![taint]!;
    reasons.add(reasons.taintSlot(t.key, t.value ?? ""));
    return UNRESOLVABLE;
  }
}
