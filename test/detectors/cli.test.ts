// The detector commands end to end: the figures of the worked example, the duration rule (a unit is
// required), the budgets and physical minimums of the simulation, gaps files read as the loader reads files,
// and figures that are not finite printed with their reason. Every refusal is one line and exit code 2.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.ts";

const dir = mkdtempSync(join(tmpdir(), "faultline-detector-"));

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

  it("reads measured gaps from a file: bare numbers after a declared unit, or each with its unit", async () => {
    const file = join(dir, "gaps.txt");
    writeFileSync(
      file,
      `# unit: ms\n${Array.from({ length: 9999 }, () => "1000").join("\n")}\n6s # a pause\n`,
    );
    const r = await run(["detector", "compare", "--gaps-file", file, "--timeout", "5s", "--json"]);
    expect(r.err).toBe("");
    const j = JSON.parse(r.out) as { detectors: Array<{ mistakeProbabilityPerGap: number }> };
    expect(j.detectors[0]!.mistakeProbabilityPerGap).toBeCloseTo(1e-4, 10);
    const units = join(dir, "units.txt");
    writeFileSync(units, "1s, 900ms; 1.1s\n1100000us\r\n");
    const u = await run(["detector", "compare", "--gaps-file", units, "--timeout", "5s", "--json"]);
    expect((JSON.parse(u.out) as { meanGapMs: number }).meanGapMs).toBeCloseTo(1025, 9);
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
    [
      ["detector", "compare", "--mean-gap", "1x", "--timeout", "5s"],
      /--mean-gap: "1x" is not a duration: unknown unit "x"/,
    ],
    [
      ["detector", "compare", "--mean-gap", "1000", "--timeout", "5s"],
      /^faultline: --mean-gap: "1000" needs a unit \(e.g. 1s, 500ms\)\n$/,
    ],
    [["detector", "phi", "--silence", "6000"], /--silence: "6000" needs a unit/],
    [["detector", "compare", "--mean-gap", "0", "--timeout", "5s"], /--mean-gap: "0": must be more than 0/],
    [["detector", "compare", "--mean-gap", "-1s", "--timeout", "5s"], /--mean-gap: "-1s" is negative/],
    [["detector", "compare", "--mean-gap", "1d", "--timeout", "5s"], /unknown unit "d"/],
    [
      ["detector", "compare", "--timeout", "5s", "--nodes", "1e300"],
      /--nodes: expected a whole number from 1 to 1000000/,
    ],
    [["detector", "compare", "--phi", "1e400"], /--phi: expected a number > 0/],
    [
      ["detector", "threshold", "--max-false-per-node-day", ""],
      /--max-false-per-node-day: expected a number >= 0/,
    ],
    [
      [
        "detector",
        "phi",
        "--silence",
        Array.from({ length: 200 }, (_, i) => `${i}s`).join(","),
        "--mean-gap",
        Array.from({ length: 100 }, (_, i) => `${i + 1}s`).join(","),
      ],
      /--mean-gap × --silence: 100 × 200 = 20000 rows; at most 10,000/,
    ],
    [["detector", "compare", "--mean-gap", "1s"], /give at least one --timeout or --phi/],
    [
      ["detector", "compare", "--tail", "5s:2", "--timeout", "5s"],
      /--tail: expected a probability in \(0, 1\), got "2"/,
    ],
    [
      ["detector", "compare", "--dist", "exponential", "--tail", "5s:1e-4", "--timeout", "5s"],
      /already exceeds/,
    ],
    [["detector", "simulate", "--scenario", "nope"], /--scenario/],
    [
      ["detector", "compare", "--gaps-file", "/nonexistent/gaps", "--timeout", "5s"],
      /--gaps-file: \/nonexistent\/gaps: no such file/,
    ],
    [
      ["detector", "threshold", "--tail", "5s:1e-4"],
      /^faultline: --tail describes the gaps for --max-false-per-node-day; without it the grid reads only --mean-gap\n$/,
    ],
    [["detector", "threshold", "--gaps-file", "x.txt", "--phi", "8"], /--gaps-file describes the gaps/],
    [
      ["detector", "threshold", "--max-false-per-node-day", "0.01", "--phi", "8"],
      /--phi is for the grid; --max-false-per-node-day picks the threshold itself/,
    ],
    [
      ["detector", "compare", "--timeout", "5s", "--models", "normal"],
      /--models chooses the models of the --phi thresholds/,
    ],
    [["detector", "simulate", "--seed", "-1"], /--seed: expected a whole number from 0 to 4294967295/],
    [["detector", "simulate", "--loss", "1"], /--loss: expected a probability in \[0, 1\)/],
  ])("bad input %j exits 2 with one line", async (args, message) => {
    const r = await run(args);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
    expect(r.err.trim().split("\n")).toHaveLength(1);
  });
});

describe("faultline detector: help", () => {
  it("says durations take a unit, and never speaks of the seed document", async () => {
    for (const sub of ["phi", "threshold", "compare", "simulate"]) {
      const r = await run(["detector", sub, "--help"]);
      expect(r.code).toBe(0);
      expect(r.out).toContain("Durations take a unit");
      expect(r.out).toContain("A bare number other than 0 is refused");
      expect(r.out).not.toMatch(/the seed\b|seed's/i);
    }
    const sim = await run(["detector", "simulate", "--help"]);
    expect(sim.out).toContain("--max-events <n>");
    expect(sim.out).toContain("--max-detectors <n>");
    expect(sim.out).toMatch(/--seed <n>\s+picks the run's random draws/);
  });
});

describe("faultline detector simulate: bounded", () => {
  const simulate = (...args: string[]) => run(["detector", "simulate", ...args]);
  const oneLine = (r: { code: number; out: string; err: string }): string => {
    expect(r.code).toBe(2);
    expect(r.out).toBe("");
    expect(r.err.trim().split("\n")).toHaveLength(1);
    return r.err;
  };

  it("--nodes 3000 is refused before anything is allocated, naming the product and --max-detectors", async () => {
    expect(oneLine(await simulate("--nodes", "3000"))).toBe(
      'faultline: detector simulate: the gc-pause run "6s GC pause on node 0" would hold 35,988,000 detector states: 3,000 nodes (--nodes) × 2,999 monitors each (--topology all-to-all) × 4 detectors, over the budget of 1,000,000; lower --nodes, use --topology watchers:K, or raise the budget with --max-detectors 53982000\n',
    );
  });

  it("--interval 1ms is refused by the event budget, naming --duration / --interval and --max-events", async () => {
    const err = oneLine(await simulate("--interval", "1ms"));
    expect(err).toContain("would take about ");
    expect(err).toContain(
      "100 nodes (--nodes) × 99 monitors each (--topology all-to-all) × 120,001 beats (--duration 2m00s / --interval 1ms)",
    );
    expect(err).toContain("over the budget of 20,000,000");
    expect(err).toMatch(/raise the budget with --max-events \d+\n$/);
  });

  it("--duration 1000h is refused; below 1ms is a physical minimum", async () => {
    expect(oneLine(await simulate("--duration", "1000h"))).toContain("(--duration 1000h00m / --interval 1s)");
    expect(oneLine(await simulate("--interval", "500us"))).toContain(
      '--interval: "500us": nothing below 1ms is simulated',
    );
    expect(oneLine(await simulate("--interval", "0"))).toContain("nothing below 1ms is simulated");
    expect(oneLine(await simulate("--interval", "1000"))).toContain('--interval: "1000" needs a unit');
  });

  it("raising the budget lets a refused run through", async () => {
    const args = ["--nodes", "4", "--duration", "10s", "--interval", "10ms"];
    expect(oneLine(await simulate(...args, "--max-events", "10000"))).toContain(
      "raise the budget with --max-events",
    );
    const r = await simulate(...args, "--max-events", "100_000");
    expect(r.code).toBe(0);
  });

  it("--nodes above 100,000 is refused outright", async () => {
    expect(oneLine(await simulate("--nodes", "100001", "--topology", "lease"))).toContain(
      "--nodes: expected a whole number from 2 to 100000",
    );
  });
});

describe("faultline detector: gaps files are read as the loader reads files", () => {
  const compare = (file: string) => run(["detector", "compare", "--gaps-file", file, "--timeout", "5s"]);
  const refused = async (file: string, message: RegExp) => {
    const r = await compare(file);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
    expect(r.err.trim().split("\n")).toHaveLength(1);
  };

  it("/dev/zero, a folder and a FIFO are one-line errors, and opening the FIFO does not wait for a writer", async () => {
    await refused("/dev/zero", /--gaps-file: \/dev\/zero is not a regular file/);
    mkdirSync(join(dir, "folder"), { recursive: true });
    await refused(join(dir, "folder"), /is a folder, not a file of gaps/);
    const fifo = join(dir, "gaps.fifo");
    execFileSync("mkfifo", [fifo]);
    await refused(fifo, /gaps\.fifo is not a regular file/);
  });

  it("a file over 16 MiB is refused before it is read", async () => {
    const big = join(dir, "big.txt");
    writeFileSync(big, "");
    truncateSync(big, 78 * 1024 * 1024); // sparse: nothing is written
    await refused(big, /big\.txt is 78\.0 MiB; files larger than 16 MiB are refused/);
  });

  it("names the file, line and column of a bad gap", async () => {
    const bare = join(dir, "bare.txt");
    writeFileSync(bare, "# measured on node 7\n1000ms\n  1000\n");
    await refused(
      bare,
      /bare\.txt:3:3: "1000" needs a unit \(e\.g\. 1000ms\), or say the file's unit once with a line "# unit: ms"/,
    );
    const bad = join(dir, "bad.txt");
    writeFileSync(bad, "# unit: ms\n1000, 1010, -3\n");
    await refused(bad, /bad\.txt:2:13: "-3" is not a gap >= 0/);
    const words = join(dir, "words.txt");
    writeFileSync(words, "1s xyz\n");
    await refused(words, /words\.txt:1:4: "xyz" is not a gap/);
    const empty = join(dir, "empty.txt");
    writeFileSync(empty, "# nothing yet\n");
    await refused(empty, /holds no gaps/);
    const zeros = join(dir, "zeros.txt");
    writeFileSync(zeros, "0ms 0s\n");
    await refused(zeros, /every gap is 0/);
    const binary = join(dir, "binary.txt");
    writeFileSync(binary, Buffer.from([0x31, 0x73, 0x0a, 0xff, 0xfe, 0x0a]));
    await refused(binary, /not valid UTF-8/);
  });
});

describe("faultline detector compare --report", () => {
  it("a missing folder, a folder, or the gaps file itself is one line and exit 2, before any analysis", async () => {
    const gaps = join(dir, "report-gaps.txt");
    writeFileSync(gaps, "1s 1.1s 0.9s\n");
    for (const [path, message] of [
      [
        join(dir, "no-such-folder", "r.html"),
        /--report .*r\.html: no folder .*no-such-folder \(create it first\)/,
      ],
      [dir, /is a folder; give a file name/],
      [gaps, /is the gaps file; choose another name/],
    ] as const) {
      const r = await run(["detector", "compare", "--gaps-file", gaps, "--timeout", "5s", "--report", path]);
      expect(r.code).toBe(2);
      expect(r.out).toBe("");
      expect(r.err).toMatch(message);
      expect(r.err.trim().split("\n")).toHaveLength(1);
    }
  });
});

describe("faultline detector: figures that are not finite say why", () => {
  it("phi with --min-std 0 and no --std: undefined at the mean + pause, infinite past it", async () => {
    const r = await run(["detector", "phi", "--silence", "3s,4s,5s", "--mean-gap", "1s", "--min-std", "0"]);
    expect(r.code).toBe(0);
    const lines = r.out.split("\n");
    expect(lines[1]).toMatch(/3s\s+1\.30\s+0\.00$/);
    expect(lines[2]).toMatch(
      /4s\s+1\.74\s+undefined \(min-std 0 makes phi undefined: give --min-std or --std above 0, as Akka requires\)$/,
    );
    expect(lines[3]).toMatch(/5s\s+2\.17\s+∞ \(min-std 0 makes phi undefined/);
    const j = await run(["detector", "phi", "--silence", "4s", "--min-std", "0", "--json"]);
    const row = (JSON.parse(j.out) as { rows: Array<Record<string, unknown>> }).rows[0]!;
    expect(row.phiNormal).toBe("NaN");
    expect(row.phiNormalWhy).toMatch(/min-std 0 makes phi undefined/);
  });

  it("phi past 21 standard deviations is ∞ as on the JVM, and says so", async () => {
    const r = await run(["detector", "phi", "--silence", "30s", "--mean-gap", "1s"]);
    expect(r.out).toMatch(
      /30s\s+13\.03\s+∞ \(more than 21 standard deviations past mean \+ pause: exp underflows, as on the JVM\)/,
    );
  });
});
