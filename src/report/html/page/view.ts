// What the sections of the simulate report read and call: the run on show and the report's state. The
// report (report.ts) implements it; the sections depend on this, not on the report.

import type uPlot from "uplot";
import type { Scenario } from "../../../scenario/types.ts";
import type { WhatIf } from "../../../whatif/panel.ts";
import {
  type Headline,
  headline,
  type LaneGrouping,
  type LaneRow,
  type ReportResult,
  type SimulatePayload,
  type Step,
  steps,
} from "../model/index.ts";
import type { TimeAxis } from "./axis.ts";

export interface Run {
  scenario: Scenario;
  result: ReportResult;
  headline: Headline;
  steps: Step[];
}

export function makeRun(scenario: Scenario, result: ReportResult): Run {
  return { scenario, result, headline: headline(result, scenario), steps: steps(result) };
}

export interface ReportView {
  readonly payload: SimulatePayload;
  /** the run the page opened with */
  original: Run;
  /** the run on show: the original or a what-if's */
  run: Run;
  axis: TimeAxis;
  /** the player's step */
  current: number;
  whatIf: WhatIf;
  /** with `--vary`, the variant on show (an index into payload.variants) */
  variant: number;
  lanesBy: LaneGrouping;
  showAllRows: boolean;
  lanesChart: uPlot | undefined;
  rowsCache: { run: Run; rows: Map<string, LaneRow[]> } | undefined;
  isWhatIf(): boolean;
  applyWhatIf(w: WhatIf): Promise<void>;
  select(i: number, follow: boolean): void;
  togglePlay(): void;
  render(): void;
  /** the zoom, step, variant or what-if changed: the URL's fragment follows */
  viewChanged(): void;
  showVariant(i: number): void;
}
