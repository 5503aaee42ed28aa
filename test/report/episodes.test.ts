// A restart loop is one episode in the text timeline (issue 23, item 9): seed 002's liveness cascade
// printed 2,434 lines, each restart of each pod a block of kubelet and network steps. The first pod's
// first restart is told step by step; every later restart, and every other pod looping for the same
// reason, is one line with the count the trace holds and the kubelet's own Killing message.

import { describe, expect, it } from "vitest";
import { formatTimeline } from "../../src/report/text.ts";
import { eventsOf, example, run } from "../helpers/sim.ts";

const scenario = example("liveness-cascade.yaml");
const result = run(scenario);
const text = formatTimeline(result, scenario);
const lines = text.split("\n");
const short = (pod: string) => pod.split("/")[2]!;

/** Each pod's restarts (ContainerStarted again in place) and kills after a failed probe, from the trace. */
function loops(): Map<string, { restarts: number; kills: number; last: number }> {
  const out = new Map<string, { restarts: number; kills: number; last: number }>();
  const of = (pod: string) => out.get(pod) ?? out.set(pod, { restarts: 0, kills: 0, last: 0 }).get(pod)!;
  for (const e of eventsOf(result, "ContainerStarted"))
    if (e.restartCount > 0) {
      of(e.object).restarts++;
      of(e.object).last = e.restartCount;
    }
  for (const e of eventsOf(result, "ContainerKilled")) if (e.cause === "probe") of(e.object).kills++;
  return out;
}

describe("a restart loop is one episode", () => {
  it("prints the cascade in under 300 lines", () => {
    expect(lines.length).toBeLessThan(300);
  });

  it("tells each looping pod's restarts with the trace's count and the kubelet's reason", () => {
    const looping = [...loops()].filter(([, l]) => l.kills >= 2);
    expect(looping.length).toBe(4);
    let stepByStep = 0;
    for (const [pod, l] of looping) {
      const episode = lines.find((x) => x.includes(`${short(pod)}: container web restarted`));
      expect(episode, pod).toBeDefined();
      expect(episode).toContain(`(RESTARTS ${l.last})`);
      // The pod told step by step counts the restarts and kills after its first ("5 more times"); the others all.
      const more = /restarted (\d+) more times/.exec(episode!);
      const kills = more ? l.kills - 1 : l.kills;
      expect(episode).toContain(`Container web failed liveness probe, will be restarted (${kills}×)`);
      const all = /restarted (\d+) times/.exec(episode!);
      if (more) {
        stepByStep++;
        expect(Number(more[1]) + 1).toBe(l.restarts);
        expect(text).toContain(`restarts container web of ${short(pod)} in place (restartCount 1)`);
      } else expect(Number(all![1])).toBe(l.restarts);
    }
    expect(stepByStep).toBe(1);
  });

  it("shows a probe's run of failures by its first check and a count", () => {
    expect(text).toContain("web's readiness probe fails (1 of failureThreshold=3)");
    expect(text).not.toContain("web's readiness probe fails (2 of failureThreshold=3)");
    expect(text).toMatch(/before this, web's readiness probe failed \d+ more checks in a row from t\+/);
  });

  it("names every node's kube-proxy of one sync on one line", () => {
    expect(text).toContain("and so does kube-proxy on worker-2, in the same sync");
    expect(text).not.toContain("kube-proxy on worker-2 stops routing");
  });

  it("says the liveness check timed out, as the kubelet's Unhealthy event does (pkg/probe/http)", () => {
    const kills = eventsOf(result, "ContainerKilled").filter((e) => e.cause === "probe");
    expect(kills.length).toBeGreaterThan(0);
    for (const k of kills) expect(k.cause === "probe" && k.timedOut).toBe(true);
    expect(text).toContain(
      "Liveness probe failed: context deadline exceeded (Client.Timeout exceeded while awaiting headers)",
    );
    expect(text).not.toContain("Liveness probe failed: connection refused");
  });

  it("keeps every event in the result (the text chooses what it tells)", () => {
    expect(eventsOf(result, "ProbeFailed").length).toBeGreaterThan(200);
  });
});

describe("a probe's failed checks are each shown or counted", () => {
  const s = example("probes-seed.yaml");
  const r = run(s);
  const out = formatTimeline(r, s).split("\n");
  it.each([...new Set(eventsOf(r, "ProbeFailed").map((e) => e.object))])("%s", (pod) => {
    const name = short(pod);
    // A pod whose restarts are one episode counts its checks there; the others, line by line or in notes.
    if (out.some((l) => l.includes(`${name}: container`))) return;
    const shown = out.filter((l) => l.includes(`${name}: `) && / probe fails \(/.test(l)).length;
    let noted = 0;
    out.forEach((l, k) => {
      if (!l.includes("before this, ")) return;
      // A note stands under its pod's line (and the pod's why and view), never far from it.
      const head = out.slice(Math.max(0, k - 1), k).join("\n");
      if (!head.includes(name)) return;
      for (const m of l.matchAll(/failed (\d+) more checks?/g)) noted += Number(m[1]);
    });
    expect(shown + noted).toBe(eventsOf(r, "ProbeFailed", (e) => e.object === pod).length);
  });
});
