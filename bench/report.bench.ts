// The HTML report at scale: a 1,000-node, 30,000-pod cluster loses one zone (250 nodes); the report is
// written and opened in headless Chromium (Debian's /usr/bin/chromium), timing the load until the page
// has drawn itself.

import { mkdirSync, statSync } from "node:fs";
import { parseScenario } from "../src/load/index.ts";
import { simulatePayload, writeHtmlReport } from "../src/report/html.ts";
import { DEFAULT_BUDGET } from "../src/run/budget.ts";
import { simulate } from "../src/run/simulate.ts";
import { launch, open } from "../test/report/browser.ts";
import { zoneLossAtScaleText } from "./zone-loss-at-scale.ts";

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
    const renderMs = await page.evaluate(() => Number(document.body.dataset.renderMs));
    // From navigation start until the headline, lanes and charts are drawn.
    const readyAt = await page.evaluate(() => Number(document.body.dataset.readyAt));
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
    console.log(
      `  write report         ${(writeMs / 1000).toFixed(2)} s, ${(statSync(file).size / 1048576).toFixed(1)} MiB`,
    );
    console.log(
      `  open in Chromium     ${(readyAt / 1000).toFixed(2)} s to drawn (page's own work ${renderMs} ms; ${(loadMs / 1000).toFixed(2)} s with the browser's tab set-up)`,
    );
    console.log(`  10 steps + zoom      ${interactMs.toFixed(0)} ms`);
    if (errors.length > 0) console.log(`  console errors: ${errors.join(" | ")}`);
  } finally {
    await browser.close();
  }
}
