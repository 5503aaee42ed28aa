// `npm run build`, after tsc: bundles the HTML report's page (src/report/html/page.ts with uPlot and the
// models, and its CSS) into dist/report/report-page.{js,css}, where the compiled writer looks first;
// and the audit's snapshot program into dist/audit/fork-entry.cjs.
import { mkdirSync, writeFileSync } from "node:fs";
import { bundleForkEntry } from "../src/audit/fork.ts";
import { buildPageAssets } from "../src/report/html.ts";

const out = new URL("../dist/report/", import.meta.url);
mkdirSync(out, { recursive: true });
const assets = await buildPageAssets();
writeFileSync(new URL("report-page.js", out), assets.js);
writeFileSync(new URL("report-page.css", out), assets.css);
console.log(
  `report page: ${(assets.js.length / 1024).toFixed(0)} KiB script, ${(assets.css.length / 1024).toFixed(0)} KiB styles`,
);
// The audit's snapshot program (src/audit/fork.ts), one CommonJS script, where the compiled audit looks first.
const fork = await bundleForkEntry();
writeFileSync(new URL("../dist/audit/fork-entry.cjs", import.meta.url), fork);
console.log(`audit snapshot program: ${(fork.length / 1024).toFixed(0)} KiB script`);
