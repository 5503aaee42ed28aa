// The HTML report's Node-side writer: one self-contained file (the page's script with uPlot and the
// models bundled in, its styles, and the payload as JSON), with a Content-Security-Policy that forbids
// every network request.
//
// Where the page bundle comes from: `npm run build` writes dist/report/report-page.{js,css} next to the
// compiled writer (scripts/build-report.ts). Run from source (tsx, vitest) there is no prebuilt bundle
// beside this file, so the writer bundles src/report/html/page.ts with esbuild (a devDependency) on first
// use and keeps it for the process.

import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { basename } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import type { Budget } from "../run/budget.ts";
import { escapeHtml } from "./escape.ts";
import { firstView } from "./html/model/first.ts";
import type { DetectorPayload, ReportPayload, SimulatePayload } from "./html/model/index.ts";
import { packPayload } from "./html/model/pack.ts";

export type { DetectorPayload, ReportPayload, SimulatePayload } from "./html/model/index.ts";

export interface PageAssets {
  js: string;
  css: string;
}

const PREBUILT_JS = new URL("./report-page.js", import.meta.url);
const PREBUILT_CSS = new URL("./report-page.css", import.meta.url);
const SOURCE_DIR = new URL("./html/", import.meta.url);

/** Bundles the page from source with esbuild: the one definition of the bundle, used by the build too. */
export async function buildPageAssets(options: { minify?: boolean } = {}): Promise<PageAssets> {
  const entry = fileURLToPath(new URL("page.ts", SOURCE_DIR));
  if (!existsSync(entry))
    throw new Error(
      `the report page's source (${entry}) is missing and no prebuilt bundle sits beside the writer: run npm run build`,
    );
  let esbuild: typeof import("esbuild");
  try {
    esbuild = await import("esbuild");
  } catch {
    throw new Error("bundling the report page needs esbuild (a devDependency): run npm ci, or npm run build");
  }
  const minify = options.minify ?? true;
  const common: import("esbuild").BuildOptions & { write: false } = {
    bundle: true,
    write: false,
    minify,
    legalComments: "inline",
    target: ["es2022", "chrome110", "firefox110", "safari16"],
    logLevel: "silent",
  };
  const [js, css] = await Promise.all([
    esbuild.build({ ...common, entryPoints: [entry], format: "iife", platform: "browser" }),
    esbuild.build({ ...common, entryPoints: [fileURLToPath(new URL("page.css", SOURCE_DIR))] }),
  ]);
  return { js: js.outputFiles[0]!.text, css: css.outputFiles[0]!.text };
}

let cached: Promise<PageAssets> | undefined;

/** The page's script and styles: prebuilt (dist) when present, else bundled from source once. */
export function pageAssets(): Promise<PageAssets> {
  cached ??= existsSync(PREBUILT_JS)
    ? Promise.resolve({ js: readFileSync(PREBUILT_JS, "utf8"), css: readFileSync(PREBUILT_CSS, "utf8") })
    : buildPageAssets();
  return cached;
}

/** Payloads above this many characters are embedded gzipped (the seed examples' stay plain JSON). */
export const LARGE_PAYLOAD = 2_000_000;

// worker-src blob: lets the page start its what-if worker from its own script (page/worker.ts): no request.
const CSP =
  "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data: blob:; font-src data:; connect-src 'none'; worker-src blob:; base-uri 'none'; form-action 'none'";

/** The whole page as a string. */
export function renderReportHtml(payload: ReportPayload, assets: PageAssets): string {
  const title =
    payload.kind === "simulate"
      ? `faultline · ${payload.result.scenario} · Kubernetes ${payload.result.kubernetesVersion}`
      : "faultline · failure detectors compared";
  // Only file names travel in the page, never the absolute paths of the machine that wrote it.
  const json = scriptJson(packPayload(payload));
  // Large runs (a 1,000-node cluster's trace is tens of MB of JSON) travel gzipped: the browser reads and
  // parses a tenth of the bytes and inflates them with its own DecompressionStream.
  const data =
    json.length > LARGE_PAYLOAD
      ? `<script type="application/octet-stream" id="faultline-data" data-encoding="gzip-base64">${gzipSync(json).toString("base64")}</script>`
      : `<script type="application/json" id="faultline-data">${json}</script>`;
  // The headline, computed here with the page's own model: painted before the trace is read.
  const first =
    payload.kind === "simulate"
      ? `<script type="application/json" id="faultline-first">${scriptJson(firstView(payload))}</script>\n`
      : "";
  const js = assets.js.replace(/<\/script/gi, "<\\/script").replace(/<!--/g, "<\\!--");
  const css = assets.css.replace(/<\/style/gi, "<\\/style");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="generator" content="faultline">
<title>${escapeHtml(title)}</title>
<style>${css}</style>
</head>
<body>
<main id="app"><noscript>This report draws itself with JavaScript; please allow scripts for this file.</noscript></main>
${first}${data}
<script>${js}</script>
</body>
</html>
`;
}

/** Writes the report; returns its size in bytes. */
export async function writeHtmlReport(path: string, payload: ReportPayload): Promise<number> {
  const html = renderReportHtml(payload, await pageAssets());
  writeFileSync(path, html);
  return Buffer.byteLength(html);
}

/** A simulate report's payload; with variants, the first variant's run is `result` and is embedded once. */
export function simulatePayload(
  scenario: SimulatePayload["scenario"],
  result: SimulatePayload["result"],
  budget: Budget,
  variants?: SimulatePayload["variants"],
): SimulatePayload {
  return {
    kind: "simulate",
    scenario,
    result,
    budget,
    ...(variants && variants.length > 0
      ? { variants: variants.map((v, i) => (i === 0 ? { label: v.label, key: v.key, value: v.value } : v)) }
      : {}),
  };
}

export function detectorPayload(p: Omit<DetectorPayload, "kind">): DetectorPayload {
  return { kind: "detector", ...p };
}

/** JSON safe inside a <script> element; only file names travel, never the writer's absolute paths. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value, (key, v) => (key === "file" && typeof v === "string" ? basename(v) : v))
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}
