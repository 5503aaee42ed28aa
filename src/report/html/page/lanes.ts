// The timeline: swimlanes by component, node or workload on the shared time axis, with zoom and pan.

import uPlot from "uplot";
import type { Lane } from "../../../trace/events.ts";
import {
  LANE_GROUPINGS,
  LANE_LABELS,
  LANES,
  type LaneGrouping,
  type LaneRow,
  laneRows,
  type Step,
} from "../model/index.ts";
import { chartWidth } from "./axis.ts";
import { chartFrame, h, headedSection, LANE_COLOURS } from "./dom.ts";
import { playerSection } from "./player.ts";
import type { ReportView } from "./view.ts";

// timeline: swimlanes + player
export function timelineSection(r: ReportView): HTMLElement {
  const chartBox = chartFrame("lanes-chart", "");
  const rowList = h("ul", { id: "lanes-rows", class: "sr-only", "aria-label": "Rows of the swimlanes" });
  const all = h("button", {
    type: "button",
    id: "lanes-all",
    "aria-controls": "lanes-chart",
    hidden: true,
  });
  const toolbar = h(
    "div",
    { class: "toolbar", role: "toolbar", "aria-label": "Zoom and pan the time axis" },
    ...(
      [
        ["zoom-in", "Zoom in", () => zoom(r, 0.5)],
        ["zoom-out", "Zoom out", () => zoom(r, 2)],
        ["pan-left", "Pan left", () => pan(r, -0.25)],
        ["pan-right", "Pan right", () => pan(r, 0.25)],
        ["zoom-reset", "Whole run", () => r.axis.set(r.axis.min, r.axis.max)],
      ] as const
    ).map(([id, label, f]) => {
      const b = h("button", { type: "button", id }, label);
      b.addEventListener("click", f);
      return b;
    }),
    h("span", { class: "hint" }, "or drag across a chart to zoom; double-click to see the whole run"),
  );
  const by = h(
    "select",
    { id: "lanes-by" },
    ...LANE_GROUPINGS.map((g) => h("option", { value: g, selected: g === r.lanesBy }, g)),
  );
  const draw = () => drawLanes(r, chartBox, rowList, all);
  by.addEventListener("change", () => {
    r.lanesBy = by.value as LaneGrouping;
    r.showAllRows = false;
    draw();
  });
  all.addEventListener("click", () => {
    r.showAllRows = !r.showAllRows;
    draw();
  });
  const section = headedSection(
    "timeline",
    "Timeline",
    h(
      "ul",
      { class: "lane-key", "aria-label": "Lanes" },
      ...LANES.map((l) =>
        h("li", {}, h("span", { class: "chip", style: `background:${LANE_COLOURS[l]}` }), LANE_LABELS[l]),
      ),
    ),
    h(
      "div",
      { class: "timeline-controls" },
      toolbar,
      h("div", { class: "field inline" }, h("label", { for: "lanes-by" }, "Lanes by"), by),
    ),
    chartBox,
    rowList,
    all,
    playerSection(r),
  );
  queueMicrotask(draw);
  return section;
}

/** (Re)draws the swimlanes in the grouping chosen, keeping the time range on show. */
export function drawLanes(
  r: ReportView,
  box: HTMLElement,
  rowList: HTMLElement,
  all: HTMLButtonElement,
): void {
  const range = r.lanesChart && r.axis.charts.includes(r.lanesChart) ? r.axis.range() : null;
  r.lanesChart?.destroy();
  r.lanesChart = undefined;
  box.replaceChildren();
  box.classList.remove("scroll");
  box.removeAttribute("tabindex");
  box.style.height = "";
  box.onscroll = null;
  const u = r.lanesBy === "component" ? componentLanes(r, box, rowList, all) : rowLanes(r, box, rowList, all);
  r.lanesChart = u;
  r.axis.add(u);
  if (range) u.setScale("x", { min: range[0], max: range[1] });
  u.over.addEventListener("click", () => {
    const idx = u.cursor.idx;
    if (idx != null) r.select(idx, true);
  });
}

/** The default view: one lane per component. */
export function componentLanes(
  r: ReportView,
  box: HTMLElement,
  rowList: HTMLElement,
  all: HTMLButtonElement,
): uPlot {
  const { steps: st, result } = r.run;
  box.setAttribute(
    "aria-label",
    "Swimlanes: every step of the run on a shared time axis, one lane per component",
  );
  const x = st.map((s) => s.t);
  const data: (number | null)[][] = [x];
  const series: uPlot.Series[] = [{}];
  const counts = new Map<Lane, number>();
  LANES.forEach((lane, li) => {
    const y = LANES.length - 1 - li;
    let n = 0;
    data.push(
      st.map((s) => {
        let here = false;
        for (const i of s.events)
          if (result.events[i]!.lane === lane) {
            here = true;
            n++;
          }
        return here ? y : null;
      }),
    );
    counts.set(lane, n);
    series.push({
      label: LANE_LABELS[lane],
      stroke: LANE_COLOURS[lane],
      paths: () => null,
      points: { show: true, size: 9, fill: LANE_COLOURS[lane], stroke: LANE_COLOURS[lane] },
      value: (_u, v) => (v == null ? "–" : "●"),
    });
  });
  rowList.replaceChildren(...LANES.map((l) => rowItem(LANE_LABELS[l], counts.get(l) ?? 0)));
  all.hidden = true;
  return new uPlot(
    {
      ...r.axis.opts(),
      width: chartWidth(box),
      height: 230,
      series,
      legend: { show: false },
      scales: { ...r.axis.opts().scales, y: { range: [-0.6, LANES.length - 0.4] } },
      axes: [
        r.axis.opts().axes![0]!,
        {
          size: 100,
          splits: () => LANES.map((_, i) => i),
          values: (_u, splits) => splits.map((v) => LANE_LABELS[LANES[LANES.length - 1 - v]!] ?? ""),
        },
      ],
    },
    data as uPlot.AlignedData,
    box,
  );
}

/**
 * One row per node or per workload, drawn straight onto the canvas (a row's points keep their
 * component's colour). The 40 busiest rows show; all of them on demand, scrolled in a fixed-height
 * window so the canvas stays the same size however many rows the run has.
 */
/** The rows of the run grouped `by`, laid out once per run and grouping. */
function rowsOf(r: ReportView, by: Exclude<LaneGrouping, "component">): LaneRow[] {
  const run = r.run;
  const cached = r.rowsCache?.run === run ? r.rowsCache.rows : new Map<string, LaneRow[]>();
  r.rowsCache = { run, rows: cached };
  let rows = cached.get(by);
  if (!rows) {
    rows = laneRows(run.result, run.scenario, run.steps, by);
    cached.set(by, rows);
  }
  return rows;
}

/** The chart's label, the rows' list beside it, and the show-all button, for the rows on show. */
function describeRows(
  by: string,
  rows: LaneRow[],
  shown: LaneRow[],
  expanded: boolean,
  parts: { box: HTMLElement; rowList: HTMLElement; all: HTMLButtonElement },
): void {
  const { box, rowList, all } = parts;
  box.setAttribute(
    "aria-label",
    `Swimlanes: every step of the run on a shared time axis, one row per ${by} (${
      shown.length === rows.length
        ? `${rows.length} row${rows.length === 1 ? "" : "s"}`
        : `the ${shown.length} of ${rows.length} rows with the most events`
    }), points coloured by component`,
  );
  rowList.replaceChildren(...shown.map((r) => rowItem(r.label, r.count)));
  all.hidden = rows.length <= MAX_ROWS;
  all.setAttribute("aria-expanded", String(expanded));
  all.textContent = expanded
    ? `Show the ${MAX_ROWS} rows with the most events`
    : `Show all ${rows.length.toLocaleString("en")} rows`;
}

/** Draws each shown row's points in its components' colours, a pixel's worth of points as one. */
function pointsPainter(shown: LaneRow[], st: readonly Step[]): (u: uPlot) => void {
  const radius = 4.5;
  const offsets = LANES.map((_, i) => (i - (LANES.length - 1) / 2) * 2.5);
  return (u: uPlot) => {
    const xMin = u.scales.x?.min;
    const xMax = u.scales.x?.max;
    const yMin = u.scales.y?.min;
    const yMax = u.scales.y?.max;
    if (xMin == null || xMax == null || yMin == null || yMax == null) return;
    const { left, top, width, height } = u.bbox;
    const ctx = u.ctx;
    const r = radius * uPlot.pxRatio;
    const i0 = Math.max(0, Math.floor(-yMax));
    const i1 = Math.min(shown.length - 1, Math.ceil(-yMin));
    ctx.save();
    ctx.beginPath();
    ctx.rect(left, top, width, height);
    ctx.clip();
    LANES.forEach((lane, li) => {
      ctx.fillStyle = LANE_COLOURS[lane];
      ctx.beginPath();
      for (let i = i0; i <= i1; i++) {
        const idxs = shown[i]!.points[lane];
        if (!idxs) continue;
        const py = u.valToPos(-i, "y", true) + offsets[li]! * uPlot.pxRatio;
        let last = Number.NEGATIVE_INFINITY;
        for (let k = firstAtOrAfter(idxs, st, xMin); k < idxs.length; k++) {
          const t = st[idxs[k]!]!.t;
          if (t > xMax) break;
          const px = u.valToPos(t, "x", true);
          // Points closer than a pixel in one row and component are one point.
          if (px - last < 1) continue;
          last = px;
          ctx.moveTo(px + r, py);
          ctx.arc(px, py, r, 0, 2 * Math.PI);
        }
      }
      ctx.fill();
    });
    ctx.restore();
  };
}

/** The whole list scrolls under a window of the chart's height: the canvas keeps its size. */
function scrollRows(
  box: HTMLElement,
  u: uPlot,
  view: { first: number; rows: number; visible: number; height: number; rowHeight: number },
  yRange: (first: number) => [number, number],
): void {
  const { rowHeight, visible, height } = view;
  box.classList.add("scroll");
  box.setAttribute("tabindex", "0");
  box.style.height = `${height}px`;
  box.append(h("div", { class: "lanes-spacer", style: `height:${(view.rows - visible) * rowHeight}px` }));
  let pending = false;
  box.onscroll = () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      view.first = Math.min(view.rows - visible, box.scrollTop / rowHeight);
      const [min, max] = yRange(view.first);
      u.setScale("y", { min, max });
    });
  };
}

/**
 * One row per node or per workload, drawn straight onto the canvas (a row's points keep their
 * component's colour). The 40 busiest rows show; all of them on demand, scrolled in a fixed-height
 * window so the canvas stays the same size however many rows the run has.
 */
export function rowLanes(
  r: ReportView,
  box: HTMLElement,
  rowList: HTMLElement,
  all: HTMLButtonElement,
): uPlot {
  const by = r.lanesBy as Exclude<LaneGrouping, "component">;
  const rows = rowsOf(r, by);
  const st = r.run.steps;
  const expanded = r.showAllRows && rows.length > MAX_ROWS;
  const shown = expanded ? rows : rows.slice(0, MAX_ROWS);
  const visible = Math.max(1, Math.min(rows.length, MAX_ROWS));
  describeRows(by, rows, shown, expanded, { box, rowList, all });

  // Row i sits at y = -i; `first` is the top row of the visible (fractional while scrolling).
  const yRange = (first: number): [number, number] => [-(first + visible - 1) - 0.6, -first + 0.6];
  const view = { first: 0, rows: rows.length, visible, height: 0, rowHeight: 22 };
  const label = (r: LaneRow) => (r.label.length > 28 ? `${r.label.slice(0, 27)}…` : r.label);
  const longest = Math.max(4, ...shown.slice(0, 400).map((r) => label(r).length));
  const x = st.map((s) => s.t);
  const base = r.axis.opts();
  // The x axis and its label take about 90 px below the rows.
  const height = Math.max(200, visible * view.rowHeight + 90);
  view.height = height;
  const u = new uPlot(
    {
      ...base,
      width: chartWidth(box),
      height,
      // An empty series: the cursor and a click still find the step nearest the pointer.
      series: [{}, { label: "steps", paths: () => null, points: { show: false } }],
      legend: { show: false },
      scales: { ...base.scales, y: { range: () => yRange(view.first) } },
      hooks: { ...base.hooks, draw: [pointsPainter(shown, st), ...(base.hooks?.draw ?? [])] },
      axes: [
        base.axes![0]!,
        {
          size: Math.min(220, 24 + 7 * longest),
          splits: (_u, _i, min, max) => {
            const out: number[] = [];
            for (let v = Math.ceil(min); v <= Math.floor(max); v++) if (shown[-v]) out.push(v);
            return out;
          },
          values: (_u, splits) => splits.map((v) => (shown[-v] ? label(shown[-v]!) : "")),
        },
      ],
    },
    [x, x.map(() => null)] as uPlot.AlignedData,
    box,
  );
  if (expanded) scrollRows(box, u, view, yRange);
  return u;
}

export function zoom(r: ReportView, f: number): void {
  const [a, b] = r.axis.range();
  const mid = r.axis.marker ?? (a + b) / 2;
  const span = Math.max(2, (b - a) * f);
  r.axis.set(mid - span / 2, mid + span / 2);
}

export function pan(r: ReportView, f: number): void {
  const [a, b] = r.axis.range();
  r.axis.set(a + (b - a) * f, b + (b - a) * f);
}

/** More rows than this: the busiest show, the rest on demand. */
const MAX_ROWS = 40;

/** A swimlane row, named for screen readers (and for the tests) beside the chart. */
function rowItem(label: string, count: number): HTMLElement {
  return h(
    "li",
    { "data-row": label, "data-count": count },
    `${label}: ${count.toLocaleString("en")} event${count === 1 ? "" : "s"}`,
  );
}

/** The first of a row's steps at or after time t (binary search). */
function firstAtOrAfter(idxs: number[], st: readonly Step[], t: number): number {
  let lo = 0;
  let hi = idxs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (st[idxs[mid]!]!.t < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
