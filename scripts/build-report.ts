// `npm run build`, after tsc: bundles the HTML report's page (src/report/html/page.ts with uPlot and the
// models, and its CSS) into dist/report/report-page.{js,css}, where the compiled writer looks first;
// and the audit's fork programs (its snapshot's and its fork server's) into dist/audit/.
import { mkdirSync, writeFileSync } from "node:fs";
import { bundleForkProgram } from "../src/audit/fork.ts";
import { buildPageAssets } from "../src/report/html.ts";

const out = new URL("../dist/report/", import.meta.url);
mkdirSync(out, { recursive: true });
const assets = await buildPageAssets();
writeFileSync(new URL("report-page.js", out), assets.js);
writeFileSync(new URL("report-page.css", out), assets.css);
console.log(
  `report page: ${(assets.js.length / 1024).toFixed(0)} KiB script, ${(assets.css.length / 1024).toFixed(0)} KiB styles`,
);
// The audit's fork programs (src/audit/fork.ts), one CommonJS script each, where the compiled audit looks first.
for (const program of ["fork-entry", "fork-server"] as const) {
  const script = await bundleForkProgram(program);
  writeFileSync(new URL(`../dist/audit/${program}.cjs`, import.meta.url), script);
  console.log(
    `audit ${program === "fork-entry" ? "snapshot program" : "fork server"}: ${(script.length / 1024).toFixed(0)} KiB script`,
  );
}
