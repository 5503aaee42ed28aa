// `npm run bench`: runs every bench/*.bench.ts in name order. Each exports a default async function
// that prints its figures (and ratios against targets) to stdout. Benchmarks are not tests. Before
// each, the calibration workload (calibrate.ts) runs in this process and its line is printed, with
// the load average: each figure is read beside it, and a benchmark may print its CPU figures in
// calibrations (the function receives it).
import { readdirSync } from "node:fs";
import os from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { type Calibration, calibrate, calibrationLine } from "./calibrate.ts";

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv[2];
console.log(
  `faultline benchmarks · node ${process.version} · ${os.cpus()[0]?.model ?? "cpu"} × ${os.cpus().length}`,
);
for (const file of readdirSync(here)
  .filter((f) => f.endsWith(".bench.ts"))
  .sort()) {
  if (only && !file.includes(only)) continue;
  console.log(`\n== ${file}`);
  const mod = (await import(pathToFileURL(join(here, file)).href)) as {
    default: (cal: Calibration) => Promise<void>;
  };
  const cal = calibrate();
  console.log(calibrationLine(cal));
  await mod.default(cal);
}
