// The page's what-if: starts from the values the run used and re-validates like the CLI.

import { describe, expect, it } from "vitest";
import { applyVariation, applyWhatIf, currentSettings, whatIfPatches } from "../../src/whatif/index.ts";
import { example } from "../helpers/sim.ts";
import { errorLine, withTraffic } from "./helpers.ts";

describe("what-if panel", () => {
  it("starts from the profile's grace period (doks-measured: 2.5s, not the version's 50s)", () => {
    expect(currentSettings(example("traffic-doks-power-off.yaml"))).toMatchObject({
      nodeMonitorGracePeriod: 2.5,
      callerTimeout: 10,
      externalTrafficPolicy: "Cluster",
    });
  });

  it("gives the same scenario as the CLI's --vary for the same change", () => {
    const s = example("traffic-doks-power-off.yaml");
    const page = applyWhatIf(s, { nodeMonitorGracePeriod: 20 });
    const cli = applyVariation(s, "controlPlane.nodeMonitorGracePeriod", "20");
    const { origin: _a, ...p } = page;
    const { origin: _b, ...c } = cli;
    expect(p).toEqual(c);
  });

  it("refuses what the file could not hold, naming the field", () => {
    const s = withTraffic();
    expect(errorLine(() => applyWhatIf(s, { callerTimeout: -1 }))).toBe(
      "what-if caller timeout=-1: -1 is negative: must be at least 1ms",
    );
  });

  it("probe fields become patches of the workload's container", () => {
    const s = withTraffic();
    expect(
      whatIfPatches(s, {
        probes: [{ workload: "Deployment/web", container: "web", probe: "liveness", periodSeconds: 7 }],
      }),
    ).toEqual([
      {
        object: "Deployment/default/web",
        path: "spec.template.spec.containers[name=web].livenessProbe.periodSeconds",
        value: 7,
        label: "what-if Deployment/web web liveness periodSeconds=7",
      },
    ]);
  });
});
