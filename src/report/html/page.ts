// The report page: runs in the browser, bundled with uPlot and the models into one inline script by
// src/report/html.ts. It reads the payload embedded in the page and draws the simulate report
// (page/report.ts) or the detector comparison (page/detector.ts).

import * as hdrHistogram from "hdr-histogram-js";
import { provideHdr } from "../../traffic/hdr.ts";
import type { FirstView } from "./model/first.ts";
import { unpackPayload } from "./model/pack.ts";
import { renderDetector } from "./page/detector.ts";
import { h } from "./page/dom.ts";
import { headlineSection } from "./page/headline.ts";
import { restoreView } from "./page/link.ts";
import { header, SimulateReport } from "./page/report.ts";
import { serveSimulations } from "./page/worker.ts";

// The what-if worker's latency histograms (traffic/latency.ts): the library bundled with the page.
provideHdr(() => hdrHistogram);

/** The embedded payload (its events packed): plain JSON, or gzipped and base64-encoded for large runs. */
async function readPayload(el: HTMLElement): Promise<unknown> {
  const text = el.textContent ?? "{}";
  if (el.dataset.encoding !== "gzip-base64") return JSON.parse(text);
  const bin = atob(text.trim());
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return JSON.parse(await new Response(stream).text());
}

/** Resolves once the browser has painted what is on the page. */
const painted = () => new Promise<void>((r) => requestAnimationFrame(() => setTimeout(r, 0)));

/**
 * First the title and the headline the writer computed (a few kilobytes: performance mark
 * `faultline:first-paint`), then the trace is read and the whole report drawn (`faultline:drawn`).
 */
async function main(): Promise<void> {
  const el = document.getElementById("faultline-data");
  const root = document.getElementById("app");
  if (!el || !root) return;
  const started = performance.now();
  const firstEl = document.getElementById("faultline-first");
  if (firstEl) {
    const first = JSON.parse(firstEl.textContent ?? "{}") as FirstView;
    root.replaceChildren(
      header(first, false),
      headlineSection({ headline: first.headline, sent: first.sent }),
      h("p", { class: "hint", role: "status" }, "Drawing the timeline and the charts…"),
    );
    await painted();
  }
  performance.mark("faultline:first-paint");
  const payload = unpackPayload(await readPayload(el));
  if (payload.kind === "detector") renderDetector(root, payload);
  else {
    const report = new SimulateReport(root, payload);
    report.render();
    // The view the link holds (page/link.ts), then every change of it written to the link.
    await restoreView(report, location.hash);
    report.linking = true;
    report.viewChanged();
  }
  // After the charts, which draw in the microtasks the render queued.
  queueMicrotask(() => {
    performance.mark("faultline:drawn");
    document.body.dataset.ready = "true";
    document.body.dataset.renderMs = String(Math.round(performance.now() - started));
    document.body.dataset.readyAt = String(Math.round(performance.now()));
  });
}

// The same script is the what-if's worker (page/worker.ts): there it only runs simulations.
if (typeof document === "undefined")
  serveSimulations(self as unknown as Parameters<typeof serveSimulations>[0]);
else
  main().catch((e: unknown) => {
    const root = document.getElementById("app");
    if (root)
      root.textContent = `This report could not draw itself: ${e instanceof Error ? e.message : String(e)}`;
    throw e;
  });
