// The report page: runs in the browser, bundled with uPlot and the models into one inline script by
// src/report/html.ts. It reads the payload embedded in the page and draws the simulate report
// (page/report.ts) or the detector comparison (page/detector.ts).

import type { ReportPayload } from "./model/index.ts";
import { renderDetector } from "./page/detector.ts";
import { SimulateReport } from "./page/report.ts";

/** The embedded payload: plain JSON, or gzipped and base64-encoded for large runs. */
async function readPayload(el: HTMLElement): Promise<ReportPayload> {
  const text = el.textContent ?? "{}";
  if (el.dataset.encoding !== "gzip-base64") return JSON.parse(text) as ReportPayload;
  const bin = atob(text.trim());
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return JSON.parse(await new Response(stream).text()) as ReportPayload;
}

async function main(): Promise<void> {
  const el = document.getElementById("faultline-data");
  const root = document.getElementById("app");
  if (!el || !root) return;
  const started = performance.now();
  const payload = await readPayload(el);
  if (payload.kind === "detector") renderDetector(root, payload);
  else new SimulateReport(root, payload).render();
  queueMicrotask(() => {
    document.body.dataset.ready = "true";
    document.body.dataset.renderMs = String(Math.round(performance.now() - started));
    document.body.dataset.readyAt = String(Math.round(performance.now()));
  });
}

main().catch((e: unknown) => {
  const root = document.getElementById("app");
  if (root)
    root.textContent = `This report could not draw itself: ${e instanceof Error ? e.message : String(e)}`;
  throw e;
});
