// The reasons the filters turned nodes down in one scheduling cycle, counted per reason in slots
// (one per FilterReason, one per distinct untolerated taint) and listed in the order first met:
// what PodScheduled and FailedScheduling carry, and what the FitError is written from.

import type { FilterCount, FilterReason } from "../../trace/scheduling-events.ts";

/** The reasons without a key of their own (a taint, a resource's name). */
export type FixedReason = Exclude<FilterReason, "UntoleratedTaint" | "InsufficientResource">;

const REASONS: readonly FixedReason[] = [
  "Unschedulable",
  "NodeAffinity",
  "NodePorts",
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
export const slot = (r: FixedReason): number => SLOT.get(r)!;
/** Untolerated taints and insufficient resources other than cpu and memory get a slot each, after the fixed reasons. */
const KEYED_SLOTS = REASONS.length;

/** The filters' reasons of one cycle, counted per slot and listed in the order first met. */
export class FilterReasons {
  private counts: number[] = [];
  private order: number[] = [];
  private readonly keyedSlots = new Map<string, number>();
  private readonly keyed: FilterCount[] = [];

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
    return this.keyedSlot(`t\x00${key}\x00${value}`, {
      reason: "UntoleratedTaint",
      nodes: 0,
      taint: { key, value },
    });
  }

  /** "Insufficient <name>" for a resource other than cpu and memory (noderesources/fit.go fitsRequest). */
  resourceSlot(name: string): number {
    return this.keyedSlot(`r\x00${name}`, { reason: "InsufficientResource", nodes: 0, resource: name });
  }

  private keyedSlot(k: string, entry: FilterCount): number {
    let s = this.keyedSlots.get(k);
    if (s === undefined) {
      s = KEYED_SLOTS + this.keyed.length;
      this.keyed.push(entry);
      this.keyedSlots.set(k, s);
    }
    return s;
  }

  get size(): number {
    return this.order.length;
  }

  list(): FilterCount[] {
    return this.order.map((s) =>
      s >= KEYED_SLOTS
        ? { ...this.keyed[s - KEYED_SLOTS]!, nodes: this.counts[s]! }
        : { reason: REASONS[s]!, nodes: this.counts[s]! },
    );
  }
}
