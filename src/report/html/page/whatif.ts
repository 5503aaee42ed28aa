// The what-if panel: the settings of the run on show, and a new run when one changes.

import { SUPPORTED_VERSIONS } from "../../../scenario/types.ts";
import { currentSettings, type WhatIf } from "../../../whatif/panel.ts";
import { type PROBES, probeSettings } from "../model/index.ts";
import { h, headedSection, headRow, scrollBox } from "./dom.ts";
import { exportLinks } from "./link.ts";
import type { ReportView } from "./view.ts";

type Settings = ReturnType<typeof currentSettings>;
type Probe = ReturnType<typeof probeSettings>[number];
type ProbeInput = { key: string; input: HTMLInputElement };

const field = (id: string, label: string, input: HTMLElement, hint?: string): HTMLElement =>
  h(
    "div",
    { class: "field" },
    h("label", { for: id }, label),
    input,
    hint ? h("span", { class: "hint", id: `${id}-hint` }, hint) : null,
  );
const num = (id: string, value: number | undefined, min: number, step: number | "any", disabled = false) =>
  h("input", {
    id,
    type: "number",
    min,
    step,
    value: value === undefined ? "" : String(value),
    disabled,
    ...(disabled ? { "aria-describedby": `${id}-hint` } : {}),
  });

/** The inputs of the run's settings, each holding the run's value. */
function settingInputs(cur: Settings) {
  const version = h(
    "select",
    { id: "wi-version" },
    ...SUPPORTED_VERSIONS.map((v) => h("option", { value: v, selected: v === cur.kubernetesVersion }, v)),
  );
  // Seconds, fractions allowed: a profile may set 2.5s (doks-measured).
  const grace = num("wi-grace", cur.nodeMonitorGracePeriod, 0, "any");
  const toleration = num("wi-toleration", cur.defaultUnreachableTolerationSeconds, 0, 1);
  const etp = h(
    "select",
    { id: "wi-etp", disabled: !cur.hasServices },
    ...["Cluster", "Local"].map((v) =>
      h("option", { value: v, selected: v === cur.externalTrafficPolicy }, v),
    ),
  );
  const timeout = num("wi-timeout", cur.callerTimeout, 0, "any", !cur.hasTraffic);
  return { version, grace, toleration, etp, timeout };
}

/** The form of the settings, each input labelled, a hint where the scenario lacks what it acts on. */
function settingsForm(cur: Settings, inputs: ReturnType<typeof settingInputs>): HTMLFormElement {
  const { version, grace, toleration, etp, timeout } = inputs;
  return h(
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
}

/** The probes' table: one row a probe, an input for each of its three settings (`inputs` collects them). */
function probeTable(probes: Probe[], probeInputs: ProbeInput[]): HTMLTableElement {
  return h(
    "table",
    {},
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
}

/** The settings changed from the scenario as written (in the order the what-if lists them). */
function changedSettings(
  r: ReportView,
  base: Settings,
  cur: Settings,
  inputs: ReturnType<typeof settingInputs>,
): WhatIf {
  const { version, grace, toleration, etp, timeout } = inputs;
  const w: WhatIf = {};
  if (version.value !== base.kubernetesVersion)
    w.kubernetesVersion = version.value as WhatIf["kubernetesVersion"];
  const g = Number(grace.value);
  // A version change brings that version's default grace period unless the field was edited.
  if (grace.value !== "" && g > 0 && g !== cur.nodeMonitorGracePeriod) w.nodeMonitorGracePeriod = g;
  else if (r.whatIf.nodeMonitorGracePeriod !== undefined && grace.value !== "") w.nodeMonitorGracePeriod = g;
  const tol = Number(toleration.value);
  if (toleration.value !== "" && tol >= 0 && tol !== base.defaultUnreachableTolerationSeconds)
    w.defaultUnreachableTolerationSeconds = tol;
  if (cur.hasServices && etp.value !== base.externalTrafficPolicy)
    w.externalTrafficPolicy = etp.value as "Cluster" | "Local";
  const to = Number(timeout.value);
  if (cur.hasTraffic && timeout.value !== "" && to > 0 && to !== base.callerTimeout) w.callerTimeout = to;
  return w;
}

/** The probe settings edited, one override a probe. */
function probeOverrides(probes: Probe[], probeInputs: ProbeInput[]): NonNullable<WhatIf["probes"]> {
  const overrides = new Map<string, NonNullable<WhatIf["probes"]>[number]>();
  for (const { key, input } of probeInputs) {
    const [workload, container, probe, f] = key.split("|") as [
      string,
      string,
      (typeof PROBES)[number],
      string,
    ];
    const p = probes.find((x) => x.workload === workload && x.container === container && x.probe === probe)!;
    const v = Number(input.value);
    const field = f as "periodSeconds" | "failureThreshold" | "timeoutSeconds";
    if (!(v > 0) || v === p[field]) continue;
    const k = `${workload}|${container}|${probe}`;
    const o = overrides.get(k) ?? { workload, container, probe };
    o[field] = v;
    overrides.set(k, o);
  }
  return [...overrides.values()];
}

// what-if
export function whatIfSection(r: ReportView): HTMLElement {
  const base = currentSettings(r.original.scenario);
  const cur = currentSettings(r.run.scenario);
  const status = h("p", { id: "whatif-status", role: "status", "aria-live": "polite" }, "");
  const inputs = settingInputs(cur);
  const form = settingsForm(cur, inputs);
  const probes = probeSettings(r.run.scenario);
  const probeInputs: ProbeInput[] = [];
  if (probes.length > 0)
    form.append(scrollBox("Probe settings", probeTable(probes, probeInputs), "probe-settings"));
  const reset = h("button", { type: "button", id: "wi-reset" }, "Back to the scenario as written");
  form.append(h("div", { class: "actions" }, reset));

  const recompute = () => {
    const w = changedSettings(r, base, cur, inputs);
    const overrides = probeOverrides(probes, probeInputs);
    if (overrides.length > 0) w.probes = overrides;
    // The same settings as the run on show: nothing to do.
    if (JSON.stringify(w) === JSON.stringify(r.whatIf)) return;
    status.textContent = "Running the scenario with these settings…";
    // Let the status paint before the (synchronous) simulation.
    setTimeout(() => void r.applyWhatIf(w), 0);
  };
  form.addEventListener("change", recompute);
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    recompute();
  });
  reset.addEventListener("click", () => {
    r.whatIf = {};
    r.run = r.original;
    r.render();
    r.viewChanged();
    document.getElementById("wi-version")?.focus();
  });
  return headedSection(
    "whatif",
    "What if…",
    h(
      "p",
      { id: "whatif-intro" },
      "Change a setting and the scenario runs again, here in the page (in a worker, so the page stays responsive), with the same engine as the command line. The figures above show the new run and what they were.",
    ),
    form,
    status,
    exportLinks(r),
  );
}
