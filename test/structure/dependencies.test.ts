// The house's structure (PLAN.md "Architecture"), checked with dependency-cruiser over src/: no import
// cycles; src/engine/ is a leaf; the detectors library imports only the engine; models import nothing
// from cli/ or report/ and no `node:` module (the HTML report runs them in the browser).

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { cruise, type IForbiddenRuleType, type IViolation } from "dependency-cruiser";
import { afterAll, describe, expect, it } from "vitest";

/** The model layers: what the page bundles and runs in the browser (src/simulate.ts moves to run/). */
const MODELS = [
  "^src/(controllers|scheduler|cluster|kubelet|network|traffic|faults|kubernetes|scenario|trace|engine|run)/",
  "^src/simulate[.]ts$",
];

const RULES: IForbiddenRuleType[] = [
  {
    name: "no-cycles",
    comment: "an import cycle blurs the layers and makes the load order fragile",
    severity: "error",
    from: {},
    to: { circular: true },
  },
  {
    name: "engine-is-a-leaf",
    comment: "src/engine/ (clock, heap, PRNG, time grid, budget) imports nothing outside itself",
    severity: "error",
    from: { path: "^src/engine/" },
    to: { pathNot: "^src/engine/" },
  },
  {
    name: "detectors-import-only-the-engine",
    comment: "the standalone detector library may import src/engine/ and nothing else",
    severity: "error",
    from: { path: "^src/detectors/" },
    to: { pathNot: "^src/(detectors|engine)/" },
  },
  {
    name: "models-know-no-cli-or-report",
    comment:
      "arrows point down: a model never imports what is built on it (the command line, the report, what-ifs, the audit, serve)",
    severity: "error",
    from: { path: MODELS },
    to: { path: "^src/(cli|report|whatif|audit|serve)/" },
  },
  {
    name: "only-the-cli-imports-the-cli",
    comment:
      "src/cli/ is the top: the library (src/index.ts), the audit's workers and serve never reach into it",
    severity: "error",
    from: { pathNot: "^src/cli/" },
    to: { path: "^src/cli/" },
  },
  {
    name: "the-scheduler-sits-on-the-store",
    comment:
      "src/scheduler/ is a control-plane component beside controllers/: the store, the kubelet, the network, the API types and the trace below it never import it",
    severity: "error",
    from: { path: "^src/(cluster|kubelet|network|traffic|faults|kubernetes|scenario|trace|engine)/" },
    to: { path: "^src/scheduler/" },
  },
  {
    name: "models-import-no-node-modules",
    comment: "models run in the browser too: no node: built-in module",
    severity: "error",
    from: { path: MODELS },
    to: { dependencyTypes: ["core"] },
  },
];

/** Known exceptions: none (the run no longer imports the levers: the CLI passes them in). */
const KNOWN_CYCLES: string[][] = [];

function isKnown(v: IViolation): boolean {
  if (v.rule.name !== "no-cycles") return false;
  const members = new Set([v.from, ...(v.cycle ?? []).map((c) => c.name)]);
  return KNOWN_CYCLES.some((known) => members.size === known.length && known.every((m) => members.has(m)));
}

async function violations(baseDir?: string): Promise<IViolation[]> {
  const result = await cruise(["src"], {
    validate: true,
    ruleSet: { forbidden: RULES },
    tsPreCompilationDeps: true,
    ...(baseDir ? { baseDir } : {}),
  });
  if (typeof result.output === "string") throw new Error("dependency-cruiser returned text, not a result");
  return result.output.summary.violations;
}

const show = (vs: IViolation[]) =>
  vs.map(
    (v) =>
      `${v.rule.name}: ${v.from} → ${v.to}${v.cycle ? ` (cycle ${v.cycle.map((c) => c.name).join(" → ")})` : ""}`,
  );

describe("the structure of src/", () => {
  it("has no import cycle, a leaf engine, detectors on the engine only, models free of cli/, report/ and node:", async () => {
    const found = (await violations()).filter((v) => !isKnown(v));
    expect(show(found)).toEqual([]);
  }, 120_000);

  describe("the rules bite", () => {
    const dir = mkdtempSync(join(tmpdir(), "faultline-structure-"));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const file = (path: string, text: string) => {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    };

    it("on a small tree that breaks each of them", async () => {
      file("src/engine/engine.ts", 'import { x } from "../kubernetes/a.ts";\nexport const e = x;\n');
      file("src/kubernetes/a.ts", 'import { b } from "./b.ts";\nexport const x = b;\n');
      file("src/kubernetes/b.ts", 'import { x } from "./a.ts";\nexport const b = 1; export const y = x;\n');
      file("src/detectors/phi.ts", 'import { r } from "../report/r.ts";\nexport const p = r;\n');
      file("src/report/r.ts", "export const r = 1;\n");
      file(
        "src/kubelet/k.ts",
        'import { r } from "../report/r.ts";\nimport { readFileSync } from "node:fs";\nexport const k = [r, readFileSync];\n',
      );
      file("src/serve/s.ts", 'import { c } from "../cli/c.ts";\nexport const s = c;\n');
      file("src/cli/c.ts", "export const c = 1;\n");
      file(
        "src/cluster/store.ts",
        'import { q } from "../scheduler/framework/queue.ts";\nexport const st = q;\n',
      );
      file("src/scheduler/framework/queue.ts", "export const q = 1;\n");
      const names = new Set((await violations(dir)).map((v) => v.rule.name));
      expect([...names].sort()).toEqual([
        "detectors-import-only-the-engine",
        "engine-is-a-leaf",
        "models-import-no-node-modules",
        "models-know-no-cli-or-report",
        "no-cycles",
        "only-the-cli-imports-the-cli",
        "the-scheduler-sits-on-the-store",
      ]);
    }, 120_000);
  });
});
