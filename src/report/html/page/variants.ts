// `--vary`: the variants side by side, at the top, and which one is on show. Choosing one draws its run
// and starts the what-if from its settings.

import { type Headline, headline, type ReportResult } from "../model/index.ts";
import { h, headedSection, tt } from "./dom.ts";
import type { ReportView } from "./view.ts";

export function variantsSection(r: ReportView): HTMLElement | undefined {
  const variants = r.payload.variants;
  if (!variants || variants.length === 0) return undefined;
  const runs = variants.map((v) => {
    const result = v.result ?? r.payload.result;
    return { label: v.label, hl: headline(result, r.payload.scenario), r: result };
  });
  const row = (label: string, f: (hl: Headline, r: ReportResult) => string) =>
    h(
      "tr",
      {},
      h("th", { scope: "row" }, label),
      ...runs.map((v, i) => h("td", { class: i === r.variant ? "on-show" : undefined }, f(v.hl, v.r))),
    );
  const at = (t: number | null) => (t === null ? "—" : tt(t));
  const pick = h(
    "select",
    { id: "variant" },
    ...variants.map((v, i) => h("option", { value: i, selected: i === r.variant }, v.label)),
  );
  pick.addEventListener("change", () => {
    r.showVariant(Number(pick.value));
    document.getElementById("variant")?.focus();
  });
  return headedSection(
    "variants",
    "Variants side by side",
    h(
      "div",
      { class: "field inline" },
      h("label", { for: "variant" }, "Variant on show (the page below and the what-if start from it)"),
      pick,
    ),
    h(
      "div",
      { class: "scroll-x", tabindex: 0, role: "region", "aria-label": "The variants' figures" },
      h(
        "table",
        { class: "variants" },
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            h("td", {}),
            ...runs.map((v, i) =>
              h(
                "th",
                { scope: "col", class: i === r.variant ? "on-show" : undefined },
                v.label,
                i === r.variant ? h("span", { class: "badge" }, " (on show)") : null,
              ),
            ),
          ),
        ),
        h(
          "tbody",
          {},
          row("noticed", (hl) => at(hl.noticed)),
          row("traffic stopped", (hl) => at(hl.trafficStopped)),
          row("replaced", (hl) => at(hl.replaced)),
          row("requests lost", (hl) =>
            hl.requestsLost === null ? "not in this run" : hl.requestsLost.toLocaleString("en"),
          ),
          row("requests sent", (_hl, r) => (r.traffic ? r.traffic.totals.sent.toLocaleString("en") : "—")),
        ),
      ),
    ),
  );
}
