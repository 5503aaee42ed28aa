import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.ts";

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await main(args, { out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

describe("faultline detector", () => {
  it("compare reproduces the seed: 8.64 per node per day and 2,591 per cluster for a 5s timeout", async () => {
    const r = await run([
      "detector",
      "compare",
      "--mean-gap",
      "1s",
      "--tail",
      "5s:1e-4",
      "--nodes",
      "300",
      "--timeout",
      "5s",
      "--phi",
      "2,8",
    ]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/fixed timeout 5s\s+5s\s+4\.49s\s+4\.99s\s+8\.64\s+2,591/);
    expect(r.out).toMatch(/phi exponential 2\s+4\.61s/);
    expect(r.out).toMatch(/phi exponential 8\s+18\.4s/);
  });

  it("compare --json carries the figures", async () => {
    const r = await run([
      "detector",
      "compare",
      "--tail",
      "5s:1e-4",
      "--nodes",
      "300",
      "--timeout",
      "5s",
      "--json",
    ]);
    const j = JSON.parse(r.out) as {
      detectors: Array<{ falseSuspicionsPerClusterPerDay: number }>;
      messagesPerSecond: { allToAll: number };
    };
    expect(j.detectors[0]!.falseSuspicionsPerClusterPerDay).toBeCloseTo(2590.7, 0);
    expect(j.messagesPerSecond.allToAll).toBeGreaterThan(89_000);
  });

  it("phi after 6s: 2.61 with a 1s mean, 0.87 with 3s", async () => {
    const r = await run(["detector", "phi", "--silence", "6s", "--mean-gap", "1s,3s", "--json"]);
    const j = JSON.parse(r.out) as { rows: Array<{ phiExponential: number }> };
    expect(j.rows.map((x) => Number(x.phiExponential.toFixed(2)))).toEqual([2.61, 0.87]);
  });

  it("threshold: phi 2 and 8 at 4.61s / 18.4s (1s) and 6.91s / 27.6s (1.5s)", async () => {
    const r = await run(["detector", "threshold", "--mean-gap", "1s,1.5s", "--phi", "2,8"]);
    expect(r.code).toBe(0);
    for (const s of ["4.61s", "18.4s", "6.91s", "27.6s"]) expect(r.out).toContain(s);
  });

  it("threshold picks the lowest phi within a false-suspicion budget", async () => {
    const r = await run([
      "detector",
      "threshold",
      "--tail",
      "5s:1e-4",
      "--max-false-per-node-day",
      "0.01",
      "--json",
    ]);
    const j = JSON.parse(r.out) as { picks: Array<{ family: string; value: number | null }> };
    expect(j.picks.find((p) => p.family === "phi exponential")!.value).toBeCloseTo(5.108, 2);
    expect(j.picks.find((p) => p.family === "phi normal (akka)")!.value).toBeNull();
  });

  it("reads measured gaps from a file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "faultline-"));
    const file = join(dir, "gaps.txt");
    writeFileSync(file, `${Array.from({ length: 9999 }, () => "1000").join("\n")}\n6s\n`);
    const r = await run(["detector", "compare", "--gaps-file", file, "--timeout", "5s", "--json"]);
    const j = JSON.parse(r.out) as { detectors: Array<{ mistakeProbabilityPerGap: number }> };
    expect(j.detectors[0]!.mistakeProbabilityPerGap).toBeCloseTo(1e-4, 10);
  });

  it("simulate prints a scenario", async () => {
    const r = await run([
      "detector",
      "simulate",
      "--scenario",
      "monitor-pause",
      "--nodes",
      "6",
      "--duration",
      "90s",
    ]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("without self-pause detection");
    expect(r.out).toContain("node 0 → 5");
  });

  it.each([
    [["detector", "compare", "--mean-gap", "1x", "--timeout", "5s"], /--mean-gap: invalid duration "1x"/],
    [["detector", "compare", "--mean-gap", "1s"], /give at least one --timeout or --phi/],
    [["detector", "compare", "--tail", "5s:2", "--timeout", "5s"], /--tail: probability/],
    [
      ["detector", "compare", "--dist", "exponential", "--tail", "5s:1e-4", "--timeout", "5s"],
      /already exceeds/,
    ],
    [["detector", "simulate", "--scenario", "nope"], /--scenario/],
    [["detector", "compare", "--gaps-file", "/nonexistent/gaps", "--timeout", "5s"], /cannot read/],
  ])("bad input %j exits 2 with one line", async (args, message) => {
    const r = await run(args);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
    expect(r.err.trim().split("\n")).toHaveLength(1);
  });
});
