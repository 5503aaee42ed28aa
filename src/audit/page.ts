// `faultline audit --report audit.html`: one self-contained page (no script, no request) with the
// Services × faults heat map (and the workloads'), each cell a link to that run's timeline, the
// findings with links to the run that measured each consequence and to its fix's run. A run's
// timeline is shown when its cell is followed (CSS :target), so the page needs no JavaScript.

import { formatDuration } from "../load/units.ts";
import { escapeHtml as e } from "../report/escape.ts";
import { clock } from "../report/text.ts";
import type { AuditResult, Figures, Finding, RunMeasure, Severity } from "./types.ts";

const d = (s: number) => formatDuration(Math.round(s));

/** How bad one cell is: its class in the heat map and the words a screen reader and the legend use. */
export function cellClass(f: Figures): "stuck" | "out-3" | "out-2" | "out-1" | "short" | "ok" {
  if (f.recovered === null && (f.degraded > 0 || f.outage > 0)) return "stuck";
  if (f.outage > 300) return "out-3";
  if (f.outage > 60) return "out-2";
  if (f.outage > 0) return "out-1";
  if (f.degraded > 0 || (f.lost ?? 0) > 0) return "short";
  return "ok";
}

/** A Service's figures count ready endpoints, a workload's Ready pods. */
function describe(f: Figures, of: "endpoint" | "pod"): string {
  const parts = [
    f.outage > 0 ? `${d(f.outage)} without a ready ${of}` : `never without a ready ${of}`,
    ...(f.degraded > 0 ? [`${d(f.degraded)} short of ${f.desired}`] : []),
    ...(f.lost !== undefined ? [`${f.lost} request${f.lost === 1 ? "" : "s"} lost of ${f.sent ?? 0}`] : []),
    f.recovered === null ? `not whole by itself: ${f.reasons.join("; ")}` : "",
  ];
  return parts.filter((p) => p !== "").join(", ");
}

function cellText(f: Figures): string {
  if (f.recovered === null && (f.degraded > 0 || f.outage > 0))
    return `${f.outage > 0 ? d(f.outage) : d(f.degraded)} ✕`;
  if (f.outage > 0) return d(f.outage);
  if (f.degraded > 0) return `(${d(f.degraded)})`;
  if ((f.lost ?? 0) > 0) return `${f.lost} lost`;
  return "0";
}

function faultLabel(x: RunMeasure): string {
  return x.fault.class === "none" ? "no fault" : `${x.fault.class} ${x.fault.target}`;
}

export function auditPage(r: AuditResult): string {
  const sweep = r.runs.filter((x) => !x.id.startsWith("x/"));
  const anchors = new Map<string, string>();
  for (const [i, x] of r.runs.entries()) anchors.set(x.id, `run-${i}`);
  for (const [i, x] of r.fixes.entries()) anchors.set(x.id, `fix-${i}`);
  const a = r.audit;
  const title = `faultline audit · ${a.services.length} Services, ${a.workloads.length} workloads`;
  const zones = [...new Set(a.nodes.map((n) => n.zone).filter((z) => z !== null))];
  const cluster = a.assumed
    ? `cluster (assumed): ${a.assumed}`
    : `cluster: ${a.nodes.length} node${a.nodes.length === 1 ? "" : "s"}${zones.length ? ` in zones ${zones.join(", ")}` : ""}`;
  const body = [
    `<h1>${e(title)}</h1>`,
    `<p>Kubernetes ${e(a.kubernetesVersion)} · ${e(cluster)} · ${sweep.length} runs of ${e(d(a.duration))}, each fault at t=${a.faultAt}s</p>`,
    ...(a.notes.length ? [`<ul class="notes">${a.notes.map((n) => `<li>${e(n)}</li>`).join("")}</ul>`] : []),
    legend(),
    heatMap("services", "Services × faults", "Service", a.services, sweep, (x, s) => x.services[s], anchors),
    heatMap(
      "workloads",
      "Workloads × faults",
      "Workload",
      a.workloads,
      sweep,
      (x, w) => x.workloads[w],
      anchors,
    ),
    findings(r, anchors),
    `<h2>Runs</h2><p>Follow a cell or a finding's link to see its run here.</p>`,
    ...r.runs.map((x) => runSection(x, anchors.get(x.id)!, a.services, a.workloads)),
    ...r.fixes.map((x) => runSection(x, anchors.get(x.id)!, a.services, a.workloads)),
  ];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<title>${e(title)}</title>
<style>${CSS}</style>
</head>
<body>
<main>
${body.join("\n")}
</main>
</body>
</html>
`;
}

function legend(): string {
  const item = (c: string, text: string) =>
    `<li><span class="swatch ${c}" aria-hidden="true"></span>${text}</li>`;
  return `<ul class="legend" aria-label="legend">${[
    item("ok", "0: always every endpoint"),
    item("short", "(40s): short of endpoints, never none"),
    item("out-1", "up to 1m without any"),
    item("out-2", "up to 5m without any"),
    item("out-3", "more than 5m without any"),
    item("stuck", "✕: not whole again by itself"),
  ].join("")}</ul>`;
}

function heatMap(
  id: string,
  heading: string,
  what: string,
  names: string[],
  runs: RunMeasure[],
  figures: (x: RunMeasure, name: string) => Figures | undefined,
  anchors: Map<string, string>,
): string {
  const rows = names.filter((n) => runs.some((x) => figures(x, n)));
  if (rows.length === 0) return "";
  const head = runs
    .map((x) =>
      x.fault.class === "none"
        ? `<th scope="col">no fault</th>`
        : `<th scope="col">${e(x.fault.class)}<br>${e(x.fault.target)}</th>`,
    )
    .join("");
  const body = rows
    .map((n) => {
      const cells = runs.map((x) => {
        const f = figures(x, n);
        if (!f) return "<td>-</td>";
        // The accessible name starts with the text shown (WCAG 2.5.3, label in name).
        const text = cellText(f);
        const label = `${text}: ${n}, ${faultLabel(x)}: ${describe(f, what === "Service" ? "endpoint" : "pod")}`;
        return `<td class="${cellClass(f)}"><a href="#${anchors.get(x.id)}" title="${e(label)}" aria-label="${e(label)}">${e(text)}</a></td>`;
      });
      return `<tr><th scope="row">${e(n)}</th>${cells.join("")}</tr>`;
    })
    .join("\n");
  return `<h2 id="${id}">${e(heading)}</h2>
<div class="scroll" role="region" aria-labelledby="${id}" tabindex="0"><table class="heat">
<caption>Seconds without a ready ${what === "Service" ? "endpoint" : "pod"} per ${what.toLowerCase()} and fault; follow a cell for its run's timeline</caption>
<thead><tr><th scope="col">${what}</th>${head}</tr></thead>
<tbody>
${body}
</tbody></table></div>`;
}

function findings(r: AuditResult, anchors: Map<string, string>): string {
  if (r.findings.length === 0) return `<h2 id="findings">Findings</h2><p>None.</p>`;
  const order: Severity[] = ["error", "warning", "note"];
  const items = order.flatMap((sev) =>
    r.findings.filter((f) => f.severity === sev).map((f) => finding(f, anchors)),
  );
  return `<h2 id="findings">Findings</h2><ol class="findings">${items.join("\n")}</ol>`;
}

function finding(f: Finding, anchors: Map<string, string>): string {
  const where =
    f.location.line > 0
      ? `${f.location.file}:${f.location.line}:${f.location.col}`
      : f.location.file || f.object;
  const link = (run: string, text: string) => {
    const id = anchors.get(run);
    return id ? `<a href="#${id}">${e(text)}</a>` : e(text);
  };
  return `<li class="${f.severity}"><p><strong>${f.severity} ${e(f.rule)}</strong> ${e(f.name)} · <code>${e(where)}</code>${f.location.path ? ` (<code>${e(f.location.path)}</code>)` : ""}</p>
<p>${e(f.message)}</p>
<p>${link(f.consequence.run, "consequence")}: ${e(f.consequence.text)}</p>
<p>fix: ${e(f.fix.text)}</p>
<p>${f.fix.run ? `${link(f.fix.run, "simulated")}: ` : ""}${e(f.fix.effect)}</p></li>`;
}

function runSection(x: RunMeasure, id: string, services: string[], workloads: string[]): string {
  const figures = [
    ...services.filter((s) => x.services[s]).map((s) => [s, x.services[s]!, "endpoint"] as const),
    ...workloads.filter((w) => x.workloads[w]).map((w) => [w, x.workloads[w]!, "pod"] as const),
  ];
  const hurt = figures.filter(([, f]) => cellClass(f) !== "ok");
  const shared =
    x.sharedBy && x.sharedBy.length > 1
      ? `<p>One run for ${e(x.sharedBy.join(", "))}: the same pods up to names.</p>`
      : "";
  const lines = (x.timeline ?? [])
    .map(
      (l) =>
        `<li><span class="t">t+${e(clock(l.t))}</span> <span class="lane">${e(l.lane)}</span> ${e(l.message)}</li>`,
    )
    .join("\n");
  return `<section class="run" id="${id}" aria-labelledby="${id}-h">
<h3 id="${id}-h">${e(x.id.startsWith("fix/") ? `fix re-run: ${x.id.slice(4)}` : faultLabel(x))}</h3>${shared}
${x.error ? `<p>Not run: ${e(x.error)}</p>` : ""}
<ul>${hurt.length ? hurt.map(([n, f, of]) => `<li><strong>${e(n)}</strong>: ${e(describe(f, of))}</li>`).join("") : "<li>nothing lost a ready endpoint or pod</li>"}</ul>
<ol class="timeline">
${lines}
</ol>
<p><a href="#services">back to the heat map</a></p>
</section>`;
}

/**
 * The simulate page's policy (report/html.ts) less what this page does not use: it has no script, so
 * none may run, and it loads nothing (default-src 'none'); only its own inline styles apply.
 */
export const AUDIT_PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";
const CSP = AUDIT_PAGE_CSP;

const CSS = `
:root{color-scheme:light;font-family:system-ui,sans-serif;line-height:1.4;color:#1b1b1b;background:#fff}
main{max-width:100rem;margin:0 auto;padding:1rem}
h1{font-size:1.4rem}h2{font-size:1.2rem;margin-top:2rem}h3{font-size:1.05rem}
.scroll{overflow-x:auto}
code{overflow-wrap:anywhere}
table.heat{border-collapse:collapse;font-size:.85rem}
.heat th,.heat td{border:1px solid #bbb;padding:.2rem .4rem;text-align:center;white-space:nowrap}
.heat th[scope=row]{text-align:left}
.heat caption{text-align:left;padding:.3rem 0}
.heat a{color:inherit;display:block;text-decoration:none}
.heat a:focus,.heat a:hover{outline:2px solid #0b57d0;outline-offset:-2px}
.ok{background:#e6f4ea;color:#1b1b1b}.short{background:#fff3c4;color:#1b1b1b}
.out-1{background:#fcd5c0;color:#1b1b1b}.out-2{background:#f29b7f;color:#1b1b1b}
.out-3{background:#b3261e;color:#fff}.stuck{background:#5c0b0b;color:#fff}
.legend{list-style:none;display:flex;flex-wrap:wrap;gap:1rem;padding:0}
.swatch{display:inline-block;width:1rem;height:1rem;border:1px solid #888;margin-right:.3rem;vertical-align:middle}
.findings li{margin-bottom:1rem}.findings p{margin:.2rem 0}
.findings .error strong{color:#b3261e}.findings .warning strong{color:#7a4b00}
.run{display:none;border-top:2px solid #888;margin-top:1rem}.run:target{display:block}
.timeline{font-family:ui-monospace,monospace;font-size:.8rem;list-style:none;padding:0}
.timeline .t{display:inline-block;min-width:6rem}.timeline .lane{display:inline-block;min-width:8rem;color:#555}
@media (prefers-color-scheme:dark){
:root{color-scheme:dark;color:#eee;background:#121212}
.ok{background:#1e3a26;color:#eee}.short{background:#4a3d00;color:#eee}
.out-1{background:#6b2e17;color:#fff}.out-2{background:#8f2a14;color:#fff}
.timeline .lane{color:#bbb}.findings .error strong{color:#ff8a80}.findings .warning strong{color:#ffd180}
a{color:#8ab4f8}
}
`;
