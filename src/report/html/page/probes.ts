// Per pod, the startup, readiness and liveness checks, restarts and back-off, grouped by workload or node.

import { type PodProbes, PROBES, probeRows, probeSettings } from "../model/index.ts";
import { h, headedSection, headRow, scrollBox, tt } from "./dom.ts";
import type { ReportView } from "./view.ts";

// probes
export function probesSection(r: ReportView): HTMLElement {
  const section = headedSection("probes", "Probes, restarts and back-off, per pod");
  // A large run draws its headline and charts first; the per-pod rows follow once the page is up.
  if (r.run.result.events.length > 20_000) {
    const wait = h("p", { class: "hint" }, "Reading the probe rows…");
    section.append(wait);
    setTimeout(() => {
      wait.remove();
      fillProbes(r, section);
    }, 50);
  } else fillProbes(r, section);
  return section;
}

export function fillProbes(r: ReportView, section: HTMLElement): void {
  const { pods, hasProbeEvents } = probeRows(r.run.result, r.run.scenario);
  const configured = probeSettings(r.run.scenario);
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
      const { table, body } = podTable();
      const more = h("button", { type: "button", class: "more" }, "Show more pods");
      const fill = () => {
        const next = list.slice(shown, shown + 50);
        for (const p of next) body.append(podRow(p));
        shown += next.length;
        if (shown >= list.length) more.remove();
        else more.textContent = `Show more pods (${list.length - shown} left)`;
      };
      more.addEventListener("click", fill);
      det.append(scrollBox(`Probe rows of ${k}`, table), more);
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

export function podTable(): { table: HTMLTableElement; body: HTMLTableSectionElement } {
  const body = h("tbody", {});
  const table = h(
    "table",
    { class: "probe-rows" },
    headRow(["pod", "node", "restarts", ...PROBES, "container: starts, kills, back-off"]),
    body,
  );
  return { table, body };
}

export function podRow(p: PodProbes): HTMLElement {
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
