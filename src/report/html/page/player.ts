// The player: steps through the run's moments, each with its why now and what you would see.

import type { TraceEvent } from "../../../trace/events.ts";
import { proseOf } from "../../messages/index.ts";
import { LANE_LABELS } from "../model/index.ts";
import { h, LANE_COLOURS } from "./dom.ts";
import type { ReportView } from "./view.ts";

export function playerSection(r: ReportView): HTMLElement {
  const n = r.run.steps.length;
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
  prev.addEventListener("click", () => r.select(r.current - 1, true));
  next.addEventListener("click", () => r.select(r.current + 1, true));
  play.addEventListener("click", () => r.togglePlay());
  range.addEventListener("input", () => r.select(Number(range.value), true));
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
    if (k === "ArrowRight") r.select(r.current + 1, true);
    else if (k === "ArrowLeft") r.select(r.current - 1, true);
    else if (k === "Home") r.select(0, true);
    else if (k === "End") r.select(n - 1, true);
    else if (k === " " && ev.target === section) r.togglePlay();
    else return;
    ev.preventDefault();
  });
  return section;
}

export function eventCard(e: TraceEvent): HTMLElement {
  const prose = proseOf(e);
  return h(
    "article",
    { class: "event", "data-lane": e.lane, style: `border-left-color:${LANE_COLOURS[e.lane]}` },
    h(
      "p",
      {},
      h("span", { class: "lane", style: `--lane:${LANE_COLOURS[e.lane]}` }, LANE_LABELS[e.lane]),
      " ",
      prose.message,
    ),
    prose.why ? h("p", { class: "why" }, h("strong", {}, "Why now: "), prose.why) : null,
    prose.see
      ? h(
          "div",
          { class: "see" },
          h("strong", {}, "What you would see:"),
          h("pre", { tabindex: 0, "aria-label": "kubectl output" }, prose.see),
        )
      : null,
  );
}
