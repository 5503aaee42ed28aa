// The house's structure (DESIGN.md "The shape"), checked with dependency-cruiser over src/: no import
// cycles; src/engine/ is a leaf; the detectors library imports only the engine; the layers under the
// models import nothing above them (kubernetes/ only the engine, scenario/ only kubernetes/, trace/ only
// those); models import nothing from cli/ or report/; a `node:` module only in the named I/O rooms
// (the HTML report runs the rest in the browser), whatever the folder, a new one included.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { cruise, type IForbiddenRuleType, type IViolation } from "dependency-cruiser";
import { afterAll, describe, expect, it } from "vitest";

/** The model layers: what the page bundles and runs in the browser (src/simulate.ts moves to run/). */
const MODELS = [
  "^src/(controllers|scheduler|cluster|kubelet|network|traffic|faults|kubernetes|scenario|platforms|trace|engine|run)/",
  "^src/simulate[.]ts$",
];

/** The only files that may import a `node:` module: the command line, serve, and the named rooms below. */
const IO_ROOMS = [
  "^src/cli/",
  "^src/serve/",
  "^src/load/files[.]ts$",
  "^src/audit/pool[.]ts$",
  // The pool's worker thread: node:module only, to require hdr-histogram-js as the CLI does.
  "^src/audit/worker[.]ts$",
  // The sweep's snapshot, its fork server and their forks (one warm-up per sweep): the processes, their files.
  "^src/audit/fork[.]ts$",
  "^src/audit/fork-entry[.]ts$",
  "^src/audit/fork-server[.]ts$",
  "^src/report/html[.]ts$",
  // node:crypto's SHA-256 of a shard file (its digest), run by audit merge in the CLI's process: no
  // file, process or socket is touched there.
  "^src/audit/shard-check[.]ts$",
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
  {
    name: "node-modules-only-in-io-rooms",
    comment:
      "the file system, processes and sockets are touched in the named rooms only (load/ reads through load/files.ts)",
    severity: "error",
    from: { path: "^src/", pathNot: IO_ROOMS },
    to: { dependencyTypes: ["core"] },
  },
  {
    name: "kubernetes-knows-only-the-engine",
    comment:
      "src/kubernetes/ (objects, defaults, versions) is the floor the models stand on: no arrow back up",
    severity: "error",
    from: { path: "^src/kubernetes/" },
    to: { pathNot: "^src/(kubernetes|engine)/" },
  },
  {
    name: "scenario-knows-only-kubernetes",
    comment:
      "src/scenario/ (the loaded scenario's types) stands on kubernetes/, the engine and the platforms' data (its profiles are built from them)",
    severity: "error",
    from: { path: "^src/scenario/" },
    to: { pathNot: "^src/(scenario|kubernetes|engine|platforms)/" },
  },
  {
    name: "platforms-are-data",
    comment:
      "src/platforms/ (each managed platform's documented values) stands on kubernetes/ only: the profiles and the models read it",
    severity: "error",
    from: { path: "^src/platforms/" },
    to: { pathNot: "^src/(platforms|kubernetes|engine)/" },
  },
  {
    name: "trace-knows-only-what-is-below",
    comment:
      "src/trace/ (events, the states at t=0 and at the end) is read by every model and printer: it imports none of them",
    severity: "error",
    from: { path: "^src/trace/" },
    to: { pathNot: "^src/(trace|scenario|kubernetes|engine)/" },
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
    // The rules are about src/: a library's own modules (@kubernetes/client-node has import cycles
    // of its own) are where an arrow ends, not followed further.
    doNotFollow: { path: "node_modules" },
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
  it("has no import cycle, a leaf engine, detectors on the engine only, no arrow back up, models free of cli/, report/ and node:", async () => {
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
      file("src/kubernetes/d.ts", 'import type { S } from "../scenario/types.ts";\nexport type D = S;\n');
      file("src/scenario/types.ts", 'import type { T } from "../trace/events.ts";\nexport type S = T;\n');
      file("src/trace/events.ts", 'import type { R } from "../traffic/result.ts";\nexport type T = R;\n');
      file("src/traffic/result.ts", "export type R = number;\n");
      file("src/whatif/w.ts", 'import { readFileSync } from "node:fs";\nexport const w = readFileSync;\n');
      const found = await violations(dir);
      const names = new Set(found.map((v) => v.rule.name));
      expect([...names].sort()).toEqual([
        "detectors-import-only-the-engine",
        "engine-is-a-leaf",
        "kubernetes-knows-only-the-engine",
        "models-import-no-node-modules",
        "models-know-no-cli-or-report",
        "no-cycles",
        "node-modules-only-in-io-rooms",
        "only-the-cli-imports-the-cli",
        "scenario-knows-only-kubernetes",
        "the-scheduler-sits-on-the-store",
        "trace-knows-only-what-is-below",
      ]);
      // A node: import in a folder no rule names (whatif/, or a new top-level one) is caught too.
      const io = found.filter((v) => v.rule.name === "node-modules-only-in-io-rooms");
      expect(io.map((v) => v.from).sort()).toEqual(["src/kubelet/k.ts", "src/whatif/w.ts"]);
    }, 120_000);
  });
});
