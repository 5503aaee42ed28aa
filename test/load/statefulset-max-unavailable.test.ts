// StatefulSet updateStrategy.rollingUpdate.maxUnavailable by the patch release (KEP-961,
// MaxUnavailableStatefulSet): on in 1.35.0–1.35.3 (beta), off from 1.35.4 (kubernetes/kubernetes
// #137926) and in 1.36 (#137904), on in 1.37 (#139466); alpha and off before 1.35. Off, the API server
// drops the field (dropStatefulSetDisabledFields); on, it validates it (ValidateStatefulSetUpdateStrategy).

import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { maxUnavailableStatefulSet } from "../../src/kubernetes/defaults.ts";
import { LoadError } from "../../src/load/errors.ts";
import { simulate } from "../../src/run/simulate.ts";
import { dbStatefulSet } from "../helpers/objects.ts";
import { eventsOf, scenario } from "../helpers/sim.ts";

const FIELD = "StatefulSetSpec.updateStrategy.rollingUpdate.maxUnavailable";

function db(version: string, maxUnavailable: number | string = 2) {
  return scenario(
    stringify({
      kubernetesVersion: version,
      duration: "1m",
      nodes: [{ name: "n1" }],
      manifests: [dbStatefulSet(maxUnavailable)],
    }),
  );
}

const kept = (version: string) => {
  const s = db(version);
  const sts = s.manifests.find((m) => m.kind === "StatefulSet")!.object;
  return sts.kind === "StatefulSet" ? sts.spec.updateStrategy?.rollingUpdate?.maxUnavailable : undefined;
};

describe("MaxUnavailableStatefulSet by version", () => {
  it.each([
    ["1.34", false],
    ["1.35", true],
    ["1.35.0", true],
    ["1.35.3", true],
    ["1.35.4", false],
    ["1.35.9", false],
    ["1.36", false],
    ["1.37", true],
  ] as const)("%s: gate %s", (version, on) => {
    const [m, , p] = version.split(".");
    expect(
      maxUnavailableStatefulSet(`1.${m === "1" ? version.split(".")[1] : ""}` as "1.35", p ? Number(p) : 0),
    ).toBe(on);
    expect(kept(version)).toBe(on ? 2 : undefined);
    expect(
      db(version)
        .notModelled.map((n) => n.field)
        .includes(FIELD),
    ).toBe(!on);
  });

  it("the patch release is kept, and the nodes' VERSION column shows it", () => {
    expect(db("1.35.2").kubernetesPatch).toBe(2);
    expect(db("1.35").kubernetesPatch).toBeUndefined();
    const s = db("1.35.4");
    const r = simulate({
      ...s,
      duration: 120,
      timeline: [{ at: 1, do: "power-off", node: "n1", pos: { file: "x", line: 1, col: 1 } }],
    });
    const rows = JSON.stringify(eventsOf(r, "NodeNotReady"));
    expect(rows).toContain("v1.35.4");
    expect(rows).not.toContain("v1.35.0");
  });

  it.each([
    [0, "Invalid value: 0: cannot be 0"],
    ["0%", 'Invalid value: "0%": cannot be 0'],
    ["120%", 'Invalid value: "120%": must not be greater than 100%'],
    ["two", "a valid percent string"],
  ])("gate on (1.35.2): maxUnavailable %s is refused as the API server does", (v, message) => {
    expect(() => db("1.35.2", v)).toThrow(LoadError);
    expect(() => db("1.35.2", v)).toThrow(message);
  });

  it("gate off (1.35.4): the API server drops the field before validating it, so 0 is no error", () => {
    expect(db("1.35.4", 0).notModelled.map((n) => n.field)).toContain(FIELD);
  });
});
