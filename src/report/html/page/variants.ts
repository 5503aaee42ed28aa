// `--vary`: the variants side by side.

import { type Headline, headline, type ReportResult } from "../model/index.ts";
import { h, headedSection, headRow, tt } from "./dom.ts";
import type { ReportView } from "./view.ts";

export function variantsSection(r: ReportView): HTMLElement | undefined {
  const variants = r.payload.variants;
  if (!variants || variants.length === 0) return undefined;
  const runs = variants.map((v) => ({
    label: v.label,
    hl: headline(v.result, r.payload.scenario),
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
