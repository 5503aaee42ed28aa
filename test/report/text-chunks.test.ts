// The text timeline in pieces (timelineChunks), written by the CLI as they are made: the starting
// state, one piece per event shown, the end; every piece whole lines, and the pieces join to the text.

import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.ts";
import { formatTimeline, timelineChunks } from "../../src/report/text.ts";
import { timelineEvents } from "../../src/trace/visible.ts";
import { example, run } from "../helpers/sim.ts";

describe("timelineChunks", () => {
  const scenario = example("node-power-loss.yaml");
  const result = run(scenario);

  it.each([false, true])("is the head, one piece per event shown, the end (allLeases %s)", (allLeases) => {
    const chunks = [...timelineChunks(result, scenario, { allLeases })];
    const all = timelineEvents(result, true);
    const leases = all.filter((e) => e.type === "LeaseRenewed").length;
    // Without allLeases only the renewal followed by silence (worker-2 loses power at 10s) is shown.
    const shown = allLeases ? all.length : all.length - leases + 1;
    expect(chunks).toHaveLength(1 + shown + 1);
    for (const c of chunks) expect(c.endsWith("\n")).toBe(true);
    expect(chunks[0]).toMatch(/^faultline simulate · /);
    expect(chunks.at(-1)).toMatch(/^\nAt the end\n/);
    expect(chunks.join("")).toBe(formatTimeline(result, scenario, { allLeases }));
  });

  // formatTimeline is the chunks joined, so the check above cannot fail on its own: the command line,
  // which writes the pieces as they come, must print that same text.
  it.each([false, true])(
    "the command line writes the pieces whole and in order (allLeases %s)",
    async (allLeases) => {
      const out: string[] = [];
      const argv = ["simulate", "examples/node-power-loss.yaml", ...(allLeases ? ["--all-leases"] : [])];
      expect(await main(argv, { out: (s) => out.push(s), err: () => {} })).toBe(0);
      expect(out.join("")).toBe([...timelineChunks(result, scenario, { allLeases })].join(""));
    },
  );
});
