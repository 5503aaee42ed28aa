// No text output of an example or a real manifest set prints the same line twice in a row, and an
// example with callers prints under 300 lines (report/episodes.ts tells a restart loop once): a line
// that repeats says nothing new (a run of identical findings is one group, a repeated request failure
// one episode). Every examples/*.yaml through `simulate`, examples/audit/ through `audit`, and every
// real set under test/fixtures/real/ through `simulate` (worker-1 loses power at t=10s on three
// nodes) and `audit` (power-off and drain, the sweep's node faults).

import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cli } from "../cli/helpers.ts";

/** The first line equal to the one before it, with its line number; null when there is none. */
function firstRepeat(text: string): { line: number; text: string } | null {
  const lines = text.split("\n");
  for (let i = 1; i < lines.length; i++)
    if (lines[i] !== "" && lines[i] === lines[i - 1]) return { line: i + 1, text: lines[i]! };
  return null;
}

const EXAMPLES = readdirSync("examples")
  .filter((f) => f.endsWith(".yaml"))
  .sort();

/** The examples with callers (a `traffic:` block): their text fits 300 lines (issue 23, item 9). */
const TRAFFIC = new Set(EXAMPLES.filter((f) => /^traffic:/m.test(readFileSync(join("examples", f), "utf8"))));
const MAX_TRAFFIC_LINES = 300;

const REAL = "test/fixtures/real";
/** Each real set's folder of manifests (CockroachDB's runnable copy: the published one is refused). */
const SETS = readdirSync(REAL)
  .filter((d) => statSync(join(REAL, d)).isDirectory())
  .sort()
  .map((d) => (d === "cockroachdb" ? "cockroachdb/policy-v1" : d));

const tmp = mkdtempSync(join(tmpdir(), "faultline-repeat-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("no text output prints the same line twice in a row", () => {
  it("finds a repeated line (the check can fail)", () => {
    expect(firstRepeat("a\nb\nb\nc")).toEqual({ line: 3, text: "b" });
    expect(firstRepeat("a\n\n\nb\na")).toBeNull();
  });

  it.each(EXAMPLES)("simulate examples/%s", async (file) => {
    const r = await cli(["simulate", `examples/${file}`]);
    expect(r.code, r.err).toBe(0);
    expect(firstRepeat(r.out)).toBeNull();
    if (TRAFFIC.has(file)) expect(r.out.split("\n").length).toBeLessThan(MAX_TRAFFIC_LINES);
  });

  it("knows the traffic examples (the line budget applies to some)", () => {
    expect([...TRAFFIC]).toEqual(
      expect.arrayContaining(["liveness-cascade.yaml", "traffic-doks-power-off.yaml"]),
    );
  });

  it("audit examples/audit/", async () => {
    const r = await cli(["audit", "examples/audit/", "--jobs", "1"]);
    expect(r.err).toBe("");
    expect(firstRepeat(r.out)).toBeNull();
  }, 120_000);

  it.each(SETS)(
    "simulate and audit the real set %s",
    async (set) => {
      const scenario = join(tmp, `${set.replace(/\//g, "-")}.yaml`);
      writeFileSync(
        scenario,
        `name: ${set.replace(/\//g, "-")}\nduration: 10m\nstart: running\nnodes: {count: 3, zones: [a, b, c]}\nmanifests: [${JSON.stringify(resolve(REAL, set))}]\ntimeline: [{at: 10s, do: power-off, node: worker-1}]\n`,
      );
      const sim = await cli(["simulate", scenario]);
      expect(sim.code, sim.err).toBe(0);
      expect(firstRepeat(sim.out)).toBeNull();
      const a = await cli(["audit", resolve(REAL, set), "--faults", "power-off,drain", "--jobs", "1"]);
      expect(a.err).toBe("");
      expect(firstRepeat(a.out)).toBeNull();
    },
    120_000,
  );
});
