// The JSON result: compact, one event per line, written in pieces; Lease renewals are events only
// where they stop (as the text shows them) unless --all-leases, and every renewal's time is kept in
// `leaseRenewals`.

import { describe, expect, it } from "vitest";
import { formatJson, jsonChunks } from "../../src/report/json.ts";
import { timelineEvents } from "../../src/trace/visible.ts";
import { example, run } from "../helpers/sim.ts";

describe("formatJson", () => {
  const result = run(example("node-power-loss.yaml"));
  // Every event, every renewal of the Lease schedule among them.
  const all = timelineEvents(result, true);
  const renewals = all.filter((e) => e.type === "LeaseRenewed");

  it("keeps as events only the renewal followed by silence, and every renewal's time by node", () => {
    const json = JSON.parse(formatJson(result));
    const leaseEvents = json.events.filter((e: { type: string }) => e.type === "LeaseRenewed");
    // worker-2 loses power at 10s: its last renewal is the one followed by silence.
    expect(leaseEvents.map((e: { node: string }) => e.node)).toEqual(["worker-2"]);
    expect(json.events).toHaveLength(all.length - renewals.length + 1);
    for (const node of ["worker-1", "worker-2", "worker-3"])
      expect(json.leaseRenewals[node]).toEqual(renewals.filter((e) => e.node === node).map((e) => e.t));
  });

  it("with allLeases, every renewal is an event and there is no leaseRenewals", () => {
    const json = JSON.parse(formatJson(result, undefined, { allLeases: true }));
    expect(json.events).toHaveLength(all.length);
    expect(json).not.toHaveProperty("leaseRenewals");
  });

  it("is one line for the head, one per event, one for the end; the pieces join to the text", () => {
    const text = formatJson(result, undefined, { allLeases: true });
    expect(text.split("\n")).toHaveLength(all.length + 3);
    expect([...jsonChunks(result, undefined, { allLeases: true })].join("")).toBe(text);
    expect(JSON.parse(text).summary).toEqual(JSON.parse(JSON.stringify(result.summary)));
  });

  it("writes initial, leaseRenewals and summary as JSON.stringify does, lists longer than a piece too", () => {
    // 450 pods: lists are written 200 elements at a time (json.ts pieces), which a small run never reaches.
    const many = <T>(list: readonly T[], pod: (p: T, i: number) => T) =>
      Array.from({ length: 450 }, (_, i) => pod(list[i % list.length]!, i));
    const large = {
      ...result,
      initial: {
        ...result.initial,
        pods: many(result.initial.pods, (p, i) => ({ ...p, pod: `default/p-${i}` })),
      },
      summary: {
        ...result.summary,
        pods: many(result.summary.pods, (p, i) => ({ ...p, pod: `default/p-${i}` })),
      },
    };
    const text = formatJson(large);
    expect(text).toContain(`,"initial":${JSON.stringify(large.initial)},"events":[`);
    expect(text).toContain(`,"leaseRenewals":${JSON.stringify(JSON.parse(text).leaseRenewals)},"summary":`);
    expect(text).toContain(`,"summary":${JSON.stringify(large.summary)}`);
  });
});
