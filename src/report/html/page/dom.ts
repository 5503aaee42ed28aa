// The page's small DOM kit: an element builder, headed sections, chart frames, table heads, the
// colours every view shares and the time formats.

import uPlot from "uplot";
import type { Lane } from "../../../trace/events.ts";
import { clock } from "../../text.ts";

/** The lanes' colours: one hue per component, dark enough for text contrast on white. */
export const LANE_COLOURS: Record<Lane, string> = {
  kubelet: "#b45309",
  app: "#7c3aed",
  network: "#0369a1",
  "control-plane": "#047857",
  operator: "#be123c",
};
export const OUTCOME_COLOURS = { ok: "#16a34a", timeout: "#d97706", refused: "#7c3aed", error: "#dc2626" };
export const PHASE_COLOURS = ["#cbd5e1", "#fbbf24", "#4ade80", "#f87171"];
/** The latency chart: its percentiles, the callers' timeout and SLO lines, the loss window's shade. */
export const LATENCY_COLOURS = {
  p50: "#0369a1",
  p99: "#c2410c",
  max: "#7e22ce",
  timeout: "#111827",
  slo: "#4b5563",
  window: "rgba(220, 38, 38, 0.1)",
};

// ---- tiny DOM helpers ----------------------------------------------------------------------------------

export type Attrs = Record<string, string | number | boolean | undefined>;
export type Child = Node | string | null | undefined | false;
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (k === "class") el.className = String(v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}

/** A page section headed by an h2 whose id is the section's id plus "-h". */
export function headedSection(id: string, title: string, ...children: Child[]): HTMLElement {
  return h("section", { id, "aria-labelledby": `${id}-h` }, h("h2", { id: `${id}-h` }, title), ...children);
}

/** The box a chart draws into, described for screen readers. */
export function chartFrame(id: string, label: string): HTMLDivElement {
  return h("div", { class: "chart", id, role: "img", "aria-label": label });
}

/** A table head: one row of column headers. */
export function headRow(columns: string[]): HTMLTableSectionElement {
  return h("thead", {}, h("tr", {}, ...columns.map((c) => h("th", { scope: "col" }, c))));
}

/** A dashed vertical line across a chart's plot area at canvas x `px`. */
export function verticalLine(u: uPlot, px: number, colour: string, dash: [number, number]): void {
  u.ctx.save();
  u.ctx.strokeStyle = colour;
  u.ctx.lineWidth = 2 * uPlot.pxRatio;
  u.ctx.setLineDash(dash.map((d) => d * uPlot.pxRatio));
  u.ctx.beginPath();
  u.ctx.moveTo(px, u.bbox.top);
  u.ctx.lineTo(px, u.bbox.top + u.bbox.height);
  u.ctx.stroke();
  u.ctx.restore();
}

export const tt = (t: number) => `t+${clock(t)}`;
export const secs = (d: number) =>
  d < 60 ? `${round1(d)} s` : `${Math.floor(d / 60)} min ${Math.round(d % 60)} s`;
export const round1 = (v: number) => String(Math.round(v * 10) / 10);

/** A box that scrolls sideways on a narrow screen, reachable and scrollable with the keyboard. */
export function scrollBox(label: string, child: HTMLElement, extraClass?: string): HTMLElement {
  const cls = extraClass ? `scroll-x ${extraClass}` : "scroll-x";
  return h("div", { class: cls, tabindex: 0, role: "region", "aria-label": label }, child);
}
