// The time axis every chart shares (zoom, pan, the player's marker), and stacked series for uPlot.

import uPlot from "uplot";
import { clock } from "../../text.ts";
import { LATENCY_COLOURS, tt, verticalLine } from "./dom.ts";

/**
 * The time axis's tick steps, in seconds: a tenth to a day at the steps a clock reads (10 s, 15 s, 30 s,
 * 1 min, 5 min, 15 min, 1 h…), never uPlot's decimal 1-2-5 steps (ticks every 50 s read badly as m:ss).
 */
export const TIME_STEPS = [
  0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400,
];

/** The x series of a time chart: its legend readout is a time on the page's clock (t+0:36), not "Value: 36". */
export const TIME_SERIES: uPlot.Series = {
  label: "time",
  value: (_u, v) => (v == null ? "–" : tt(v)),
};

export class TimeAxis {
  charts: uPlot[] = [];
  private syncing = false;
  marker: number | null = null;
  /** the loss window (model/bands.ts lossWindow), shaded on every chart behind its grid and series */
  window: { first: number; last: number } | null = null;
  private listeners: (() => void)[] = [];
  constructor(
    public min: number,
    public max: number,
  ) {}

  /** uPlot options every time chart shares: the x scale, synced cursor, the current-step marker. */
  opts(): Partial<uPlot.Options> {
    return {
      scales: { x: { time: false, min: this.min, max: this.max } },
      cursor: { sync: { key: "faultline-t" }, drag: { x: true, y: false } },
      hooks: {
        setScale: [
          (u: uPlot, key: string) => {
            if (key !== "x" || this.syncing) return;
            const { min, max } = u.scales.x!;
            if (min == null || max == null) return;
            this.syncing = true;
            for (const c of this.charts) if (c !== u) c.setScale("x", { min, max });
            this.syncing = false;
            this.changed();
          },
        ],
        drawClear: [(u: uPlot) => this.shade(u)],
        draw: [
          (u: uPlot) => {
            if (this.marker === null) return;
            const x = u.valToPos(this.marker, "x", true);
            const { left, width } = u.bbox;
            if (x < left || x > left + width) return;
            verticalLine(u, x, "#111827", [4, 3]);
          },
        ],
        destroy: [(u: uPlot) => this.remove(u)],
      },
      axes: [
        {
          label: "time since the start (m:ss)",
          // At least 70 px between ticks: a label such as "12:30" stays clear of the next.
          space: 70,
          incrs: TIME_STEPS,
          values: (_u, splits) => splits.map((v) => clock(v)),
        },
      ],
    };
  }

  /** Called after the range or the marker changed (the state bands follow the charts). */
  onChange(f: () => void): void {
    this.listeners.push(f);
  }
  private changed(): void {
    for (const f of this.listeners) f();
  }

  /** The loss window on a chart's plot, at least 2 px wide: one lost request shows too. */
  private shade(u: uPlot): void {
    const w = this.window;
    if (!w) return;
    const { left, top, width, height } = u.bbox;
    const a = Math.max(left, u.valToPos(w.first, "x", true));
    const b = Math.min(left + width, Math.max(u.valToPos(w.last, "x", true), a + 2 * uPlot.pxRatio));
    if (b <= a) return;
    u.ctx.save();
    u.ctx.fillStyle = LATENCY_COLOURS.window;
    u.ctx.fillRect(a, top, b - a, height);
    u.ctx.restore();
  }

  add(u: uPlot): uPlot {
    this.charts.push(u);
    return u;
  }
  remove(u: uPlot): void {
    this.charts = this.charts.filter((c) => c !== u);
  }
  range(): [number, number] {
    const u = this.charts[0];
    const min = u?.scales.x?.min ?? this.min;
    const max = u?.scales.x?.max ?? this.max;
    return [min, max];
  }
  set(min: number, max: number): void {
    const span = Math.max(1, max - min);
    let a = Math.max(this.min, min);
    let b = a + span;
    if (b > this.max) {
      b = this.max;
      a = Math.max(this.min, b - span);
    }
    for (const c of this.charts) c.setScale("x", { min: a, max: b });
    if (this.charts.length === 0) this.changed();
  }
  setMarker(t: number | null): void {
    this.marker = t;
    for (const c of this.charts) c.redraw(false, false);
    this.changed();
  }
}

export function chartWidth(container: HTMLElement): number {
  return Math.max(320, Math.min(1200, (container.clientWidth || document.body.clientWidth || 900) - 8));
}

/** Stacked areas: uPlot draws each series to zero, so plot cumulative sums, biggest first. */
export function stacked(
  x: number[],
  layers: { label: string; values: number[]; colour: string }[],
): { data: uPlot.AlignedData; series: uPlot.Series[] } {
  const cumulative: number[][] = [];
  let acc = new Array<number>(x.length).fill(0);
  for (const l of layers) {
    acc = acc.map((v, i) => v + (l.values[i] ?? 0));
    cumulative.push(acc);
  }
  const order = layers.map((_, i) => i).reverse();
  const series: uPlot.Series[] = [TIME_SERIES];
  const data: (number | null)[][] = [x];
  for (const i of order) {
    const l = layers[i]!;
    series.push({
      label: l.label,
      stroke: l.colour,
      fill: l.colour,
      width: 1,
      paths: uPlot.paths.stepped!({ align: 1 }),
      value: (_u, _v, _s, idx) => (idx == null ? "–" : String(l.values[idx] ?? 0)),
    });
    data.push(cumulative[i]!);
  }
  return { data: data as uPlot.AlignedData, series };
}
