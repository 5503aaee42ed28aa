// Fuzzing `audit merge` with tampered shard files: two real shards of the shop (examples/audit/,
// power-off), the second changed at random, merged with the first through main(argv, io). Three kinds
// of damage: any change to the parsed shard with its digest left as written; a number of the shard
// replaced by a value no run can produce (negative, 1e308, a string, null, an object…), a field
// deleted or added, with the digest redone as an editor who knows the format would; and the text cut,
// spliced or mixed with the other shard's, as pod logs can be. Every one is refused: exit 2, one line,
// no stack trace, no internal error, nothing on standard output. A fixed seed and a fixed number of
// runs (not a time) keep it reproducible; FAULTLINE_FUZZ_SEED and FAULTLINE_FUZZ_RUNS fuzz deeper.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shardDigest } from "../../src/audit/shard-check.ts";
import { cli, oneLine } from "../cli/helpers.ts";

const SEED = Number(process.env.FAULTLINE_FUZZ_SEED ?? 30);
const RUNS = Number(process.env.FAULTLINE_FUZZ_RUNS ?? 300);

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
const dir = mkdtempSync(join(tmpdir(), "faultline-fuzz-shards-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const texts: string[] = [];
const files: string[] = [];

beforeAll(async () => {
  for (const i of [0, 1]) {
    const r = await cli([
      "audit",
      "examples/audit/",
      "--faults",
      "power-off",
      "--jobs",
      "1",
      "--shard",
      `${i}/2`,
    ]);
    expect(r.err).toBe("");
    texts.push(r.out);
    files.push(join(dir, `shard-${i}.json`));
    writeFileSync(files[i]!, r.out);
  }
}, 120_000);

/** Every path to a leaf or a container of the value, as keys and indexes. */
function paths(v: Json, at: (string | number)[] = [], out: (string | number)[][] = []) {
  out.push(at);
  if (Array.isArray(v)) v.forEach((x, i) => void paths(x, [...at, i], out));
  else if (v !== null && typeof v === "object")
    for (const [k, x] of Object.entries(v)) paths(x, [...at, k], out);
  return out;
}

function get(v: Json, path: (string | number)[]): Json {
  let x: Json = v;
  for (const k of path) x = (x as Record<string | number, Json>)[k]!;
  return x;
}

function set(v: Json, path: (string | number)[], value: Json | undefined): void {
  const parent = get(v, path.slice(0, -1)) as Record<string | number, Json>;
  const key = path.at(-1)!;
  if (value === undefined) {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete parent[key];
  } else parent[key] = value;
}

/** Values no number field of a shard accepts (recovered's null aside, handled below). */
const NOT_A_FIGURE: Json[] = [-1, -0.5, 1e308, -1e308, "lots", "5", null, true, {}, [], [1]];
const ANYTHING: Json[] = [...NOT_A_FIGURE, 0, 1, 0.5, "", "x", "shop/ghost", false];

const mutation = fc.record({
  kind: fc.constantFrom("any", "figure", "delete", "add", "text"),
  pick: fc.nat(),
  value: fc.nat(),
  cut: fc.double({ min: 0, max: 1, noNaN: true }),
  garbage: fc.string({ maxLength: 8 }),
});

type Mutation = typeof mutation extends fc.Arbitrary<infer T> ? T : never;

/** Shard 1 tampered as `m` says: the file's text, or undefined when the change is none. */
function tampered(m: Mutation): string | undefined {
  const original = texts[1]!;
  if (m.kind === "text") {
    const at = Math.floor(m.cut * original.length);
    const variants = [
      original.slice(0, at),
      original.slice(0, at) + m.garbage + original.slice(at),
      original.slice(0, at) + texts[0]!.slice(at),
      `${original.slice(0, at)}\n${texts[0]}`,
    ];
    const text = variants[m.value % variants.length]!;
    try {
      if (JSON.stringify(JSON.parse(text)) === JSON.stringify(JSON.parse(original))) return undefined;
    } catch {
      // not JSON: refused as such
    }
    return text;
  }
  const s = JSON.parse(original) as Json;
  const all = paths(s).filter((p) => p.length > 0 && p[0] !== "digest");
  if (m.kind === "figure") {
    const numbers = all.filter((p) => typeof get(s, p) === "number");
    const p = numbers[m.pick % numbers.length]!;
    const bad = NOT_A_FIGURE.filter((v) => !(v === null && p.at(-1) === "recovered"));
    set(s, p, bad[m.value % bad.length]!);
  } else if (m.kind === "delete") {
    // A required field, or an item of a list (a run, a file, a node name, a reason…).
    const p = all[m.pick % all.length]!;
    set(s, p, undefined);
  } else if (m.kind === "add") {
    const objects = all.filter((p) => {
      const x = get(s, p);
      return x !== null && typeof x === "object" && !Array.isArray(x) && typeof p.at(-1) !== "number";
    });
    const p = objects[m.pick % objects.length] ?? [];
    set(s, [...p, "injected"], 1);
  } else {
    const p = all[m.pick % all.length]!;
    set(s, p, ANYTHING[m.value % ANYTHING.length]!);
  }
  if (JSON.stringify(s) === JSON.stringify(JSON.parse(original))) return undefined;
  // Type and range damage with the digest redone; any other change with the digest as written.
  if (m.kind === "figure" || m.kind === "add") (s as Record<string, Json>).digest = shardDigest(s as never);
  return JSON.stringify(s);
}

describe("audit merge with tampered shards", () => {
  it("refuses every one with one line and exit 2, never an internal error", async () => {
    const file = join(dir, "tampered.json");
    let tried = 0;
    await fc.assert(
      fc.asyncProperty(mutation, async (m) => {
        const text = tampered(m);
        if (text === undefined) return;
        tried++;
        writeFileSync(file, text);
        const r = await cli(["audit", "merge", files[0]!, file, "--jobs", "1"]);
        expect(r.code, `${m.kind}: ${r.err}`).toBe(2);
        expect(r.out).toBe("");
        expect(oneLine(r.err), r.err).toBe(true);
        expect(r.err).not.toMatch(/internal error|\n\s+at /);
        expect(r.err).toContain("tampered.json");
      }),
      { seed: SEED, numRuns: RUNS },
    );
    expect(tried).toBeGreaterThan(RUNS / 2);
  }, 300_000);
});
