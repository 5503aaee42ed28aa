// The HTML report at scale: a 1,000-node, 30,000-pod cluster loses one zone (250 nodes); the report is
// written and opened in headless Chromium (Debian's /usr/bin/chromium). The page's own performance marks
// time it from navigation start: faultline:first-paint (title and headline on screen) and
// faultline:drawn (lanes and charts); the page size too, each with its ratio to the page before the
// trace was packed and the headline painted first (README's figures of that page: 3.0 MiB, drawn 2.33 s).

import { mkdirSync, statSync } from "node:fs";
import { parseScenario } from "../src/load/index.ts";
import { simulatePayload, writeHtmlReport } from "../src/report/html.ts";
import { DEFAULT_BUDGET } from "../src/run/budget.ts";
import { simulate } from "../src/run/simulate.ts";
import { launch, open } from "../test/report/browser.ts";
import { zoneLossAtScaleText } from "./zone-loss-at-scale.ts";

/** The page before (README's Benchmarks, main at d8426e8): its size and when it was drawn. */
const BEFORE = { mib: 3.0, drawnS: 2.33 };

export default async function (): Promise<void> {
  const scenario = parseScenario(zoneLossAtScaleText(), "zone-loss-at-scale.yaml", () => undefined);
  let t = performance.now();
  const result = simulate(scenario);
  const simMs = performance.now() - t;
  mkdirSync("out", { recursive: true });
  const file = `${process.cwd()}/out/report-at-scale.html`;
  t = performance.now();
  await writeHtmlReport(file, simulatePayload(scenario, result, DEFAULT_BUDGET));
  const writeMs = performance.now() - t;
  const browser = await launch();
  try {
    const { page, loadMs, errors } = await open(browser, file);
    const mark = (name: string) =>
      page.evaluate((n) => performance.getEntriesByName(n)[0]?.startTime ?? Number.NaN, name);
    const firstPaint = await mark("faultline:first-paint");
    const drawn = await mark("faultline:drawn");
    // Responsive: stepping the player and zooming after load.
    t = performance.now();
    await page.focus("#player");
    for (let i = 0; i < 10; i++) await page.keyboard.press("ArrowRight");
    await page.click("#zoom-in");
    const interactMs = performance.now() - t;
    console.log(
      `report of 1,000 nodes, ${result.summary.pods.length.toLocaleString("en")} pods, ${result.events.length.toLocaleString("en")} events`,
    );
    console.log(`  simulate (Node)      ${(simMs / 1000).toFixed(2)} s`);
    const mib = statSync(file).size / 1048576;
    console.log(
      `  write report         ${(writeMs / 1000).toFixed(2)} s, ${mib.toFixed(2)} MiB (${(mib / BEFORE.mib).toFixed(2)} × the page before, ${BEFORE.mib} MiB)`,
    );
    console.log(
      `  first paint          ${(firstPaint / 1000).toFixed(2)} s from navigation start (target < 1.5 s on two cores)`,
    );
    console.log(
      `  fully drawn          ${(drawn / 1000).toFixed(2)} s (${(drawn / 1000 / BEFORE.drawnS).toFixed(2)} × the page before, ${BEFORE.drawnS} s); ${(loadMs / 1000).toFixed(2)} s with the browser's tab set-up`,
    );
    console.log(`  10 steps + zoom      ${interactMs.toFixed(0)} ms`);
    if (errors.length > 0) console.log(`  console errors: ${errors.join(" | ")}`);
  } finally {
    await browser.close();
  }
}
