// The headline: every fault of the run in order, with what each caused, and the run's figures. Every
// figure carries `data-figure` and `data-value` (seconds or a count; "none"), the numbers the tests
// compare with the command line's.

import { type FaultEntry, type Headline, NEXT_LEVERS, POD_FAULTS } from "../model/index.ts";
import { type Child, h, headedSection, secs, tt } from "./dom.ts";

const n = (v: number) => v.toLocaleString("en");
const plural = (v: number, one: string, many = `${one}s`) => `${n(v)} ${v === 1 ? one : many}`;
const short = (pod: string) => pod.split("/").slice(-1)[0]!;
/** Up to `max` names, and how many more of `total` (a cut list knows its length). */
const list = (xs: string[], max = 6, total = xs.length) =>
  `${xs.slice(0, max).join(", ")}${total > max ? `, … (${n(total - max)} more)` : ""}`;

/** A figure inline in a sentence: its value for the tests, its text for people. */
function fig(key: string, value: number | null, text: string): HTMLElement {
  return h(
    "span",
    { class: "fig", "data-figure": key, "data-value": value === null ? "none" : String(value) },
    text,
  );
}

/** A run's headline and the requests its callers sent (undefined: no traffic in the run). */
export interface Shown {
  headline: Headline;
  sent: number | undefined;
}

/** The headline of `now`, with what its figures were in `was` (the run before a what-if). */
export function headlineSection(now: Shown, was?: Shown, withNext = true): HTMLElement {
  const hl = now.headline;
  const real = hl.faults.filter((f) => !f.recovery && !f.noEffect);
  return headedSection(
    "headline",
    "What happened",
    h("p", { class: "failure" }, ...summary(hl, real.length)),
    hl.faults.length > 0
      ? h(
          "ol",
          { class: "faults", "aria-label": "The scenario's timeline, step by step" },
          ...hl.faults.map((f, i) => faultItem(f, i)),
        )
      : null,
    figures(now, was),
    withNext ? nextBox(hl) : null,
  );
}

/** The lever to pull next, and the others; the simulate report shows it below the state bands. */
export function nextBox(hl: Headline): HTMLElement {
  return h(
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
        ...Object.values(NEXT_LEVERS)
          .filter((l) => l.title !== hl.next.title)
          .map((l) => h("li", {}, h("strong", {}, `${l.title}: `), l.text)),
      ),
    ),
  );
}

/** One sentence for the whole run: how many faults, what they cost, what is left at the end. */
function summary(hl: Headline, faults: number): Child[] {
  if (faults === 0)
    return [
      "Nothing fails in this run: no timeline step injects a fault. ",
      fig("podsReady", hl.podsReady, n(hl.podsReady)),
      ` of ${plural(hl.podsAtEnd, "pod")} Running and Ready at the end.`,
    ];
  const out: Child[] = [`${plural(faults, "fault")} in this run`];
  if (hl.nodesLost > 0) out.push(" on ", fig("nodesLost", hl.nodesLost, plural(hl.nodesLost, "node")));
  out.push(": ", fig("podsLost", hl.podsLost, plural(hl.podsLost, "pod")), " lost");
  if (hl.endpointsLost > 0)
    out.push(" (", fig("endpointsLost", hl.endpointsLost, plural(hl.endpointsLost, "ready endpoint")), ")");
  out.push(
    "; at the end ",
    fig("podsReady", hl.podsReady, n(hl.podsReady)),
    ` of ${plural(hl.podsAtEnd, "pod")} ${hl.podsReady === 1 ? "is" : "are"} Running and Ready`,
  );
  const notReplaced = hl.notReplacedCount ?? hl.notReplaced.length;
  if (notReplaced > 0)
    out.push(
      `, and ${plural(notReplaced, "lost pod")} not replaced: ${list(hl.notReplaced, 6, notReplaced)}`,
    );
  out.push(".");
  for (const z of hl.zones) out.push(` ${tt(z.t)}: zone ${z.zone} is ${z.state}.`);
  return out;
}

function faultItem(f: FaultEntry, i: number): HTMLElement {
  const others = f.targets.length - 1;
  const what: Child[] = [
    h("strong", {}, fig(`fault-${i}-t`, f.t, tt(f.t))),
    ` ${f.message}`,
    others > 0
      ? `, and ${plural(others, f.kind === "node" ? "more node" : "more pod", f.kind === "node" ? "more nodes" : "more pods")} at this moment (${list(f.targets.slice(1).map(short))})`
      : "",
    ".",
  ];
  if (f.recovery) return h("li", { class: "recovery", "data-fault": i }, ...what);
  if (f.noEffect) return h("li", { "data-fault": i }, ...what, " No effect: no pod was running there.");
  const rel = (t: number) => ` (${secs(t - f.t)} later)`;
  const at = (key: string, t: number | null, none: string) =>
    fig(`fault-${i}-${key}`, t, t === null ? none : `${tt(t)}${rel(t)}`);
  const pods = f.lostPods.map(short);
  const podCount = f.lostPodCount ?? pods.length;
  const notReplaced = f.notReplacedCount ?? f.notReplaced.length;
  const inPlace = POD_FAULTS.has(f.do);
  const parts: Child[] = [
    h(
      "li",
      {},
      inPlace ? "The kubelet noticed: " : "The cluster noticed: ",
      at("noticed", f.noticed, "never"),
    ),
    h(
      "li",
      {},
      fig(
        `fault-${i}-podsLost`,
        podCount,
        inPlace ? plural(podCount, "pod") : plural(podCount, "pod lost", "pods lost"),
      ),
      podCount > 0 ? `: ${list(pods, 6, podCount)}` : "",
    ),
    h(
      "li",
      {},
      fig(`fault-${i}-endpointsLost`, f.endpointsLost, plural(f.endpointsLost, "ready endpoint")),
      f.endpointsLost > 0 ? " out of the Services at " : " lost",
      f.endpointsLost > 0 ? at("trafficStopped", f.trafficStopped, "not by the end") : "",
    ),
    h(
      "li",
      {},
      inPlace ? "Ready again: " : "Replaced: ",
      at("replaced", f.replaced, inPlace || podCount > 0 ? "not by the end" : "nothing to replace"),
      f.restarts > 0 ? ` (${plural(f.restarts, "restart")} in place)` : "",
      notReplaced > 0
        ? `${f.replaced === null ? ":" : "; not replaced by the end:"} ${list(f.notReplaced, 6, notReplaced)}`
        : "",
    ),
  ];
  return h("li", { "data-fault": i }, ...what, h("ul", { class: "caused" }, ...parts));
}

/** The run's figures, with what they were before a what-if. */
function figures(now: Shown, before: Shown | undefined): HTMLElement {
  const hl = now.headline;
  const was = before?.headline;
  const first = hl.faults.find((f) => !f.recovery && !f.noEffect);
  const rel = (t: number | null) =>
    t === null || hl.failed === null ? "" : ` (${secs(t - hl.failed)} after the first fault)`;
  const at = (t: number | null, none: string) => (t === null ? none : `${tt(t)}${rel(t)}`);
  const figure = (key: string, label: string, value: number | null, text: string, before?: string) =>
    h(
      "div",
      { class: "figure" },
      h("dt", {}, label),
      h(
        "dd",
        { "data-figure": key, "data-value": value === null ? "none" : String(value) },
        text,
        before !== undefined && before !== text ? h("span", { class: "was" }, ` was ${before}`) : null,
      ),
    );
  const lost = (x: Headline) =>
    x.requestsLost === null
      ? "not in this run"
      : `${n(x.requestsLost)} of ${n((x === hl ? now : before)?.sent ?? 0)}`;
  const whatFailed = (f: FaultEntry | undefined) =>
    f ? `${f.kind === "node" ? list(f.targets, 3) : list(f.targets.map(short), 3)} at ${tt(f.t)}` : "nothing";
  const pods = POD_FAULTS.has(first?.do ?? "power-off");
  return h(
    "dl",
    { class: "figures" },
    figure("failed", "First fault", hl.failed, whatFailed(first)),
    figure(
      "noticed",
      "The cluster noticed",
      hl.noticed,
      at(hl.noticed, "never"),
      was && at(was.noticed, "never"),
    ),
    figure(
      "trafficStopped",
      "Traffic stopped going to the lost pods",
      hl.trafficStopped,
      at(hl.trafficStopped, hl.endpointsLost === 0 ? "no endpoints lost" : "not by the end"),
      was && at(was.trafficStopped, was.endpointsLost === 0 ? "no endpoints lost" : "not by the end"),
    ),
    figure(
      "replaced",
      pods ? "Ready again" : "Replaced",
      hl.replaced,
      at(hl.replaced, hl.podsLost === 0 ? "nothing to replace" : "not by the end"),
      was && at(was.replaced, was.podsLost === 0 ? "nothing to replace" : "not by the end"),
    ),
    figure("requestsLost", "Requests lost", hl.requestsLost, lost(hl), was && lost(was)),
  );
}
