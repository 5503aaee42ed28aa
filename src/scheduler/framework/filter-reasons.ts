// The reasons the filters turned nodes down in one scheduling cycle, counted per reason in slots
// (one per FilterReason, one per distinct untolerated taint) and listed in the order first met:
// what PodScheduled and FailedScheduling carry, and what the FitError is written from.

import type { FilterCount, FilterReason } from "../../trace/scheduling-events.ts";

const REASONS: readonly FilterReason[] = [
  "Unschedulable",
  "UntoleratedTaint",
  "NodeAffinity",
  "TooManyPods",
  "InsufficientCPU",
  "InsufficientMemory",
  "VolumeNodeAffinityConflict",
  "VolumeBindConflict",
  "VolumePVNotExist",
  "VolumeZoneConflict",
  "TopologySpread",
  "TopologySpreadMissingLabel",
  "PodAffinity",
  "PodAntiAffinity",
  "ExistingPodsAntiAffinity",
];
const SLOT = new Map(REASONS.map((r, i) => [r, i]));
export const slot = (r: FilterReason): number => SLOT.get(r)!;
/** Untolerated taints get a slot each, after the fixed reasons. */
const TAINT_SLOTS = REASONS.length;

/** The filters' reasons of one cycle, counted per slot and listed in the order first met. */
export class FilterReasons {
  private counts: number[] = [];
  private order: number[] = [];
  private readonly taintSlots = new Map<string, number>();
  private readonly taints: { key: string; value: string }[] = [];

  reset(): void {
    for (const s of this.order) this.counts[s] = 0;
    this.order.length = 0;
  }

  add(s: number): void {
    if (!this.counts[s]) {
      this.counts[s] = 0;
      this.order.push(s);
    }
    this.counts[s]! += 1;
  }

  taintSlot(key: string, value: string): number {
    const k = `${key}\x00${value}`;
    let s = this.taintSlots.get(k);
    if (s === undefined) {
      s = TAINT_SLOTS + this.taints.length;
      this.taints.push({ key, value });
      this.taintSlots.set(k, s);
    }
    return s;
  }

  get size(): number {
    return this.order.length;
  }

  list(): FilterCount[] {
    return this.order.map((s) =>
      s >= TAINT_SLOTS
        ? { reason: "UntoleratedTaint", nodes: this.counts[s]!, taint: this.taints[s - TAINT_SLOTS]! }
        : { reason: REASONS[s]!, nodes: this.counts[s]! },
    );
  }
}
