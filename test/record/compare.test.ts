// compare and --fit on a recording of `faultline serve` playing examples/node-power-loss.yaml's
// cluster on perturbed settings (a 30s grace period, a 60s unreachable toleration), recorded by the
// real recorder through @kubernetes/client-node (issue 27's first done-when). Times come from the
// server's own timestamps: Lease renewTime, conditions' lastTransitionTime, taints' timeAdded,
// deletionTimestamp.

import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { type Comparison, compare } from "../../src/compare/compare.ts";
import { fitSettings } from "../../src/compare/fit.ts";
import { compareText } from "../../src/compare/format.ts";
import { compareHtml } from "../../src/compare/html.ts";
import { parseRecording, type Recording } from "../../src/compare/read.ts";
import { recordServed } from "./helpers.ts";

let rec: Recording;
let c: Comparison;
beforeAll(async () => {
  const r = await recordServed("test/record/fixtures/perturbed.yaml", 40, 8);
  rec = parseRecording(readFileSync(r.file, "utf8"), r.file);
  c = compare(rec, { seeds: [1, 2, 3, 4] });
}, 240_000);

const row = (step: string) => c.rows.find((r) => r.step === step)!;

describe("compare with the stock model", () => {
  it("finds the fault: worker-2's last Lease renewal before it went NotReady", () => {
    expect(c.fault.node).toBe("worker-2");
    expect(c.fault.given).toBe(false);
    expect(c.fault.lastRenewal).toBeDefined();
  });

  it("flags NotReady (the 30s grace period against the stock 50s) as outside the model's spread", () => {
    expect(row("not-ready").inside).toBe(false);
    expect(row("not-ready").observed!).toBeGreaterThan(29);
    expect(row("not-ready").observed!).toBeLessThan(37);
    expect(row("not-ready").predicted!.min).toBeGreaterThanOrEqual(50);
    expect(row("lease-stops").inside).toBe(true);
    expect(compareText(c)).toMatch(
      /^NotReady +\+3\d\.\ds +\+5\d\.\ds … \+\d+\.\ds +-\d+\.\ds +OUTSIDE the model's spread +\+3\d\.\ds \/ .* MOVED$/m,
    );
  });

  it("says which interval moved: NotReady after the last renewal, not the taint-to-eviction interval", () => {
    expect(row("not-ready").interval).toMatchObject({ after: "lease-stops", inside: false });
    expect(row("tainted").interval).toMatchObject({ after: "not-ready", inside: true });
    expect(row("evicted").interval).toMatchObject({ after: "tainted", inside: true });
    expect(compareText(c)).toContain(
      "intervals the model does not reproduce: NotReady after Lease renewals stop\n",
    );
  });

  it("sees the eviction 60s after the taint on both sides (the dump's pods carry the 60s toleration)", () => {
    const obs = row("evicted").observed! - row("tainted").observed!;
    const pred = row("evicted").predicted!.median - row("tainted").predicted!.median;
    expect(Math.abs(obs - 60)).toBeLessThanOrEqual(1);
    expect(Math.abs(pred - 60)).toBeLessThanOrEqual(1);
  });
});

describe("compare --html", () => {
  it("draws a row per step: the observed dot (red outside the spread) and the model's bar", () => {
    const html = compareHtml(c);
    expect(html.match(/<circle /g)?.length).toBe(c.rows.filter((r) => r.observed !== undefined).length);
    expect(html.match(/<rect /g)?.length).toBe(c.rows.filter((r) => r.predicted).length);
    expect(html).toContain('class="out"><title>observed: +31.');
    expect(html).toContain("<pre>faultline compare");
    expect(html).not.toMatch(/<script/);
  });
});

describe("compare --fit", () => {
  it("recovers the perturbed grace period and toleration within their stated uncertainty", () => {
    const est = fitSettings(rec, c.fault, c.observedAt);
    const grace = est.find((e) => e.path === "controlPlane.nodeMonitorGracePeriod")!;
    const tol = est.find((e) => e.path === "controlPlane.defaultUnreachableTolerationSeconds")!;
    expect(Math.abs(grace.value - 30)).toBeLessThanOrEqual(grace.uncertainty);
    expect(Math.abs(tol.value - 60)).toBeLessThanOrEqual(tol.uncertainty);
  });
});
