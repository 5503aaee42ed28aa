// The simulate report: the run on show (the scenario's, or a what-if's), the shared time axis and the
// player's position; each section draws itself from it (page/*.ts).

import type uPlot from "uplot";
import { estimateWork, overBudget } from "../../../run/budget.ts";
import type { Scenario } from "../../../scenario/types.ts";
import { applyWhatIf, type WhatIf } from "../../../whatif/panel.ts";
import { applyVariation } from "../../../whatif/vary.ts";
import { lossWindow } from "../model/bands.ts";
import { type FirstView, metaLine, pageTitle } from "../model/first.ts";
import type { LaneGrouping, LaneRow, ReportResult, SimulatePayload } from "../model/index.ts";
import { TimeAxis } from "./axis.ts";
import { bandsSection } from "./bands.ts";
import { clusterSection, trafficSection } from "./charts.ts";
import { h, tt } from "./dom.ts";
import { headlineSection, nextBox, type Shown } from "./headline.ts";
import { timelineSection } from "./lanes.ts";
import { latencySection } from "./latency.ts";
import { linkBar, writeLink } from "./link.ts";
import { eventCard } from "./player.ts";
import { probesSection } from "./probes.ts";
import { variantsSection } from "./variants.ts";
import { makeRun, type ReportView, type Run } from "./view.ts";
import { whatIfSection } from "./whatif.ts";
import { simulateOffThread } from "./worker.ts";

/** The player opens on the run's first fault (or its first step when nothing fails). */
function firstFaultStep(run: Run): number {
  const t = run.headline.failed;
  if (t === null) return 0;
  return Math.max(
    0,
    run.steps.findIndex((s) => s.t >= t),
  );
}

const shown = (run: Run): Shown => ({ headline: run.headline, sent: run.result.traffic?.totals.sent });

/** The page's title, the run's line and, with `--vary`, the variant on show. */
export function header(v: Omit<FirstView, "headline" | "sent">, whatIf: boolean): HTMLElement {
  return h(
    "header",
    { class: "top" },
    h("h1", {}, v.title),
    h(
      "p",
      { class: "meta" },
      v.meta,
      whatIf ? h("strong", { class: "whatif-flag" }, " · what-if run") : null,
    ),
    v.variant
      ? h(
          "p",
          { id: "variant-on-show", class: "variant-flag" },
          "Variant on show: ",
          h("strong", {}, v.variant),
          whatIf ? " (changed by the what-if below)" : "",
        )
      : null,
  );
}

export class SimulateReport implements ReportView {
  original: Run;
  run: Run;
  axis!: TimeAxis;
  current = 0;
  playing: number | undefined;
  whatIf: WhatIf = {};
  variant = 0;
  lanesBy: LaneGrouping = "component";
  showAllRows = false;
  lanesChart: uPlot | undefined;
  rowsCache: { run: Run; rows: Map<string, LaneRow[]> } | undefined;
  /** once the view the link asked for is restored, every change is written to the URL's fragment */
  linking = false;

  constructor(
    readonly root: HTMLElement,
    readonly payload: SimulatePayload,
  ) {
    this.original = makeRun(this.variantScenario(0), payload.result);
    this.run = this.original;
    this.current = firstFaultStep(this.original);
  }

  /** The scenario a variant ran: the payload's, loaded again with the variant's setting (whatif/vary.ts). */
  private variantScenario(i: number): Scenario {
    const v = this.payload.variants?.[i];
    return v ? applyVariation(this.payload.scenario, v.key, v.value) : this.payload.scenario;
  }

  showVariant(i: number): void {
    const v = this.payload.variants?.[i];
    if (!v) return;
    this.variant = i;
    this.original = makeRun(this.variantScenario(i), v.result ?? this.payload.result);
    this.run = this.original;
    this.whatIf = {};
    this.current = firstFaultStep(this.original);
    this.render();
  }

  render(): void {
    const { scenario, result } = this.run;
    const variant = this.payload.variants?.[this.variant];
    this.root.replaceChildren();
    this.axis?.charts.slice().forEach((c) => {
      c.destroy();
    });
    this.lanesChart = undefined;
    this.axis = new TimeAxis(0, Math.max(1, result.summary.duration));
    this.axis.window = lossWindow(result);
    this.axis.onChange(() => this.viewChanged());
    const top = header(
      {
        title: pageTitle(result),
        meta: metaLine(result, scenario.nodes.length),
        ...(variant ? { variant: variant.label } : {}),
      },
      this.isWhatIf(),
    );
    // On the run's line: the first screen keeps its room for the headline and the bands.
    top.querySelector(".meta")?.append(" · ", linkBar(this));
    this.root.append(
      top,
      variantsSection(this) ?? "",
      // The headline and the state bands on the first screen (1440×900), the next lever below them.
      headlineSection(shown(this.run), this.isWhatIf() ? shown(this.original) : undefined, false),
      bandsSection(this),
      nextBox(this.run.headline),
      whatIfSection(this),
      timelineSection(this),
      trafficSection(this),
      latencySection(this) ?? "",
      clusterSection(this),
      probesSection(this),
      h(
        "footer",
        {},
        "faultline: Kubernetes' failure handling as deterministic models on a virtual clock. Everything on this page is computed in this file; it makes no network request.",
      ),
    );
    this.select(Math.min(this.current, this.run.steps.length - 1), false);
  }

  isWhatIf(): boolean {
    return this.run !== this.original;
  }

  viewChanged(): void {
    if (this.linking) writeLink(this);
  }

  async applyWhatIf(w: WhatIf): Promise<void> {
    const started = performance.now();
    let scenario: Scenario;
    let result: ReportResult;
    let where: "worker" | "page";
    try {
      // A value the scenario file could not hold is refused with load/'s message.
      scenario = applyWhatIf(this.original.scenario, w);
      // Held to the run's budget, as the command line holds each run (src/run/budget.ts).
      const over = overBudget(estimateWork(scenario), this.payload.budget);
      if (over) throw new Error(`not run: ${over}`);
      // In a worker where there is one (page/worker.ts): the page stays responsive meanwhile.
      ({ result, where } = await simulateOffThread(scenario, {
        seed: this.original.result.seed,
        engine: { maxEvents: this.payload.budget.maxEvents },
      }));
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
          : `New run computed in the page${where === "worker" ? " (in a worker)" : ""} in ${Math.round(ms)} ms. Note: this run has no traffic model output, so requests are not in it.`.replace(
              result.traffic ? / Note:.*$/ : /$^/,
              "",
            );
    document.body.dataset.runs = String(Number(document.body.dataset.runs ?? "0") + 1);
    document.body.dataset.whatifWhere = where;
    this.viewChanged();
  }
  togglePlay(): void {
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
  select(i: number, follow: boolean): void {
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
    this.viewChanged();
  }
}
