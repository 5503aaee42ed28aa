// Fuzzing the command line: every example, with its manifests inlined, mutated
// at random places (numbers, durations, strings with control characters, wrong types, deleted and
// unknown keys, duplicated list items), is loaded and run through main(argv, io) with a small budget.
// Whatever the input, the command ends: exit 0, or exit 2 with one line; never an internal error
// (exit 1), an uncaught exception, a stack trace or a hang. A fixed seed keeps it reproducible; the
// number of runs keeps it well under a minute on a busy two-core machine.

import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { parse, parseAllDocuments, stringify } from "yaml";
import { cli } from "./helpers.ts";

/** FAULTLINE_FUZZ_SEED and FAULTLINE_FUZZ_RUNS fuzz deeper by hand (FAULTLINE_FUZZ_LOG=1 prints each refusal). */
const SEED = Number(process.env.FAULTLINE_FUZZ_SEED ?? 17);
const RUNS = Number(process.env.FAULTLINE_FUZZ_RUNS ?? 300);
/** Small enough that a mutated scenario runs in milliseconds; the examples' own runs fit within it. */
const BUDGET = ["--max-events", "30000", "--max-requests", "200000"];

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** An example with its manifest files and folders read and inlined, so one file holds it all. */
function inlined(file: string): Json {
  const scenario = parse(readFileSync(file, "utf8")) as { [k: string]: Json };
  const objects: Json[] = [];
  for (const entry of (scenario.manifests as Json[] | undefined) ?? []) {
    if (typeof entry !== "string") {
      objects.push(entry);
      continue;
    }
    const path = join("examples", entry);
    const files = statSync(path).isDirectory()
      ? readdirSync(path)
          .sort()
          .map((f) => join(path, f))
      : [path];
    for (const f of files)
      for (const doc of parseAllDocuments(readFileSync(f, "utf8"))) objects.push(doc.toJS() as Json);
  }
  return { ...scenario, manifests: objects };
}

const EXAMPLES = readdirSync("examples")
  .filter((f) => f.endsWith(".yaml"))
  .sort()
  .map((f) => inlined(join("examples", f)));

/** Values that have broken parsers and models before. */
const nasty = fc.constantFrom<Json>(
  0,
  -1,
  1,
  0.5,
  1e-9,
  1e9,
  1e308,
  -1e308,
  2 ** 53,
  "0s",
  "1ns",
  "1us",
  "1ms",
  "-5s",
  "168h",
  "9999999h",
  "1e9",
  "NaN",
  "Infinity",
  "",
  " ",
  "\u001b[31mred\u001b[0m",
  "a\u202eb",
  "x".repeat(300),
  "Deployment/app[0]",
  "default/web",
  "worker-1",
  "power-off",
  "crash",
  true,
  false,
  null,
  [],
  {},
  [[[[]]]],
  { a: { b: { c: 1 } } },
);

interface Mutation {
  /** where, as indexes into the keys or items met on the way down (taken modulo their number) */
  path: number[];
  kind: "tweak" | "set" | "delete" | "duplicate" | "add-key";
  value: Json;
  /** for "tweak": a number scaled by this, a duration replaced by one of DURATIONS */
  factor: number;
}

const DURATIONS = ["1ms", "10ms", "0.5s", "1s", "3s", "10s", "45s", "5m", "1h", "24h", "168h"];

const mutation: fc.Arbitrary<Mutation> = fc.record({
  path: fc.array(fc.nat(50), { minLength: 1, maxLength: 7 }),
  kind: fc.constantFrom("tweak", "tweak", "tweak", "tweak", "set", "set", "delete", "duplicate", "add-key"),
  value: fc.oneof(nasty, fc.integer({ min: -1000, max: 100_000 }), fc.string({ maxLength: 12 })),
  factor: fc.constantFrom(0, -1, 0.001, 0.1, 0.5, 2, 3, 10, 100, 1000),
});

/** A plausible change of the same type: the settings' products, not their parsers, get exercised. */
function tweak(value: Json, m: Mutation): Json {
  if (typeof value === "number")
    return Number.isInteger(value) ? Math.round(value * m.factor) : value * m.factor;
  if (typeof value === "string" && /^\d+(\.\d+)?(ms|s|m|h)$/.test(value))
    return DURATIONS[Math.abs(Math.round(m.factor * 7)) % DURATIONS.length]!;
  if (typeof value === "boolean") return !value;
  return m.value;
}

function mutate(root: Json, m: Mutation): Json {
  const copy = structuredClone(root);
  let parent: Json = copy;
  for (let i = 0; i < m.path.length; i++) {
    if (parent === null || typeof parent !== "object") return copy;
    const keys: (string | number)[] = Array.isArray(parent) ? parent.map((_, j) => j) : Object.keys(parent);
    if (keys.length === 0) break;
    const key = keys[m.path[i]! % keys.length]!;
    const child = (parent as Record<string | number, Json>)[key]!;
    const last = i === m.path.length - 1 || child === null || typeof child !== "object";
    if (!last) {
      parent = child;
      continue;
    }
    const p = parent as Record<string | number, Json>;
    if (m.kind === "tweak") p[key] = tweak(child, m);
    else if (m.kind === "set") p[key] = m.value;
    else if (m.kind === "delete") {
      if (Array.isArray(parent)) parent.splice(key as number, 1);
      else delete p[key];
    } else if (m.kind === "duplicate") {
      if (Array.isArray(parent)) parent.push(structuredClone(child));
      else p[`${key}Copy`] = structuredClone(child);
    } else if (!Array.isArray(parent)) p.unknownField = m.value;
    return copy;
  }
  return copy;
}

describe("fuzzing `faultline simulate` over mutated examples", () => {
  const dir = mkdtempSync(join(tmpdir(), "faultline-fuzz-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("ends every run with exit 0, or exit 2 and one line; never an internal error", async () => {
    let n = 0;
    const outcomes = { ok: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.nat(EXAMPLES.length - 1),
        fc.array(mutation, { minLength: 1, maxLength: 3 }),
        fc.boolean(),
        async (which, mutations, json) => {
          const scenario = mutations.reduce(mutate, EXAMPLES[which]!);
          const file = join(dir, `case-${n++}.yaml`);
          writeFileSync(file, stringify(scenario));
          const r = await cli(["simulate", file, ...BUDGET, ...(json ? ["--json"] : [])]);
          const context = `${file}\n${stringify(scenario).slice(0, 2000)}\nstderr: ${r.err}`;
          expect([0, 2], context).toContain(r.code);
          expect(r.err, context).not.toMatch(/internal error|^\s+at /m);
          if (r.code === 2) {
            expect(r.err.trim().split("\n"), context).toHaveLength(1);
            outcomes.refused++;
            if (process.env.FAULTLINE_FUZZ_LOG) console.log(`refused: ${r.err.trim()}`);
          } else outcomes.ok++;
        },
      ),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    if (process.env.FAULTLINE_FUZZ_LOG)
      console.log(`fuzz: ${n} runs, ${outcomes.ok} ran, ${outcomes.refused} refused`);
    // Both kinds of ending were exercised.
    expect(outcomes.ok).toBeGreaterThan(0);
    expect(outcomes.refused).toBeGreaterThan(0);
  }, 240_000);
});
