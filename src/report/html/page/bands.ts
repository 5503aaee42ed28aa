// The state bands on the shared time axis (Grafana's state timeline, Perfetto's tracks): a row per node,
// per pod under its workload and per Service endpoint, each state an interval, the events as marks.
// Hover or focus shows the time, what, why now and what kubectl would show; a click moves the player
// there. The loss window is shaded as on every chart. Rows and states come from model/bands.ts.

import { proseOf } from "../../messages/index.ts";
import { type BandRow, type Interval, lossWindow, stateBands } from "../model/bands.ts";
import type { Step } from "../model/index.ts";
import { h, headedSection, secs, tt } from "./dom.ts";
import type { ReportView } from "./view.ts";

/** Each state's colour class (page.css `.st-*`): Ready green, NotReady red, Terminating purple… */
export const STATE_CLASS: Record<string, string> = {
  Ready: "ok",
  "Running, ready": "ok",
  ready: "ok",
  "NotReady (Unknown)": "down",
  "NotReady (False)": "bad",
  "Running, not ready": "warn",
  "not ready": "warn",
  Pending: "wait",
  Terminating: "term",
  terminating: "term",
  "serving, terminating": "drain",
};
const KEY: [string, string][] = [
  ["ok", "Ready / ready"],
  ["down", "NotReady (Unknown)"],
  ["bad", "NotReady (False)"],
  ["warn", "Running, not ready / not ready"],
  ["wait", "Pending"],
  ["term", "Terminating"],
  ["drain", "serving, terminating"],
  ["other", "Failed, Succeeded"],
];

/** More rows than this: those that change show first, the rest on demand. */
const MAX_ROWS = 40;

const KIND_WORD = { node: "node", pod: "pod", endpoint: "endpoint" } as const;

function groupTitle(row: BandRow): string {
  if (row.kind === "node") return "Nodes";
  const [kind, ns, name] = (row.group ?? "").split("/");
  const shown = ns === "default" ? name : `${ns}/${name}`;
  return row.kind === "pod" ? `${kind} ${shown}: pods` : `Service ${shown}: endpoints`;
}

/** The first step at or after time t (binary search). */
function stepAt(st: readonly Step[], t: number): number {
  let lo = 0;
  let hi = st.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (st[mid]!.t < t) lo = mid + 1;
    else hi = mid;
  }
  return Math.min(lo, st.length - 1);
}

/** The rows on show: all of them, or the first MAX_ROWS with the rows that change first. */
function shownRows(rows: BandRow[], all: boolean): BandRow[] {
  if (all || rows.length <= MAX_ROWS) return rows;
  const changes = (r: BandRow) => r.intervals.length > 1 || r.marks.length > 0;
  const keep = new Set([...rows.filter(changes), ...rows].slice(0, MAX_ROWS));
  return rows.filter((r) => keep.has(r));
}

function intervalLabel(row: BandRow, iv: Interval): string {
  return `${KIND_WORD[row.kind]} ${row.label}: ${iv.state} from ${tt(iv.from)} to ${tt(iv.to)}`;
}

export function bandsSection(r: ReportView): HTMLElement {
  const rows = stateBands(r.run.result);
  const tip = h("div", { id: "band-tip", role: "tooltip", class: "band-tip", hidden: true });
  const list = h("div", { class: "bands", id: "bands-rows" });
  const shade = h("div", { class: "band-shade", "aria-hidden": "true", hidden: true });
  const marker = h("div", { class: "band-marker", "aria-hidden": "true", hidden: true });
  const scroll = h("div", { class: "bands-scroll" }, h("div", { class: "bands-inner" }, list, shade, marker));
  const more = h("button", { type: "button", id: "bands-all", hidden: rows.length <= MAX_ROWS });
  const win = lossWindow(r.run.result);
  let expanded = false;
  const draw = () => {
    const shown = shownRows(rows, expanded);
    more.textContent = expanded
      ? `Show the ${MAX_ROWS} rows that change first`
      : `Show all ${rows.length.toLocaleString("en")} rows`;
    more.setAttribute("aria-expanded", String(expanded));
    list.replaceChildren(...rowElements(shown));
    layout();
  };
  const layout = () => layoutBands(r, list, { shade, marker, win });
  more.addEventListener("click", () => {
    expanded = !expanded;
    draw();
  });
  wireTip(r, list, rows, tip);
  r.axis.onChange(layout);
  draw();
  return headedSection(
    "bands",
    "States over time",
    h(
      "ul",
      { class: "band-key", "aria-label": "States" },
      ...KEY.map(([c, label]) => h("li", {}, h("span", { class: `chip st-${c}` }), label)),
      win ? h("li", {}, h("span", { class: "chip st-loss" }), "the loss window") : null,
    ),
    h(
      "p",
      { class: "hint", id: "bands-keys" },
      "Hover or Tab to a band: ← and → move along a row, ↑ and ↓ between rows, Enter moves the player there.",
    ),
    scroll,
    more,
    tip,
  );
}

function rowElements(shown: BandRow[]): HTMLElement[] {
  const out: HTMLElement[] = [];
  let group = "";
  shown.forEach((row, ri) => {
    const title = groupTitle(row);
    if (title !== group) {
      group = title;
      out.push(h("p", { class: "band-group" }, title));
    }
    const track = h("div", { class: "band-track" });
    row.intervals.forEach((iv, k) => {
      track.append(
        h("button", {
          type: "button",
          class: `band st-${STATE_CLASS[iv.state] ?? "other"}`,
          "data-row": ri,
          "data-k": k,
          // One tab stop for all the bands (a roving tabindex): the arrows move along and between rows.
          tabindex: ri === 0 && k === 0 ? 0 : -1,
          "data-state": iv.state,
          "data-from": iv.from,
          "data-to": iv.to,
          "aria-label": intervalLabel(row, iv),
        }),
      );
    });
    for (const i of row.marks) track.append(h("span", { class: "band-mark", "data-row": ri, "data-ev": i }));
    out.push(
      h(
        "div",
        { class: "band-row", "data-kind": row.kind, "data-key": row.key, "data-ri": ri },
        h("span", { class: "band-label", title: row.label }, row.label),
        track,
      ),
    );
  });
  return out;
}

/** Places every interval, mark, the loss window and the player's marker for the time range on show. */
function layoutBands(
  r: ReportView,
  list: HTMLElement,
  o: { shade: HTMLElement; marker: HTMLElement; win: { first: number; last: number } | null },
): void {
  const [a, b] = r.axis.range();
  const span = Math.max(1e-9, b - a);
  const pct = (t: number) => ((t - a) / span) * 100;
  const clamp = (v: number) => Math.max(0, Math.min(100, v));
  const events = r.run.result.events;
  for (const el of list.querySelectorAll<HTMLElement>(".band")) {
    const from = Number(el.dataset.from);
    const to = Number(el.dataset.to);
    el.hidden = to < a || from > b;
    el.style.left = `${clamp(pct(from))}%`;
    el.style.width = `${clamp(pct(to)) - clamp(pct(from))}%`;
  }
  // The one tab stop stays on a band on show.
  const stop = list.querySelector<HTMLButtonElement>(".band[tabindex='0']");
  if (!stop || stop.hidden) {
    const first = [...list.querySelectorAll<HTMLButtonElement>(".band")].find((b) => !b.hidden);
    if (stop && first) stop.tabIndex = -1;
    if (first) first.tabIndex = 0;
  }
  for (const el of list.querySelectorAll<HTMLElement>(".band-mark")) {
    const t = events[Number(el.dataset.ev)]!.t;
    el.hidden = t < a || t > b;
    el.style.left = `${pct(t)}%`;
  }
  // Over the tracks only, past the label column (bands.css --band-label) and before their right margin.
  const track = "(100% - var(--band-label) - 0.4rem)";
  const over = (el: HTMLElement, from: number, to: number) => {
    el.hidden = to < a || from > b;
    el.style.left = `calc(var(--band-label) + ${track} * ${clamp(pct(from)) / 100})`;
    el.style.width = `calc(${track} * ${(clamp(pct(to)) - clamp(pct(from))) / 100})`;
  };
  if (o.win) over(o.shade, o.win.first, o.win.last);
  const m = r.axis.marker;
  if (m === null) o.marker.hidden = true;
  else over(o.marker, m, m);
}

/** The tooltip: on hover and on keyboard focus, for an interval or a mark; a click moves the player. */
function wireTip(r: ReportView, list: HTMLElement, rows: BandRow[], tip: HTMLElement): void {
  const show = (el: HTMLElement) => {
    const content = tipFor(r, el, rows);
    if (!content) return;
    tip.replaceChildren(...content);
    tip.hidden = false;
    const box = el.getBoundingClientRect();
    const host = tip.offsetParent?.getBoundingClientRect() ?? { left: 0, top: 0 };
    tip.style.left = `${Math.max(0, Math.min(box.left - host.left, (tip.offsetParent?.clientWidth ?? 0) - tip.offsetWidth))}px`;
    tip.style.top = `${box.bottom - host.top + 4}px`;
    if (el instanceof HTMLButtonElement) el.setAttribute("aria-describedby", "band-tip");
  };
  const hide = () => {
    tip.hidden = true;
  };
  const target = (ev: Event) => (ev.target as HTMLElement).closest<HTMLElement>(".band, .band-mark");
  list.addEventListener("mouseover", (ev) => {
    const el = target(ev);
    if (el) show(el);
  });
  list.addEventListener("focusin", (ev) => {
    const el = target(ev);
    if (el) show(el);
  });
  list.addEventListener("mouseleave", hide);
  list.addEventListener("focusout", hide);
  list.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape") hide();
    const from = (ev.target as HTMLElement).closest<HTMLButtonElement>(".band");
    const to = from ? nextBand(list, from, ev.key) : null;
    if (!from || !to) return;
    ev.preventDefault();
    from.tabIndex = -1;
    to.tabIndex = 0;
    to.focus();
  });
  list.addEventListener("click", (ev) => {
    const el = target(ev);
    if (!el) return;
    const t = el.dataset.ev ? r.run.result.events[Number(el.dataset.ev)]!.t : Number(el.dataset.from);
    if (r.run.steps.length) r.select(stepAt(r.run.steps, t), false);
  });
}

/** The band the key moves to: along the row (← → Home End), or the one at the same time a row up or down. */
function nextBand(list: HTMLElement, from: HTMLButtonElement, key: string): HTMLButtonElement | null {
  const visible = (el: Element | null) =>
    [...(el?.querySelectorAll<HTMLButtonElement>(".band") ?? [])].filter((b) => !b.hidden);
  const row = from.closest(".band-row");
  const here = visible(row);
  const i = here.indexOf(from);
  if (key === "ArrowRight") return here[i + 1] ?? null;
  if (key === "ArrowLeft") return here[i - 1] ?? null;
  if (key === "Home") return here[0] ?? null;
  if (key === "End") return here[here.length - 1] ?? null;
  if (key !== "ArrowUp" && key !== "ArrowDown") return null;
  const rows = [...list.querySelectorAll(".band-row")];
  const other = visible(rows[rows.indexOf(row!) + (key === "ArrowDown" ? 1 : -1)] ?? null);
  const t = Math.max(Number(from.dataset.from), 0);
  return other.find((b) => Number(b.dataset.to) > t) ?? other[other.length - 1] ?? null;
}

/** What the tooltip says: the time, what, why now and what kubectl would show. */
function tipFor(r: ReportView, el: HTMLElement, rows: BandRow[]): HTMLElement[] | null {
  const row = rows[Number(el.dataset.row)];
  const events = r.run.result.events;
  if (!row) return null;
  let head: HTMLElement;
  let cause: number | undefined;
  if (el.dataset.ev) {
    cause = Number(el.dataset.ev);
    head = h("p", {}, h("strong", {}, tt(events[cause]!.t)), ` · ${KIND_WORD[row.kind]} ${row.label}`);
  } else {
    const iv = row.intervals[Number(el.dataset.k)]!;
    cause = iv.cause;
    head = h(
      "p",
      {},
      h("strong", {}, iv.state),
      ` · ${KIND_WORD[row.kind]} ${row.label} · ${tt(iv.from)} to ${tt(iv.to)} (${secs(iv.to - iv.from)})`,
    );
  }
  if (cause === undefined)
    return [head, h("p", {}, "The state at t=0, as the run's start (`initial`) has it.")];
  const prose = proseOf(events[cause]!);
  return [
    head,
    h("p", {}, h("strong", {}, "What: "), prose.message),
    prose.why ? h("p", {}, h("strong", {}, "Why now: "), prose.why) : null,
    prose.see ? h("div", {}, h("strong", {}, "What kubectl would show:"), h("pre", {}, prose.see)) : null,
  ].filter((x): x is HTMLElement => x !== null);
}
