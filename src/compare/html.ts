// compare's HTML band: both timelines on one axis, a row per step — the observed time as a dot, the
// model's spread over its seeds as a bar — with the table beside it for screen readers and for
// copying. One self-contained page, no script.

import { escapeHtml } from "../report/escape.ts";
import type { Comparison } from "./compare.ts";
import { compareText } from "./format.ts";

const ROW = 26;
const LABEL = 330;
const WIDTH = 980;

export function compareHtml(c: Comparison): string {
  const times = c.rows
    .flatMap((r) => [r.observed, r.predicted?.min, r.predicted?.max])
    .filter((t): t is number => t !== undefined);
  const end = Math.max(10, ...times) * 1.05;
  const x = (t: number) => LABEL + ((WIDTH - LABEL - 20) * Math.max(0, t)) / end;
  const height = 40 + ROW * c.rows.length;
  const ticks: string[] = [];
  const step = end > 300 ? 60 : end > 120 ? 30 : 10;
  for (let t = 0; t <= end; t += step)
    ticks.push(
      `<line x1="${x(t)}" y1="20" x2="${x(t)}" y2="${height - 10}" class="grid"/><text x="${x(t)}" y="14" text-anchor="middle">+${t}s</text>`,
    );
  const rows = c.rows.map((r, i) => {
    const y = 30 + i * ROW;
    const bar = r.predicted
      ? `<rect x="${x(r.predicted.min)}" y="${y + 4}" width="${Math.max(3, x(r.predicted.max) - x(r.predicted.min))}" height="12" class="model"><title>model: +${r.predicted.min.toFixed(1)}s … +${r.predicted.max.toFixed(1)}s (${r.predicted.runs} seeds)</title></rect>`
      : "";
    const dot =
      r.observed !== undefined
        ? `<circle cx="${x(r.observed)}" cy="${y + 10}" r="6" class="${r.inside === false ? "out" : "in"}"><title>observed: +${r.observed.toFixed(1)}s${r.inside === false ? ", outside the model's spread" : ""}</title></circle>`
        : "";
    return `<text x="${LABEL - 10}" y="${y + 14}" text-anchor="end">${escapeHtml(r.what)}</text>${bar}${dot}`;
  });
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>faultline compare · ${escapeHtml(c.recording)}</title>
<style>
:root { color-scheme: light dark; --fg: #1b1f24; --bg: #fff; --grid: #d0d7de; --model: #8fb8ff; --in: #1a7f37; --out: #cf222e; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --bg: #0d1117; --grid: #30363d; --model: #1f4d99; --in: #3fb950; --out: #ff7b72; } }
body { font: 14px system-ui, sans-serif; color: var(--fg); background: var(--bg); margin: 1.5rem; }
main { max-width: ${WIDTH}px; } svg { width: 100%; height: auto; } svg text { fill: var(--fg); font-size: 12px; }
.grid { stroke: var(--grid); } .model { fill: var(--model); } .in { fill: var(--in); } .out { fill: var(--out); }
pre { overflow-x: auto; font-size: 12px; }
</style></head>
<body><main>
<h1>Observed and predicted, step by step</h1>
<p>Seconds after the node's last Lease renewal. Bars: the model's spread over ${c.seeds.length} seeds. Dots: the recording (red: outside the spread).</p>
<svg viewBox="0 0 ${WIDTH} ${height}" role="img" aria-label="Each step's observed time against the model's spread">
${ticks.join("\n")}
${rows.join("\n")}
</svg>
<h2>The comparison</h2>
<pre>${escapeHtml(compareText(c))}</pre>
</main></body></html>
`;
}
