// The audit's cost line counts the CPU of its child processes (the runs forked from the sweep's
// snapshot): a child that spends 0.3 s of its own CPU shows in cpuWithChildren once it has ended.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { cpuWithChildren } from "../../src/cli/progress.ts";

// Spins until its own CPU (not the clock) reaches 0.3 s.
const SPIN =
  "const c0 = process.cpuUsage(); let x = 0; for (;;) { for (let i = 0; i < 1e5; i++) x += i; const c = process.cpuUsage(c0); if (c.user + c.system >= 300_000) break; }";

describe.runIf(process.platform === "linux")("cpuWithChildren", () => {
  it("counts an ended child's CPU", () => {
    const before = cpuWithChildren();
    const r = spawnSync(process.execPath, ["-e", SPIN]);
    expect(r.status).toBe(0);
    // Clock ticks of 10 ms: at least 0.3 s less a tick.
    expect(cpuWithChildren() - before).toBeGreaterThanOrEqual(0.29);
  });
});
