// The page's permalink: the URL fragment holds the view (as Grafana's URL holds its range and
// variables): the time range on show, the player's step, the `--vary` variant and the what-if's
// settings. `#from=30&to=90&step=12&variant=1&whatif={…}`. Reading it back never guesses: a part it
// cannot read is named in `problems` and left out. Pure: the page and the tests share it.

import { SUPPORTED_VERSIONS } from "../../../scenario/types.ts";
import type { ProbeOverride, WhatIf } from "../../../whatif/panel.ts";

export interface View {
  /** the zoomed time range, seconds */
  range?: [number, number];
  step?: number;
  variant?: number;
  whatIf?: WhatIf;
}

const round = (v: number) => String(Math.round(v * 1000) / 1000);

/** The fragment (without `#`) for a view; an empty what-if is left out. */
export function writeView(v: View): string {
  const p = new URLSearchParams();
  if (v.range) {
    p.set("from", round(v.range[0]));
    p.set("to", round(v.range[1]));
  }
  if (v.step !== undefined) p.set("step", String(v.step));
  if (v.variant) p.set("variant", String(v.variant));
  if (v.whatIf && Object.keys(v.whatIf).length > 0) p.set("whatif", JSON.stringify(v.whatIf));
  return p.toString();
}

const isNum = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v) && v >= 0;

/** The what-if's fields, each checked for its type; anything else is a problem. */
function readWhatIf(text: string, problems: string[]): WhatIf | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    problems.push("whatif: not JSON");
    return undefined;
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    problems.push("whatif: not an object");
    return undefined;
  }
  const w: WhatIf = {};
  for (const [k, v] of Object.entries(raw)) {
    if (k === "kubernetesVersion" && (SUPPORTED_VERSIONS as readonly unknown[]).includes(v))
      w.kubernetesVersion = v as WhatIf["kubernetesVersion"];
    else if (k === "externalTrafficPolicy" && (v === "Cluster" || v === "Local")) w.externalTrafficPolicy = v;
    else if (
      (k === "nodeMonitorGracePeriod" ||
        k === "defaultUnreachableTolerationSeconds" ||
        k === "callerTimeout") &&
      isNum(v)
    )
      w[k] = v;
    else if (k === "probes" && Array.isArray(v) && v.every(isProbe)) w.probes = v;
    else problems.push(`whatif.${k}: ${JSON.stringify(v)} is not a value the what-if takes`);
  }
  return w;
}

function isProbe(v: unknown): v is ProbeOverride {
  if (typeof v !== "object" || v === null) return false;
  const o = v as Record<string, unknown>;
  return (
    typeof o.workload === "string" &&
    typeof o.container === "string" &&
    (o.probe === "startup" || o.probe === "liveness" || o.probe === "readiness") &&
    ["periodSeconds", "failureThreshold", "timeoutSeconds"].every((f) => o[f] === undefined || isNum(o[f]))
  );
}

/** The view a fragment asks for (with or without `#`), and what in it could not be read. */
export function readView(fragment: string): { view: View; problems: string[] } {
  const p = new URLSearchParams(fragment.replace(/^#/, ""));
  const view: View = {};
  const problems: string[] = [];
  const num = (key: string): number | undefined => {
    const s = p.get(key);
    if (s === null) return undefined;
    const v = Number(s);
    if (s.trim() !== "" && isNum(v)) return v;
    problems.push(`${key}: ${JSON.stringify(s)} is not a number of 0 or more`);
    return undefined;
  };
  const from = num("from");
  const to = num("to");
  if (from !== undefined && to !== undefined) {
    if (to > from) view.range = [from, to];
    else problems.push(`from ${from} is not before to ${to}`);
  }
  const step = num("step");
  if (step !== undefined) view.step = Math.floor(step);
  const variant = num("variant");
  if (variant !== undefined) view.variant = Math.floor(variant);
  const w = p.get("whatif");
  if (w !== null) {
    const whatIf = readWhatIf(w, problems);
    if (whatIf) view.whatIf = whatIf;
  }
  for (const k of p.keys())
    if (!["from", "to", "step", "variant", "whatif"].includes(k))
      problems.push(`${k}: not a part of the view`);
  return { view, problems };
}
