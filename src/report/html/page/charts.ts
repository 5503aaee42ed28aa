// Requests per second by outcome, and ready endpoints with pods by phase, on the shared time axis.

import uPlot from "uplot";
import { clusterSeries, PHASES } from "../model/index.ts";
import { chartWidth, stacked, TIME_SERIES } from "./axis.ts";
import { chartFrame, h, headedSection, headRow, OUTCOME_COLOURS, PHASE_COLOURS } from "./dom.ts";
import type { ReportView } from "./view.ts";

// charts
export function trafficSection(r: ReportView): HTMLElement {
  const traffic = r.run.result.traffic;
  const section = headedSection("traffic", "Requests per second by outcome");
  if (!traffic || traffic.perSecond.length === 0) {
    section.append(
      h(
        "p",
        { class: "absent", "data-absent": "traffic" },
        "Not in this run: the run carries no traffic (no `traffic` section in the scenario, or a faultline without the traffic model). Ready endpoints below show where Services would send new requests.",
      ),
    );
    return section;
  }
  const box = chartFrame(
    "traffic-chart",
    "Requests per second, stacked by outcome: ok, timeout, refused, error",
  );
  section.append(box);
  if (traffic.causes.length > 0)
    section.append(
      h(
        "table",
        { class: "causes" },
        h("caption", {}, "Why requests failed"),
        headRow(["cause", "requests"]),
        h(
          "tbody",
          {},
          ...traffic.causes.map((c) =>
            h("tr", {}, h("td", {}, c.cause), h("td", { class: "num" }, c.count.toLocaleString("en"))),
          ),
        ),
      ),
    );
  const ps = traffic.perSecond;
  const x = ps.map((p) => p.t);
  const { data, series } = stacked(
    x,
    (["ok", "timeout", "refused", "error"] as const).map((k) => ({
      label: k,
      values: ps.map((p) => p[k]),
      colour: OUTCOME_COLOURS[k],
    })),
  );
  timeChart(r, box, series, data, "requests/s");
  return section;
}

export function clusterSection(r: ReportView): HTMLElement {
  const box = chartFrame("cluster-chart", "Ready endpoints and pods by phase, per second");
  const s = clusterSeries(r.run.result, r.run.scenario);
  const { data, series } = stacked(
    s.t,
    PHASES.map((p, i) => ({ label: `pods ${p}`, values: s.phases[i]!, colour: PHASE_COLOURS[i]! })),
  );
  (data as unknown as number[][]).push(s.readyEndpoints);
  series.push({
    label: "ready endpoints",
    stroke: "#0f172a",
    width: 2,
    paths: uPlot.paths.stepped!({ align: 1 }),
  });
  timeChart(r, box, series, data, "count");
  return headedSection(
    "cluster",
    "Ready endpoints and pods by phase",
    h(
      "p",
      { class: "hint" },
      r.run.result.traffic
        ? "Derived from the trace."
        : "Derived from the trace (EndpointSlice and pod events): where Services send new requests.",
    ),
    box,
  );
}

/**
 * A count's y scale: from 0 (a stacked chart read from 50 up hides how much of it there is) to a
 * tenth above the largest value.
 */
const FROM_ZERO: uPlot.Scale = { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] };

/**
 * A 220 px chart on the shared time axis, drawn once the box is in the page; `y` sets its y scale and
 * axis beyond the label (the loss window is shaded by the shared axis, axis.ts).
 */
export function timeChart(
  r: ReportView,
  box: HTMLElement,
  series: uPlot.Series[],
  data: uPlot.AlignedData,
  yLabel: string,
  extra: { y?: { scale: uPlot.Scale; axis: uPlot.Axis } } = {},
): void {
  queueMicrotask(() => {
    const shared = r.axis.opts();
    r.axis.add(
      new uPlot(
        {
          ...shared,
          scales: { ...shared.scales, y: extra.y?.scale ?? FROM_ZERO },
          hooks: {
            ...shared.hooks,
            // Where the y axis starts, for the page's tests (a count's chart starts at 0).
            ready: [(u: uPlot) => (box.dataset.yMin = String(u.scales.y?.min ?? ""))],
          },
          width: chartWidth(box),
          height: 220,
          series: [{ ...TIME_SERIES, ...series[0] }, ...series.slice(1)],
          axes: [shared.axes![0]!, { ...extra.y?.axis, label: yLabel }],
        },
        data,
        box,
      ),
    );
  });
}
