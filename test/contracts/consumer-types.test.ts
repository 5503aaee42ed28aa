// The package as consumers use it (#28): `import("faultline")` and `faultline/detectors` type-check
// in a consumer on TypeScript 5.4 — the oldest release the declarations support — and on the
// pinned compiler, without skipLibCheck. TypeScript 5.7 made the typed arrays generic
// (`Uint8Array<ArrayBuffer>`); a declaration that spells that form does not compile on 5.4, so the
// fields the package exports say `Uint8Array` (src/traffic/endpoints.ts,
// src/scheduler/framework/cache.ts). TypeScript 5.4 is installed by the root's file:
// devDependency test/consumer (its own node_modules, so the root's tsc stays the pinned one).

import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = resolve(".");
const TSC = {
  "5.4": join(ROOT, "test/consumer/node_modules/typescript/bin/tsc"),
  pinned: join(ROOT, "node_modules/typescript/bin/tsc"),
};

const CONSUMER = `import { createSimulation, formatTimeline, loadScenarioFile, simulate } from "faultline";
import type { SimulationResult } from "faultline";
import * as detectors from "faultline/detectors";

const scenario = loadScenarioFile("examples/node-power-loss.yaml");
const result: SimulationResult = simulate(scenario, { seed: 7 });
const sim = createSimulation(scenario);
sim.runUntil(60);
console.log(formatTimeline(result, scenario), Object.keys(detectors).length);
`;

let dir = "";

/** tsc's exit code and what it printed, for a consumer at dir with the given module resolution */
function check(
  tsc: string,
  moduleResolution: "NodeNext" | "Bundler",
  files: string[],
): { code: number; out: string } {
  const module = moduleResolution === "Bundler" ? "ESNext" : "NodeNext";
  const config = {
    compilerOptions: {
      target: "ES2022",
      module,
      moduleResolution,
      strict: true,
      noEmit: true,
      types: ["node"],
    },
    files,
  };
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(config));
  try {
    const out = execFileSync(process.execPath, [tsc, "-p", dir], { encoding: "utf8", stdio: "pipe" });
    return { code: 0, out };
  } catch (e) {
    const err = e as { status: number; stdout: string; stderr: string };
    return { code: err.status, out: err.stdout + err.stderr };
  }
}

describe("the package's declarations in a consumer", () => {
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "faultline-consumer-"));
    const pkg = join(dir, "node_modules/faultline");
    mkdirSync(pkg, { recursive: true });
    const manifest = JSON.parse(readFileSync("package.json", "utf8")) as Record<string, unknown>;
    // What installing the package brings beside it: its dependencies, and the consumer's @types/node
    const beside = [...Object.keys(manifest.dependencies as Record<string, string>), "@types/node"];
    for (const name of beside) {
      mkdirSync(join(dir, "node_modules", name, ".."), { recursive: true });
      symlinkSync(join(ROOT, "node_modules", name), join(dir, "node_modules", name));
    }
    writeFileSync(
      join(pkg, "package.json"),
      JSON.stringify({ name: "faultline", type: "module", exports: manifest.exports }),
    );
    // The declarations as `npm run build` emits them, fresh from this tree
    execFileSync(
      process.execPath,
      [TSC.pinned, "-p", "tsconfig.build.json", "--emitDeclarationOnly", "--outDir", join(pkg, "dist")],
      {
        stdio: "pipe",
      },
    );
    writeFileSync(
      join(dir, "package.json"),
      JSON.stringify({ name: "consumer", type: "module", private: true }),
    );
    writeFileSync(join(dir, "index.ts"), CONSUMER);
    writeFileSync(
      join(dir, "wrong.ts"),
      `import { simulate } from "faultline";\nconst n: number = simulate;\nexport { n };\n`,
    );
  }, 240_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  for (const [name, tsc] of Object.entries(TSC)) {
    for (const resolution of ["NodeNext", "Bundler"] as const) {
      it(`type-checks on TypeScript ${name} (${resolution}), without skipLibCheck`, () => {
        const { code, out } = check(tsc, resolution, ["index.ts"]);
        expect(out).toBe("");
        expect(code).toBe(0);
      }, 240_000);
    }
  }

  it("is a check that can fail: a consumer's type error is reported on 5.4", () => {
    const { code, out } = check(TSC["5.4"], "NodeNext", ["wrong.ts"]);
    expect(code).not.toBe(0);
    expect(out).toMatch(/wrong\.ts\(2,7\): error TS2322/);
  }, 240_000);
});
