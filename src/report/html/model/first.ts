// What the page paints first, before it reads the trace: the title line and the headline, computed by
// the writer (html.ts) with the same model the page runs, and embedded as a few kilobytes of JSON.

import { clock } from "../../text.ts";
import { type Headline, headline } from "./headline.ts";
import type { ReportResult, SimulatePayload } from "./payload.ts";

export interface FirstView {
  title: string;
  meta: string;
  /** with `--vary`, the label of the variant on show */
  variant?: string;
  headline: Headline;
  /** requests the callers sent (undefined: no traffic in the run) */
  sent?: number;
}

export function pageTitle(result: ReportResult): string {
  return `What happens if… ${result.scenario}`;
}

export function metaLine(result: ReportResult, nodes: number): string {
  return `Kubernetes ${result.kubernetesVersion} · seed ${result.seed} · ${clock(result.summary.duration)} simulated · ${nodes} nodes · ${result.events.length.toLocaleString("en")} events`;
}

/** A lost pod list longer than the headline shows is cut here (the count stays): the first view stays small. */
const SHOWN_PODS = 7;

export function firstView(payload: SimulatePayload): FirstView {
  const { result, scenario } = payload;
  const hl = headline(result, scenario);
  const sent = result.traffic?.totals.sent;
  return {
    title: pageTitle(result),
    meta: metaLine(result, scenario.nodes.length),
    ...(payload.variants?.[0] ? { variant: payload.variants[0].label } : {}),
    headline: {
      ...hl,
      notReplaced: hl.notReplaced.slice(0, SHOWN_PODS),
      notReplacedCount: hl.notReplaced.length,
      faults: hl.faults.map((f) => ({
        ...f,
        lostPods: f.lostPods.slice(0, SHOWN_PODS),
        lostPodCount: f.lostPods.length,
        notReplaced: f.notReplaced.slice(0, SHOWN_PODS),
        notReplacedCount: f.notReplaced.length,
      })),
    },
    ...(sent !== undefined ? { sent } : {}),
  };
}
