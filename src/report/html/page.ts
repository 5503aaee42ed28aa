// The report page: runs in the browser, bundled with uPlot and the models into one inline script by
// src/report/html.ts. It reads the payload embedded in the page, draws the headline, the swimlanes, the
// player, the charts and the probe rows, and re-runs the simulation in the browser for the what-if panel.

import uPlot from "uplot";
import { AKKA_CLUSTER_DEFAULTS } from "../../detectors/akka.ts";
import { exponentialPhi, phi } from "../../detectors/phi.ts";
import { simulate } from "../../run/simulate.ts";
import { type Scenario, SUPPORTED_VERSIONS } from "../../scenario/types.ts";
import type { Lane, TraceEvent } from "../../trace/events.ts";
import { proseOf } from "../messages/index.ts";
import { clock } from "../text.ts";
import {
  clusterSeries,
  type DetectorPayload,
  type Headline,
  headline,
  LANE_GROUPINGS,
  LANE_LABELS,
  LANES,
  type LaneGrouping,
  type LaneRow,
  LEVERS,
  laneRows,
  PHASES,
  type PodProbes,
  PROBES,
  probeRows,
  probeSettings,
  type ReportPayload,
  type ReportResult,
  type SimulatePayload,
  type Step,
  steps,
} from "./model.ts";
import { applyWhatIf, currentSettings, type WhatIf } from "./whatif.ts";

/** The lanes' colours: one hue per component, dark enough for text contrast on white. */
export const LANE_COLOURS: Record<Lane, string> = {
  kubelet: "#b45309",
  app: "#7c3aed",
  network: "#0369a1",
  "control-plane": "#047857",
  operator: "#be123c",
};
const OUTCOME_COLOURS = { ok: "#16a34a", timeout: "#d97706", refused: "#7c3aed", error: "#dc2626" };
const LATENCY_COLOURS = { p50Ms: "#0ea5e9", p99Ms: "#d97706", maxMs: "#dc2626" };
const PHASE_COLOURS = ["#cbd5e1", "#fbbf24", "#4ade80", "#f87171"];

// ---- tiny DOM helpers ----------------------------------------------------------------------------------

type Attrs = Record<string, string | number | boolean | undefined>;
type Child = Node | string | null | undefined | false;
function h<K extends keyof HTMLElementTagNameMap>(
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
function headedSection(id: string, title: string, ...children: Child[]): HTMLElement {
  return h("section", { id, "aria-labelledby": `${id}-h` }, h("h2", { id: `${id}-h` }, title), ...children);
}

/** The box a chart draws into, described for screen readers. */
function chartFrame(id: string, label: string): HTMLDivElement {
  return h("div", { class: "chart", id, role: "img", "aria-label": label });
}

/** A table head: one row of column headers. */
function headRow(columns: string[]): HTMLTableSectionElement {
  return h("thead", {}, h("tr", {}, ...columns.map((c) => h("th", { scope: "col" }, c))));
}

/** A dashed vertical line across a chart's plot area at canvas x `px`. */
function verticalLine(u: uPlot, px: number, colour: string, dash: [number, number]): void {
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

const tt = (t: number) => `t+${clock(t)}`;
const secs = (d: number) => (d < 60 ? `${round1(d)} s` : `${Math.floor(d / 60)} min ${Math.round(d % 60)} s`);
const round1 = (v: number) => String(Math.round(v * 10) / 10);

// ---- shared time axis ----------------------------------------------------------------------------------

class TimeAxis {
  charts: uPlot[] = [];
  private syncing = false;
  marker: number | null = null;
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
          },
        ],
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
      axes: [{ label: "seconds since the start", values: (_u, splits) => splits.map((v) => clock(v)) }],
    };
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
  }
  setMarker(t: number | null): void {
    this.marker = t;
    for (const c of this.charts) c.redraw(false, false);
  }
}

function chartWidth(container: HTMLElement): number {
  return Math.max(320, Math.min(1200, (container.clientWidth || document.body.clientWidth || 900) - 8));
}

/** Stacked areas: uPlot draws each series to zero, so plot cumulative sums, biggest first. */
function stacked(
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
  const series: uPlot.Series[] = [{}];
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

// ---- the simulate report -------------------------------------------------------------------------------

interface Run {
  scenario: Scenario;
  result: ReportResult;
  headline: Headline;
  steps: Step[];
}

function makeRun(scenario: Scenario, result: ReportResult): Run {
  return { scenario, result, headline: headline(result, scenario), steps: steps(result) };
}

class SimulateReport {
  private original: Run;
  private run: Run;
  private axis!: TimeAxis;
  private current = 0;
  private playing: number | undefined;
  private whatIf: WhatIf = {};
  private lanesBy: LaneGrouping = "component";
  private showAllRows = false;
  private lanesChart: uPlot | undefined;
  private rowsCache: { run: Run; rows: Map<string, LaneRow[]> } | undefined;

  constructor(
    private readonly root: HTMLElement,
    private readonly payload: SimulatePayload,
  ) {
    this.original = makeRun(payload.scenario, payload.result);
    this.run = this.original;
  }

  render(): void {
    const { scenario, result } = this.run;
    this.root.replaceChildren();
    this.axis?.charts.slice().forEach((c) => {
      c.destroy();
    });
    this.lanesChart = undefined;
    this.axis = new TimeAxis(0, Math.max(1, result.summary.duration));
    this.root.append(
      h(
        "header",
        { class: "top" },
        h("h1", {}, `What happens if… ${result.scenario}`),
        h(
          "p",
          { class: "meta" },
          `Kubernetes ${result.kubernetesVersion} · seed ${result.seed} · ${clock(result.summary.duration)} simulated · ${scenario.nodes.length} nodes · ${result.events.length.toLocaleString("en")} events`,
          this.isWhatIf() ? h("strong", { class: "whatif-flag" }, " · what-if run") : null,
        ),
      ),
      this.headlineSection(),
      this.whatIfSection(),
      this.timelineSection(),
      this.trafficSection(),
      this.clusterSection(),
      this.probesSection(),
      this.variantsSection() ?? "",
      h(
        "footer",
        {},
        "faultline: Kubernetes' failure handling as deterministic models on a virtual clock. Everything on this page is computed in this file; it makes no network request.",
      ),
    );
    this.select(Math.min(this.current, this.run.steps.length - 1), false);
  }

  private isWhatIf(): boolean {
    return this.run !== this.original;
  }

  // headline

  private headlineSection(): HTMLElement {
    const hl = this.run.headline;
    const was = this.isWhatIf() ? this.original.headline : undefined;
    const f = hl.failure;
    const rel = (t: number | null) => (t === null || !f ? "" : ` (${secs(t - f.t)} after the failure)`);
    const figure = (
      key: string,
      label: string,
      value: number | null,
      text: string,
      before: number | null | undefined,
      beforeText?: string,
    ) =>
      h(
        "div",
        { class: "figure" },
        h("dt", {}, label),
        h(
          "dd",
          { "data-figure": key, "data-value": value === null ? "none" : String(value) },
          text,
          was !== undefined && before !== value
            ? h("span", { class: "was" }, ` was ${beforeText ?? "—"}`)
            : null,
        ),
      );
    const at = (t: number | null, none: string) => (t === null ? none : `${tt(t)}${rel(t)}`);
    const lost =
      hl.requestsLost === null
        ? "not in this run"
        : `${hl.requestsLost.toLocaleString("en")} of ${(this.run.result.traffic?.totals.sent ?? 0).toLocaleString("en")}`;
    const notReplaced =
      hl.notReplaced.length > 0 ? `not by the end: ${hl.notReplaced.join(", ")} still waiting` : "";
    return headedSection(
      "headline",
      "What happened",
      h(
        "p",
        { class: "failure" },
        f ? `${tt(f.t)}: ${f.message}.` : "Nothing fails in this run: no timeline step injects a fault.",
        f && hl.lostPods.length > 0
          ? ` ${hl.lostPods.length} pod${hl.lostPods.length === 1 ? "" : "s"} on ${f.node}: ${hl.lostPods
              .slice(0, 6)
              .map((p) => p.split("/")[2])
              .join(", ")}${hl.lostPods.length > 6 ? "…" : ""}.`
          : "",
      ),
      h(
        "dl",
        { class: "figures" },
        figure(
          "failed",
          "What failed",
          f?.t ?? null,
          f ? `${f.node ?? f.do} at ${tt(f.t)}` : "nothing",
          was?.failure?.t ?? null,
        ),
        figure(
          "noticed",
          "The cluster noticed",
          hl.noticed,
          at(hl.noticed, "never"),
          was?.noticed,
          was ? at(was.noticed, "never") : undefined,
        ),
        figure(
          "trafficStopped",
          "Traffic stopped going to the lost pods",
          hl.trafficStopped,
          at(hl.trafficStopped, hl.lostPods.length === 0 ? "no endpoints lost" : "not by the end"),
          was?.trafficStopped,
          was ? at(was.trafficStopped, "not by the end") : undefined,
        ),
        figure(
          "replaced",
          f && ["deadlock", "crash", "dependency-down"].includes(f.do) ? "Restarted in place" : "Replaced",
          hl.replaced,
          hl.replaced === null
            ? notReplaced || "nothing to replace"
            : `${at(hl.replaced, "")}${notReplaced ? `; ${notReplaced}` : ""}`,
          was?.replaced,
          was ? at(was.replaced, "not by the end") : undefined,
        ),
        figure(
          "requestsLost",
          "Requests lost",
          hl.requestsLost,
          lost,
          was?.requestsLost,
          was?.requestsLost === null ? "not in this run" : String(was?.requestsLost ?? ""),
        ),
      ),
      h(
        "div",
        { class: "next" },
        h("h3", {}, `The next thing to do: ${hl.next.title}`),
        h("p", {}, hl.next.text),
        h(
          "details",
          {},
          h("summary", {}, "What else you actually control"),
          h(
            "ul",
            {},
            ...Object.values(LEVERS)
              .filter((l) => l.title !== hl.next.title)
              .map((l) => h("li", {}, h("strong", {}, `${l.title}: `), l.text)),
          ),
        ),
      ),
    );
  }

  // what-if

  private whatIfSection(): HTMLElement {
    const base = currentSettings(this.payload.scenario);
    const cur = currentSettings(this.run.scenario);
    const status = h("p", { id: "whatif-status", role: "status", "aria-live": "polite" }, "");
    const field = (id: string, label: string, input: HTMLElement, hint?: string) =>
      h(
        "div",
        { class: "field" },
        h("label", { for: id }, label),
        input,
        hint ? h("span", { class: "hint", id: `${id}-hint` }, hint) : null,
      );
    const num = (id: string, value: number | undefined, min: number, step: number, disabled = false) =>
      h("input", {
        id,
        type: "number",
        min,
        step,
        value: value === undefined ? "" : String(value),
        disabled,
        ...(disabled ? { "aria-describedby": `${id}-hint` } : {}),
      });
    const version = h(
      "select",
      { id: "wi-version" },
      ...SUPPORTED_VERSIONS.map((v) => h("option", { value: v, selected: v === cur.kubernetesVersion }, v)),
    );
    const grace = num("wi-grace", cur.nodeMonitorGracePeriod, 1, 1);
    const toleration = num("wi-toleration", cur.defaultUnreachableTolerationSeconds, 0, 1);
    const etp = h(
      "select",
      { id: "wi-etp", disabled: !cur.hasServices },
      ...["Cluster", "Local"].map((v) =>
        h("option", { value: v, selected: v === cur.externalTrafficPolicy }, v),
      ),
    );
    const timeout = num("wi-timeout", cur.callerTimeout, 0.1, 0.1, !cur.hasTraffic);
    const form = h(
      "form",
      { id: "whatif-form", "aria-describedby": "whatif-intro" },
      field("wi-version", "Kubernetes version", version),
      field("wi-grace", "node-monitor-grace-period (s)", grace),
      field(
        "wi-toleration",
        "unreachable tolerationSeconds (default-unreachable-toleration-seconds)",
        toleration,
      ),
      field(
        "wi-etp",
        "externalTrafficPolicy (every Service)",
        etp,
        cur.hasServices ? undefined : "not in this run: the scenario has no Service",
      ),
      field(
        "wi-timeout",
        "caller's timeout (s)",
        timeout,
        cur.hasTraffic ? undefined : "not in this run: the scenario has no traffic section",
      ),
    );
    const probes = probeSettings(this.run.scenario);
    const probeInputs: { key: string; input: HTMLInputElement }[] = [];
    if (probes.length > 0) {
      const table = h(
        "table",
        { class: "probe-settings" },
        h("caption", {}, "Probes (periodSeconds, failureThreshold, timeoutSeconds)"),
        headRow(["workload / container", "probe", "period (s)", "failure threshold", "timeout (s)"]),
        h(
          "tbody",
          {},
          ...probes.slice(0, 60).map((p, i) => {
            const cell = (field: "periodSeconds" | "failureThreshold" | "timeoutSeconds", label: string) => {
              const input = h("input", {
                type: "number",
                min: 1,
                step: 1,
                value: String(p[field]),
                id: `wi-probe-${i}-${field}`,
                "aria-label": `${p.workload} ${p.container} ${p.probe} ${label}`,
              });
              probeInputs.push({ key: `${p.workload}|${p.container}|${p.probe}|${field}`, input });
              return h("td", {}, input);
            };
            return h(
              "tr",
              {},
              h("th", { scope: "row" }, `${p.workload} / ${p.container}`),
              h("td", {}, p.probe),
              cell("periodSeconds", "periodSeconds"),
              cell("failureThreshold", "failureThreshold"),
              cell("timeoutSeconds", "timeoutSeconds"),
            );
          }),
        ),
      );
      form.append(table);
    }
    const reset = h("button", { type: "button", id: "wi-reset" }, "Back to the scenario as written");
    form.append(h("div", { class: "actions" }, reset));

    const recompute = () => {
      const w: WhatIf = {};
      if (version.value !== base.kubernetesVersion)
        w.kubernetesVersion = version.value as WhatIf["kubernetesVersion"];
      const g = Number(grace.value);
      // A version change brings that version's default grace period unless the field was edited.
      if (grace.value !== "" && g > 0 && g !== cur.nodeMonitorGracePeriod) w.nodeMonitorGracePeriod = g;
      else if (this.whatIf.nodeMonitorGracePeriod !== undefined && grace.value !== "")
        w.nodeMonitorGracePeriod = g;
      const tol = Number(toleration.value);
      if (toleration.value !== "" && tol >= 0 && tol !== base.defaultUnreachableTolerationSeconds)
        w.defaultUnreachableTolerationSeconds = tol;
      if (cur.hasServices && etp.value !== base.externalTrafficPolicy)
        w.externalTrafficPolicy = etp.value as "Cluster" | "Local";
      const to = Number(timeout.value);
      if (cur.hasTraffic && timeout.value !== "" && to > 0 && to !== base.callerTimeout) w.callerTimeout = to;
      const overrides = new Map<string, NonNullable<WhatIf["probes"]>[number]>();
      for (const { key, input } of probeInputs) {
        const [workload, container, probe, f] = key.split("|") as [
          string,
          string,
          (typeof PROBES)[number],
          string,
        ];
        const p = probes.find(
          (x) => x.workload === workload && x.container === container && x.probe === probe,
        )!;
        const v = Number(input.value);
        const field = f as "periodSeconds" | "failureThreshold" | "timeoutSeconds";
        if (!(v > 0) || v === p[field]) continue;
        const k = `${workload}|${container}|${probe}`;
        const o = overrides.get(k) ?? { workload, container, probe };
        o[field] = v;
        overrides.set(k, o);
      }
      if (overrides.size > 0) w.probes = [...overrides.values()];
      // The same settings as the run on show: nothing to do.
      if (JSON.stringify(w) === JSON.stringify(this.whatIf)) return;
      status.textContent = "Running the scenario with these settings…";
      // Let the status paint before the (synchronous) simulation.
      setTimeout(() => this.applyWhatIf(w), 0);
    };
    form.addEventListener("change", recompute);
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      recompute();
    });
    reset.addEventListener("click", () => {
      this.whatIf = {};
      this.run = this.original;
      this.render();
      document.getElementById("wi-version")?.focus();
    });
    return headedSection(
      "whatif",
      "What if…",
      h(
        "p",
        { id: "whatif-intro" },
        "Change a setting and the scenario runs again, here in the page, with the same engine as the command line. The figures above show the new run and what they were.",
      ),
      form,
      status,
    );
  }

  private applyWhatIf(w: WhatIf): void {
    const started = performance.now();
    let scenario: Scenario;
    let result: ReportResult;
    try {
      // A value the scenario file could not hold is refused with load/'s message.
      scenario = applyWhatIf(this.payload.scenario, w);
      result = simulate(scenario);
    } catch (e) {
      const s = document.getElementById("whatif-status");
      if (s) s.textContent = `That run failed: ${e instanceof Error ? e.message : String(e)}`;
      return;
    }
    const ms = performance.now() - started;
    this.whatIf = w;
    const focused = document.activeElement?.id;
    this.run = makeRun(scenario, result);
    this.render();
    if (focused) document.getElementById(focused)?.focus();
    const s = document.getElementById("whatif-status");
    const changed = Object.keys(w).length;
    if (s)
      s.textContent =
        changed === 0
          ? `Back to the scenario as written (run again in ${Math.round(ms)} ms).`
          : `New run computed in the page in ${Math.round(ms)} ms. Note: this run has no traffic model output, so requests are not in it.`.replace(
              result.traffic ? / Note:.*$/ : /$^/,
              "",
            );
    document.body.dataset.runs = String(Number(document.body.dataset.runs ?? "0") + 1);
  }

  // timeline: swimlanes + player

  private timelineSection(): HTMLElement {
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
          ["zoom-in", "Zoom in", () => this.zoom(0.5)],
          ["zoom-out", "Zoom out", () => this.zoom(2)],
          ["pan-left", "Pan left", () => this.pan(-0.25)],
          ["pan-right", "Pan right", () => this.pan(0.25)],
          ["zoom-reset", "Whole run", () => this.axis.set(this.axis.min, this.axis.max)],
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
      ...LANE_GROUPINGS.map((g) => h("option", { value: g, selected: g === this.lanesBy }, g)),
    );
    const draw = () => this.drawLanes(chartBox, rowList, all);
    by.addEventListener("change", () => {
      this.lanesBy = by.value as LaneGrouping;
      this.showAllRows = false;
      draw();
    });
    all.addEventListener("click", () => {
      this.showAllRows = !this.showAllRows;
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
      this.playerSection(),
    );
    queueMicrotask(draw);
    return section;
  }

  /** (Re)draws the swimlanes in the grouping chosen, keeping the time range on show. */
  private drawLanes(box: HTMLElement, rowList: HTMLElement, all: HTMLButtonElement): void {
    const range = this.lanesChart && this.axis.charts.includes(this.lanesChart) ? this.axis.range() : null;
    this.lanesChart?.destroy();
    this.lanesChart = undefined;
    box.replaceChildren();
    box.classList.remove("scroll");
    box.removeAttribute("tabindex");
    box.style.height = "";
    box.onscroll = null;
    const u =
      this.lanesBy === "component"
        ? this.componentLanes(box, rowList, all)
        : this.rowLanes(box, rowList, all);
    this.lanesChart = u;
    this.axis.add(u);
    if (range) u.setScale("x", { min: range[0], max: range[1] });
    u.over.addEventListener("click", () => {
      const idx = u.cursor.idx;
      if (idx != null) this.select(idx, true);
    });
  }

  /** The default view: one lane per component. */
  private componentLanes(box: HTMLElement, rowList: HTMLElement, all: HTMLButtonElement): uPlot {
    const { steps: st, result } = this.run;
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
        ...this.axis.opts(),
        width: chartWidth(box),
        height: 230,
        series,
        legend: { show: false },
        scales: { ...this.axis.opts().scales, y: { range: [-0.6, LANES.length - 0.4] } },
        axes: [
          this.axis.opts().axes![0]!,
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
  private rowLanes(box: HTMLElement, rowList: HTMLElement, all: HTMLButtonElement): uPlot {
    const by = this.lanesBy as Exclude<LaneGrouping, "component">;
    const run = this.run;
    const cached = this.rowsCache?.run === run ? this.rowsCache.rows : new Map<string, LaneRow[]>();
    this.rowsCache = { run, rows: cached };
    let rows = cached.get(by);
    if (!rows) {
      rows = laneRows(run.result, run.scenario, run.steps, by);
      cached.set(by, rows);
    }
    const st = run.steps;
    const expanded = this.showAllRows && rows.length > MAX_ROWS;
    const shown = expanded ? rows : rows.slice(0, MAX_ROWS);
    const visible = Math.max(1, Math.min(rows.length, MAX_ROWS));
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

    // Row i sits at y = -i; `first` is the top row of the visible (fractional while scrolling).
    let first = 0;
    const yRange = (): [number, number] => [-(first + visible - 1) - 0.6, -first + 0.6];
    const label = (r: LaneRow) => (r.label.length > 28 ? `${r.label.slice(0, 27)}…` : r.label);
    const longest = Math.max(4, ...shown.slice(0, 400).map((r) => label(r).length));
    const x = st.map((s) => s.t);
    const base = this.axis.opts();
    const radius = 4.5;
    const offsets = LANES.map((_, i) => (i - (LANES.length - 1) / 2) * 2.5);
    const drawPoints = (u: uPlot) => {
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
    const rowHeight = 22;
    // The x axis and its label take about 90 px below the rows.
    const height = Math.max(200, visible * rowHeight + 90);
    const u = new uPlot(
      {
        ...base,
        width: chartWidth(box),
        height,
        // An empty series: the cursor and a click still find the step nearest the pointer.
        series: [{}, { label: "steps", paths: () => null, points: { show: false } }],
        legend: { show: false },
        scales: { ...base.scales, y: { range: () => yRange() } },
        hooks: { ...base.hooks, draw: [drawPoints, ...(base.hooks?.draw ?? [])] },
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
    if (expanded) {
      // The whole list scrolls under a visible of the chart's height: the canvas keeps its size.
      box.classList.add("scroll");
      box.setAttribute("tabindex", "0");
      box.style.height = `${height}px`;
      box.append(
        h("div", { class: "lanes-spacer", style: `height:${(rows.length - visible) * rowHeight}px` }),
      );
      let pending = false;
      box.onscroll = () => {
        if (pending) return;
        pending = true;
        requestAnimationFrame(() => {
          pending = false;
          first = Math.min(rows.length - visible, box.scrollTop / rowHeight);
          const [min, max] = yRange();
          u.setScale("y", { min, max });
        });
      };
    }
    return u;
  }

  private zoom(f: number): void {
    const [a, b] = this.axis.range();
    const mid = this.axis.marker ?? (a + b) / 2;
    const span = Math.max(2, (b - a) * f);
    this.axis.set(mid - span / 2, mid + span / 2);
  }
  private pan(f: number): void {
    const [a, b] = this.axis.range();
    this.axis.set(a + (b - a) * f, b + (b - a) * f);
  }

  private playerSection(): HTMLElement {
    const n = this.run.steps.length;
    const range = h("input", {
      type: "range",
      id: "player-range",
      min: 0,
      max: Math.max(0, n - 1),
      value: 0,
      "aria-label": "Step",
    });
    const prev = h(
      "button",
      { type: "button", id: "player-prev", "aria-label": "Previous step" },
      "◀ Previous",
    );
    const play = h("button", { type: "button", id: "player-play", "aria-pressed": "false" }, "Play");
    const next = h("button", { type: "button", id: "player-next", "aria-label": "Next step" }, "Next ▶");
    const label = h("output", { id: "player-position", for: "player-range" }, "");
    const body = h("div", { id: "player-step", "aria-live": "polite" });
    prev.addEventListener("click", () => this.select(this.current - 1, true));
    next.addEventListener("click", () => this.select(this.current + 1, true));
    play.addEventListener("click", () => this.togglePlay());
    range.addEventListener("input", () => this.select(Number(range.value), true));
    const section = h(
      "section",
      {
        id: "player",
        tabindex: 0,
        "aria-labelledby": "player-h",
        "aria-describedby": "player-keys",
      },
      h("h3", { id: "player-h" }, "Step by step"),
      h(
        "p",
        { id: "player-keys", class: "hint" },
        "Keys: ← and → step back and forward, Home and End jump to the first and last step, Space plays.",
      ),
      h("div", { class: "player-controls" }, prev, play, next, range, label),
      body,
    );
    section.addEventListener("keydown", (ev) => {
      if (ev.target instanceof HTMLInputElement && ev.target.type === "range") return;
      const k = ev.key;
      if (k === "ArrowRight") this.select(this.current + 1, true);
      else if (k === "ArrowLeft") this.select(this.current - 1, true);
      else if (k === "Home") this.select(0, true);
      else if (k === "End") this.select(n - 1, true);
      else if (k === " " && ev.target === section) this.togglePlay();
      else return;
      ev.preventDefault();
    });
    return section;
  }

  private togglePlay(): void {
    const btn = document.getElementById("player-play");
    if (this.playing !== undefined) {
      clearInterval(this.playing);
      this.playing = undefined;
      btn?.setAttribute("aria-pressed", "false");
      if (btn) btn.textContent = "Play";
      return;
    }
    if (this.current >= this.run.steps.length - 1) this.select(0, true);
    btn?.setAttribute("aria-pressed", "true");
    if (btn) btn.textContent = "Pause";
    this.playing = window.setInterval(() => {
      if (this.current >= this.run.steps.length - 1) this.togglePlay();
      else this.select(this.current + 1, true);
    }, 1500);
  }

  private select(i: number, follow: boolean): void {
    const st = this.run.steps;
    if (st.length === 0) {
      const body = document.getElementById("player-step");
      if (body) body.textContent = "No steps in this run.";
      return;
    }
    this.current = Math.max(0, Math.min(st.length - 1, i));
    const step = st[this.current]!;
    const range = document.getElementById("player-range") as HTMLInputElement | null;
    if (range) range.value = String(this.current);
    const pos = document.getElementById("player-position");
    if (pos) pos.textContent = `step ${this.current + 1} of ${st.length} · ${tt(step.t)}`;
    const body = document.getElementById("player-step");
    if (body) {
      body.dataset.step = String(this.current);
      body.replaceChildren(
        h(
          "p",
          { class: "step-time" },
          h("strong", {}, tt(step.t)),
          step.events.length > 1 ? ` · ${step.events.length} things at once` : "",
        ),
        ...step.events.slice(0, 50).map((ei) => eventCard(this.run.result.events[ei]!)),
        step.events.length > 50
          ? h("p", { class: "hint" }, `…and ${step.events.length - 50} more at this moment`)
          : "",
      );
    }
    if (this.axis) {
      this.axis.setMarker(step.t);
      if (follow) {
        const [a, b] = this.axis.range();
        if (step.t < a || step.t > b) this.axis.set(step.t - (b - a) / 2, step.t + (b - a) / 2);
      }
    }
  }

  // charts

  private trafficSection(): HTMLElement {
    const traffic = this.run.result.traffic;
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
    this.timeChart(box, series, data, "requests/s");
    if (ps.some((p) => p.p99Ms != null)) {
      const latency = chartFrame(
        "latency-chart",
        "Latency per second of send time, from a request's creation to its answer or its caller's timeout: p50, p99, max (ms)",
      );
      section.append(latency);
      const keys = ["p50Ms", "p99Ms", "maxMs"] as const;
      this.timeChart(
        latency,
        [{}, ...keys.map((k) => ({ label: k.replace("Ms", ""), stroke: LATENCY_COLOURS[k], width: 2 }))],
        [x, ...keys.map((k) => ps.map((p) => p[k] ?? null))] as uPlot.AlignedData,
        "ms",
      );
    }
    return section;
  }

  private clusterSection(): HTMLElement {
    const box = chartFrame("cluster-chart", "Ready endpoints and pods by phase, per second");
    const s = clusterSeries(this.run.result, this.run.scenario);
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
    this.timeChart(box, series, data, "count");
    return headedSection(
      "cluster",
      "Ready endpoints and pods by phase",
      h(
        "p",
        { class: "hint" },
        this.run.result.traffic
          ? "Derived from the trace."
          : "Derived from the trace (EndpointSlice and pod events): where Services send new requests.",
      ),
      box,
    );
  }

  /** A 220 px chart on the shared time axis, drawn once the box is in the page. */
  private timeChart(box: HTMLElement, series: uPlot.Series[], data: uPlot.AlignedData, yLabel: string): void {
    queueMicrotask(() => {
      this.axis.add(
        new uPlot(
          {
            ...this.axis.opts(),
            width: chartWidth(box),
            height: 220,
            series,
            axes: [this.axis.opts().axes![0]!, { label: yLabel }],
          },
          data,
          box,
        ),
      );
    });
  }

  // probes

  private probesSection(): HTMLElement {
    const section = headedSection("probes", "Probes, restarts and back-off, per pod");
    // A large run draws its headline and charts first; the per-pod rows follow once the page is up.
    if (this.run.result.events.length > 20_000) {
      const wait = h("p", { class: "hint" }, "Reading the probe rows…");
      section.append(wait);
      setTimeout(() => {
        wait.remove();
        this.fillProbes(section);
      }, 50);
    } else this.fillProbes(section);
    return section;
  }

  private fillProbes(section: HTMLElement): void {
    const { pods, hasProbeEvents } = probeRows(this.run.result, this.run.scenario);
    const configured = probeSettings(this.run.scenario);
    if (!hasProbeEvents)
      section.append(
        h(
          "p",
          { class: "absent", "data-absent": "probes" },
          `Probe checks: not in this run (the trace has no prober events). ${
            configured.length > 0
              ? `Configured: ${configured
                  .slice(0, 8)
                  .map(
                    (p) =>
                      `${p.workload}/${p.container} ${p.probe} every ${p.periodSeconds}s, ${p.failureThreshold} failures, ${p.timeoutSeconds}s timeout`,
                  )
                  .join("; ")}.`
              : "No workload sets a probe."
          }`,
        ),
      );
    const groupBy = h(
      "select",
      { id: "probes-group" },
      h("option", { value: "owner" }, "workload"),
      h("option", { value: "node" }, "node"),
    );
    const groups = h("div", { class: "groups" });
    const draw = () => {
      groups.replaceChildren();
      const by = new Map<string, PodProbes[]>();
      for (const p of pods) {
        const k = groupBy.value === "node" ? (p.node ?? "no node") : p.owner;
        const list = by.get(k) ?? [];
        list.push(p);
        by.set(k, list);
      }
      const keys = [...by.keys()].sort();
      // Small runs open every group; large ones stay folded until asked (rows render on demand).
      const openAll = pods.length <= 40;
      for (const k of keys) {
        const list = by.get(k)!;
        const restarts = list.reduce((a, p) => a + p.restarts, 0);
        const fails = list.reduce(
          (a, p) => a + PROBES.reduce((b, pk) => b + p.checks[pk].filter((c) => !c.ok).length, 0),
          0,
        );
        const det = h(
          "details",
          { class: "group", open: openAll },
          h(
            "summary",
            {},
            `${k} · ${list.length} pod${list.length === 1 ? "" : "s"}`,
            restarts > 0 ? ` · ${restarts} restart${restarts === 1 ? "" : "s"}` : "",
            fails > 0 ? ` · ${fails} failed check${fails === 1 ? "" : "s"}` : "",
          ),
        );
        let shown = 0;
        const { table, body } = this.podTable();
        const more = h("button", { type: "button", class: "more" }, "Show more pods");
        const fill = () => {
          const next = list.slice(shown, shown + 50);
          for (const p of next) body.append(this.podRow(p));
          shown += next.length;
          if (shown >= list.length) more.remove();
          else more.textContent = `Show more pods (${list.length - shown} left)`;
        };
        more.addEventListener("click", fill);
        det.append(table, more);
        const open = () => {
          if (shown === 0) fill();
        };
        if (openAll) open();
        det.addEventListener("toggle", open);
        groups.append(det);
      }
    };
    groupBy.addEventListener("change", draw);
    draw();
    section.append(
      h("div", { class: "field inline" }, h("label", { for: "probes-group" }, "Group pods by"), groupBy),
      groups,
    );
  }

  private podTable(): { table: HTMLTableElement; body: HTMLTableSectionElement } {
    const body = h("tbody", {});
    const table = h(
      "table",
      { class: "probe-rows" },
      headRow(["pod", "node", "restarts", ...PROBES, "container: starts, kills, back-off"]),
      body,
    );
    return { table, body };
  }

  private podRow(p: PodProbes): HTMLElement {
    const name = p.pod.split("/").slice(2).join("/");
    const cells = PROBES.map((k) => {
      const checks = p.checks[k];
      if (checks.length === 0) return h("td", { "data-probe": k, class: "none" }, "–");
      const ok = checks.filter((c) => c.ok).length;
      return h(
        "td",
        { "data-probe": k },
        h("span", { class: "counts" }, `${ok} ✓ ${checks.length - ok} ✗ `),
        h(
          "span",
          { class: "ticks", role: "img", "aria-label": `${k}: ${ok} passed, ${checks.length - ok} failed` },
          ...checks.slice(-40).map((c) =>
            h("span", {
              class: c.ok ? "tick ok" : "tick fail",
              title: `${tt(c.t)} ${c.ok ? "passed" : `failed (${c.consecutive ?? 1} in a row)`}`,
            }),
          ),
        ),
      );
    });
    const lifecycle = [
      ...p.starts.map((s) => ({ t: s.t, text: `${tt(s.t)} started (restartCount ${s.restartCount})` })),
      ...p.kills.map((s) => ({ t: s.t, text: `${tt(s.t)} killed${s.probe ? ` by ${s.probe}` : ""}` })),
      ...p.backOffs.map((s) => ({ t: s.t, text: `${tt(s.t)} back-off ${s.delaySeconds}s` })),
    ].sort((a, b) => a.t - b.t);
    return h(
      "tr",
      { "data-probe-row": p.pod },
      h("th", { scope: "row" }, name),
      h("td", {}, p.node ?? "–"),
      h("td", { class: "num" }, String(p.restarts)),
      ...cells,
      h(
        "td",
        { class: "lifecycle" },
        lifecycle.length === 0
          ? "–"
          : `${lifecycle
              .slice(0, 6)
              .map((l) => l.text)
              .join("; ")}${lifecycle.length > 6 ? ` (+${lifecycle.length - 6})` : ""}`,
      ),
    );
  }

  private variantsSection(): HTMLElement | undefined {
    const variants = this.payload.variants;
    if (!variants || variants.length === 0) return undefined;
    const runs = variants.map((v) => ({
      label: v.label,
      hl: headline(v.result, this.payload.scenario),
      r: v.result,
    }));
    const row = (label: string, f: (hl: Headline, r: ReportResult) => string) =>
      h("tr", {}, h("th", { scope: "row" }, label), ...runs.map((v) => h("td", {}, f(v.hl, v.r))));
    const at = (t: number | null) => (t === null ? "—" : tt(t));
    return headedSection(
      "variants",
      "Variants side by side",
      h(
        "table",
        { class: "variants" },
        headRow(["", ...runs.map((v) => v.label)]),
        h(
          "tbody",
          {},
          row("noticed", (hl) => at(hl.noticed)),
          row("traffic stopped", (hl) => at(hl.trafficStopped)),
          row("replaced", (hl) => at(hl.replaced)),
          row("requests lost", (hl) =>
            hl.requestsLost === null ? "not in this run" : hl.requestsLost.toLocaleString("en"),
          ),
          row("requests sent", (_hl, r) =>
            r.traffic ? (r.traffic.totals.sent ?? 0).toLocaleString("en") : "—",
          ),
        ),
      ),
    );
  }
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

function eventCard(e: TraceEvent): HTMLElement {
  const prose = proseOf(e);
  return h(
    "article",
    { class: "event", "data-lane": e.lane, style: `border-left-color:${LANE_COLOURS[e.lane]}` },
    h(
      "p",
      {},
      h("span", { class: "lane", style: `color:${LANE_COLOURS[e.lane]}` }, LANE_LABELS[e.lane]),
      " ",
      prose.message,
    ),
    prose.why ? h("p", { class: "why" }, h("strong", {}, "Why now: "), prose.why) : null,
    prose.see
      ? h("div", { class: "see" }, h("strong", {}, "What you would see:"), h("pre", {}, prose.see))
      : null,
  );
}

// ---- the detector report -------------------------------------------------------------------------------

function renderDetector(root: HTMLElement, p: DetectorPayload): void {
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
  const marks: { t: number; label: string; colour: string }[] = [];
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
        x.map((t) => Math.min(phi(t, mean, sd), 50)),
        det.threshold,
      );
    } else marks.push({ t: d.suspectAfterMs, label: d.label, colour });
  }
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
  const perDay = (v: number) => (v === 0 ? "0" : v < 0.001 ? v.toExponential(1) : v.toPrecision(3));
  root.append(
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
  );
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

// ---- entry ---------------------------------------------------------------------------------------------

/** The embedded payload: plain JSON, or gzipped and base64-encoded for large runs. */
async function readPayload(el: HTMLElement): Promise<ReportPayload> {
  const text = el.textContent ?? "{}";
  if (el.dataset.encoding !== "gzip-base64") return JSON.parse(text) as ReportPayload;
  const bin = atob(text.trim());
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return JSON.parse(await new Response(stream).text()) as ReportPayload;
}

async function main(): Promise<void> {
  const el = document.getElementById("faultline-data");
  const root = document.getElementById("app");
  if (!el || !root) return;
  const started = performance.now();
  const payload = await readPayload(el);
  if (payload.kind === "detector") renderDetector(root, payload);
  else new SimulateReport(root, payload).render();
  queueMicrotask(() => {
    document.body.dataset.ready = "true";
    document.body.dataset.renderMs = String(Math.round(performance.now() - started));
    document.body.dataset.readyAt = String(Math.round(performance.now()));
  });
}

main().catch((e: unknown) => {
  const root = document.getElementById("app");
  if (root)
    root.textContent = `This report could not draw itself: ${e instanceof Error ? e.message : String(e)}`;
  throw e;
});
