// `faultline simulate`: JSON and text output, --seed, and a one-line error for a bad file.

import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.ts";

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (s) => out.push(s), err: (s) => err.push(s) });
  return { code, out: out.join(""), err: err.join("") };
}

describe("faultline simulate", () => {
  it("--json prints one JSON object with formatVersion, faultlineVersion, scenario, kubernetesVersion, seed, ignored, initial, events, leaseRenewals, summary", async () => {
    const { code, out, err } = await cli(["simulate", "examples/node-power-loss.yaml", "--json"]);
    expect(code).toBe(0);
    expect(err).toBe("");
    const result = JSON.parse(out);
    expect(Object.keys(result).sort()).toEqual([
      "events",
      "faultlineVersion",
      "formatVersion",
      "ignored",
      "initial",
      "kubernetesVersion",
      "leaseRenewals",
      "scenario",
      "seed",
      "summary",
    ]);
    expect(result).toMatchObject({ scenario: "node-power-loss", kubernetesVersion: "1.32", seed: 1 });
    expect(
      result.events.some(
        (e: { type: string; object: string }) => e.type === "NodeNotReady" && e.object === "Node/worker-2",
      ),
    ).toBe(true);
  });

  it("--seed 7 overrides the scenario's seed", async () => {
    const { code, out } = await cli(["simulate", "examples/node-power-loss.yaml", "--json", "--seed", "7"]);
    expect(code).toBe(0);
    expect(JSON.parse(out).seed).toBe(7);
  });

  it("the text timeline names the flag and the kubectl command", async () => {
    const { code, out } = await cli(["simulate", "examples/node-power-loss.yaml"]);
    expect(code).toBe(0);
    expect(out).toContain("node-monitor-grace-period=50s");
    expect(out).toContain("kubectl get node worker-2");
  });

  it("a missing file: exit 2 and one line on stderr, no stack trace", async () => {
    const { code, out, err } = await cli(["simulate", "examples/does-not-exist.yaml"]);
    expect(code).toBe(2);
    expect(out).toBe("");
    expect(err.trim().split("\n")).toHaveLength(1);
    expect(err).toContain("does-not-exist.yaml");
    expect(err).not.toMatch(/^\s*at /m);
  });
});
