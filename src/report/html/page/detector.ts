// `faultline detector compare --report`: φ against silence for each detector, and the table.

import uPlot from "uplot";
import { AKKA_CLUSTER_DEFAULTS } from "../../../detectors/akka.ts";
import { exponentialPhi, phiNormal } from "../../../detectors/phi.ts";
import type { DetectorPayload } from "../model/index.ts";
import { chartWidth } from "./axis.ts";
import { chartFrame, h, headedSection, headRow, round1, scrollBox, verticalLine } from "./dom.ts";

type Mark = { t: number; label: string; colour: string };

/** The φ curves (solid) and their thresholds (dashed), one colour each; fixed timeouts become marks. */
function phiCurves(p: DetectorPayload): { data: (number | null)[][]; series: uPlot.Series[]; marks: Mark[] } {
  const maxT =
    Math.max(
      ...p.detectors.map((d) => (Number.isFinite(d.suspectAfterMs) ? d.suspectAfterMs : 0)),
      p.meanGapMs,
    ) * 1.4;
  const n = 300;
  const x = Array.from({ length: n + 1 }, (_, i) => (maxT * i) / n);
  const data: (number | null)[][] = [x];
  const series: uPlot.Series[] = [{ label: "silence" }];
  const palette = ["#1d4ed8", "#b91c1c", "#047857", "#7c3aed", "#b45309", "#0f766e", "#be185d", "#4d7c0f"];
  let c = 0;
  const marks: Mark[] = [];
  /** A φ curve, solid, and its threshold, dashed, in the same colour. */
  const curve = (label: string, colour: string, values: number[], threshold: number): void => {
    data.push(values);
    series.push({ label, stroke: colour, width: 2 });
    data.push(x.map(() => threshold));
    series.push({ label: `${label}: threshold ${threshold}`, stroke: colour, dash: [6, 4], width: 1 });
  };
  for (const d of p.detectors) {
    const colour = palette[c++ % palette.length]!;
    const det = d.detector;
    if (det.kind === "phi-exponential") {
      const mean = d.learnedMeanMs ?? p.meanGapMs;
      curve(
        d.label,
        colour,
        x.map((t) => exponentialPhi(t, mean)),
        det.threshold,
      );
    } else if (det.kind === "phi-normal") {
      const pause = det.acceptableHeartbeatPauseMs ?? AKKA_CLUSTER_DEFAULTS.acceptableHeartbeatPauseMs;
      const minSd = det.minStdDeviationMs ?? AKKA_CLUSTER_DEFAULTS.minStdDeviationMs;
      const mean = (d.learnedMeanMs ?? p.meanGapMs) + pause;
      const sd = Math.max(d.learnedStdDeviationMs ?? 0, minSd);
      curve(
        d.label,
        colour,
        x.map((t) => Math.min(phiNormal(t, mean, sd), 50)),
        det.threshold,
      );
    } else marks.push({ t: d.suspectAfterMs, label: d.label, colour });
  }
  return { data, series, marks };
}

/** The page's header and its two sections: the chart's frame and the detectors' table. */
function detectorSections(p: DetectorPayload, box: HTMLElement, fmt: (ms: number) => string): HTMLElement[] {
  const perDay = (v: number) => (v === 0 ? "0" : v < 0.001 ? v.toExponential(1) : v.toPrecision(3));
  return [
    h(
      "header",
      { class: "top" },
      h("h1", {}, "Failure detectors compared"),
      h(
        "p",
        { class: "meta" },
        `${p.distribution} · mean gap ${fmt(p.meanGapMs)} · ${p.nodes} node(s), each watched by ${p.watchersPerNode}`,
      ),
    ),
    headedSection(
      "phi",
      "φ against silence",
      h(
        "p",
        { class: "hint" },
        "Each φ detector suspects where its curve crosses its dashed threshold; fixed timeouts and deadlines suspect at their vertical line.",
      ),
      box,
    ),
    headedSection(
      "table",
      "Detection time and false suspicions",
      // Six columns are wider than a phone: the table scrolls inside its box, not the page.
      scrollBox(
        "Detection time and false suspicions, by detector",
        h(
          "table",
          { class: "detectors" },
          headRow([
            "detector",
            "suspects after",
            "detect mean",
            "detect p99",
            "false / node / day",
            "false / cluster / day",
          ]),
          h(
            "tbody",
            {},
            ...p.detectors.map((d) =>
              h(
                "tr",
                {},
                h("th", { scope: "row" }, d.label),
                h("td", { class: "num" }, fmt(d.suspectAfterMs)),
                h("td", { class: "num" }, fmt(d.detection.meanMs)),
                h("td", { class: "num" }, fmt(d.detection.p99Ms)),
                h("td", { class: "num" }, perDay(d.falseSuspicionsPerNodePerDay)),
                h("td", { class: "num" }, perDay(d.falseSuspicionsPerClusterPerDay)),
              ),
            ),
          ),
        ),
      ),
    ),
  ];
}

export function renderDetector(root: HTMLElement, p: DetectorPayload): void {
  const { data, series, marks } = phiCurves(p);
  // Twice the highest threshold: the crossings stay readable.
  const yTop = Math.max(
    4,
    2 * Math.max(0, ...p.detectors.map((d) => ("threshold" in d.detector ? d.detector.threshold : 0))),
  );
  const box = chartFrame(
    "phi-chart",
    "phi against silence, thresholds dashed, fixed timeouts as vertical lines",
  );
  const fmt = (ms: number) => (ms >= 1000 ? `${round1(ms / 1000)} s` : `${Math.round(ms)} ms`);
  root.append(...detectorSections(p, box, fmt));
  queueMicrotask(() => {
    new uPlot(
      {
        width: chartWidth(box),
        height: 320,
        scales: {
          x: { time: false },
          y: { range: (): uPlot.Range.MinMax => [0, yTop] },
        },
        series,
        axes: [{ label: "silence since the last heartbeat", values: (_u, s) => s.map(fmt) }, { label: "φ" }],
        hooks: {
          draw: [
            (u: uPlot) => {
              for (const m of marks) {
                const px = u.valToPos(m.t, "x", true);
                verticalLine(u, px, m.colour, [6, 4]);
                u.ctx.save();
                u.ctx.fillStyle = m.colour;
                u.ctx.font = `${12 * uPlot.pxRatio}px system-ui, sans-serif`;
                u.ctx.fillText(m.label, px + 4 * uPlot.pxRatio, u.bbox.top + 14 * uPlot.pxRatio);
                u.ctx.restore();
              }
            },
          ],
        },
      },
      data as uPlot.AlignedData,
      box,
    );
  });
}
