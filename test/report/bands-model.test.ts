// The state bands' model (src/report/html/model/bands.ts) in Node: the loss window every panel shades,
// and the intervals a row holds, each checked against the run's own events and summary.

import { describe, expect, it } from "vitest";
import { loadScenarioFile } from "../../src/load/index.ts";
import { loadScenarioSource, patchedFiles } from "../../src/load/patch.ts";
import { lossWindow, stateBands } from "../../src/report/html/model/bands.ts";
import { simulate } from "../../src/run/simulate.ts";
import { applyWhatIf, currentSettings } from "../../src/whatif/index.ts";

describe("stateBands", () => {
  const result = simulate(loadScenarioFile("examples/node-power-loss.yaml"));
  const rows = stateBands(result);

  it("each row's intervals tile the row from its first state to the end, with no gap", () => {
    for (const r of rows) {
      for (let i = 1; i < r.intervals.length; i++)
        expect(r.intervals[i]!.from, r.key).toBe(r.intervals[i - 1]!.to);
      const last = r.intervals[r.intervals.length - 1];
      if (last && !r.marks.some((m) => result.events[m]!.type === "PodDeleted"))
        expect(last.to, r.key).toBe(result.summary.duration);
    }
  });

  it("the lost node's NotReady (Unknown) starts at the node controller's NodeNotReady, the rest stay Ready", () => {
    const notReady = result.events.find((e) => e.type === "NodeNotReady")!;
    const nodes = rows.filter((r) => r.kind === "node");
    expect(nodes.map((r) => r.label)).toEqual(result.initial.nodes.map((n) => n.name).sort());
    const lost = nodes.find((r) => r.key === notReady.object)!;
    expect(lost.intervals.map((i) => [i.state, i.from])).toEqual([
      ["Ready", 0],
      ["NotReady (Unknown)", notReady.t],
    ]);
    for (const r of nodes.filter((n) => n !== lost))
      expect(r.intervals.map((i) => i.state)).toEqual(["Ready"]);
  });

  it("every pod at the end that the summary calls Terminating ends its row Terminating", () => {
    const last = new Map(rows.filter((r) => r.kind === "pod").map((r) => [r.key, r.intervals.at(-1)?.state]));
    const terminating = result.summary.pods.filter((p) => p.status === "Terminating");
    expect(terminating.length).toBeGreaterThan(0);
    for (const p of terminating) expect(last.get(`Pod/${p.pod}`), p.pod).toBe("Terminating");
  });
});

describe("lossWindow", () => {
  it("with callers: the first and the last request lost, as the traffic result has them", () => {
    const r = simulate(loadScenarioFile("examples/traffic-doks-power-off.yaml"));
    expect(lossWindow(r)).toEqual({ first: r.traffic!.firstFailure, last: r.traffic!.lastFailure });
  });
  it("without: from the first ready endpoint lost to the end, when none comes back", () => {
    const r = simulate(loadScenarioFile("examples/node-power-loss.yaml"));
    const first = r.events.find((e) => e.type === "EndpointNotReady")!;
    expect(lossWindow(r)).toEqual({ first: first.t, last: r.summary.duration });
  });
});

describe("patchedFiles", () => {
  it("writes a what-if's fields into the files, and the files load back to the what-if's scenario", () => {
    const s = loadScenarioFile("examples/traffic-doks-power-off.yaml");
    const v = applyWhatIf(s, { nodeMonitorGracePeriod: 20, externalTrafficPolicy: "Local" });
    const files = patchedFiles(v.origin!);
    expect(files[0]!.file).toBe("examples/traffic-doks-power-off.yaml");
    expect(files[0]!.text).toMatch(/^\s+nodeMonitorGracePeriod: 20$/m);
    expect(files.some((f) => /^\s+externalTrafficPolicy: Local$/m.test(f.text))).toBe(true);
    // Loaded back as files, with no patch: the what-if's settings.
    const text = new Map(files.map((f) => [f.file, f.text]));
    const src = v.origin!.source;
    const manifests = Object.fromEntries(
      Object.entries(src.manifests).map(([k, fs]) => [k, fs.map((f) => ({ ...f, text: text.get(f.file)! }))]),
    );
    const back = loadScenarioSource({ file: src.file, text: files[0]!.text, manifests });
    expect(currentSettings(back)).toEqual(currentSettings(v));
    expect(currentSettings(back).nodeMonitorGracePeriod).toBe(20);
    // Unpatched, the files are the source as read, comments kept.
    const plain = patchedFiles({ ...v.origin!, patches: [] });
    expect(plain[0]!.text).toContain(s.origin!.source.text.split("\n")[0]);
  });
});
