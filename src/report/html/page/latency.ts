// How long the callers waited, per second of send time: p50, p99 and max on a log scale, each caller's
// timeout (and SLO) dashed, the loss window shaded, and the same figures as a table. Only with callers.

import uPlot from "uplot";
import { type LatencyLine, type LatencySeries, latencySeries } from "../model/index.ts";
import { timeChart } from "./charts.ts";
import { chartFrame, h, headedSection, headRow, LATENCY_COLOURS, scrollBox, secs, tt } from "./dom.ts";
import type { ReportView } from "./view.ts";

const PERCENTILES = ["p50", "p99", "max"] as const;

/** Milliseconds as the page prints them: 20.1, 10,027. */
const ms = (v: number | null | undefined) =>
  v === null || v === undefined ? "–" : v.toLocaleString("en", { maximumFractionDigits: 1 });

/** The log scale's floor: the JSON's resolution (0.1 ms); a 0 ms second is drawn there, printed as 0. */
const FLOOR_MS = 0.1;

const lineLabel = (l: LatencyLine) =>
  `${l.kind === "timeout" ? "caller's timeout" : "SLO"} ${secs(l.ms / 1000)} (${l.services.join(", ")})`;

const decades = (_u: uPlot, splits: number[]) =>
  splits.map((v) => (Number.isInteger(Math.log10(v)) ? v : null));

const span = (from: number, to: number) => (from === to ? tt(from) : `${tt(from)} – ${tt(to)}`);

export function latencySection(r: ReportView): HTMLElement | null {
  const s = latencySeries(r.run.result, r.run.scenario);
  if (!s) return null;
  const timeouts = s.lines.filter((l) => l.kind === "timeout");
  const windowText = s.window
    ? `the loss window, requests sent from ${tt(s.window.first)} to ${tt(s.window.last)}, shaded`
    : "no request lost, so no loss window";
  const box = chartFrame(
    "latency-chart",
    `Latency per second of send time, in ms on a log scale: p50 and p99 solid, max dashed; ${timeouts.map(lineLabel).join(", ")} dashed; ${windowText}. The figures are in the table below.`,
  );
  latencyChart(r, box, s);
  const slo = s.lines.some((l) => l.kind === "slo");
  return headedSection(
    "latency",
    "How long callers waited, per second",
    h(
      "p",
      { class: "hint", id: "latency-key" },
      `Each line is over the requests sent in that second, all callers together: from a request's creation (time queued in the caller's pool included) to its answer or its caller giving up. Dashed: ${s.lines.map(lineLabel).join("; ")}. ${windowText.charAt(0).toUpperCase()}${windowText.slice(1)}.`,
    ),
    box,
    h(
      "details",
      { class: "group" },
      h("summary", {}, "The figures as a table"),
      scrollBox(
        "Latency per second of send time",
        h(
          "table",
          { class: "latency" },
          h(
            "caption",
            {},
            "Latency by second of send time (seconds in a row had the same percentiles), in ms",
          ),
          headRow(["sent", "requests", slo ? "lost or slow" : "lost", "p50", "p99", "max"]),
          h(
            "tbody",
            {},
            ...s.rows.map((row) =>
              h(
                "tr",
                { class: row.lost > 0 ? "lost" : undefined, "data-from": row.from, "data-to": row.to },
                h("th", { scope: "row" }, span(row.from, row.to)),
                h("td", { class: "num" }, row.sent.toLocaleString("en")),
                h("td", { class: "num" }, row.lost.toLocaleString("en")),
                ...PERCENTILES.map((k) => h("td", { class: "num", "data-col": k }, ms(row[`${k}Ms`]))),
              ),
            ),
          ),
        ),
      ),
    ),
  );
}

function latencyChart(r: ReportView, box: HTMLElement, s: LatencySeries): void {
  const stepped = uPlot.paths.stepped!({ align: 1 });
  const source = { p50: s.p50, p99: s.p99, max: s.max };
  const series: uPlot.Series[] = [
    { label: "sent", value: (_u, v) => (v === null ? "–" : tt(v)) },
    ...PERCENTILES.map(
      (k): uPlot.Series => ({
        label: k,
        stroke: LATENCY_COLOURS[k],
        // max dashed and purple: where it equals p99 (orange, solid) the dashes show both.
        width: 2,
        ...(k === "max" ? { dash: [6, 3] } : {}),
        paths: stepped,
        value: (_u, _v, _s, idx) => (idx == null ? "–" : `${ms(source[k][idx])} ms`),
      }),
    ),
    ...s.lines.map(
      (l): uPlot.Series => ({
        label: lineLabel(l),
        stroke: LATENCY_COLOURS[l.kind],
        width: 1.5,
        dash: l.kind === "timeout" ? [8, 4] : [2, 3],
        value: () => `${ms(l.ms)} ms`,
      }),
    ),
  ];
  const floor = (v: number | null) => (v === null ? null : Math.max(FLOOR_MS, v));
  const data = [
    s.t,
    ...PERCENTILES.map((k) => source[k].map(floor)),
    ...s.lines.map((l) => s.t.map(() => l.ms)),
  ] as uPlot.AlignedData;
  timeChart(r, box, series, data, "ms (log scale)", {
    y: {
      // From the power of ten below the fastest second to twice the slowest: a decade line at least.
      scale: {
        distr: 3,
        log: 10,
        range: (_u, min, max) => [10 ** Math.floor(Math.log10(min)), max * 2],
      },
      // Gridlines and labels at the decades only (10, 100, 1,000 ms…), wide enough for "10,000".
      axis: {
        size: 64,
        filter: decades,
        ticks: { filter: decades },
        grid: { filter: decades },
        values: (_u, splits) => splits.map((v) => (v == null ? "" : ms(v))),
      },
    },
    // The loss window is shaded by the shared axis (axis.ts), as on every chart.
  });
}
