// Scenario settings: names as Kubernetes spells them, and the old spellings refused with a suggestion.

import { describe, expect, it } from "vitest";
import { type ExactCase, expectExact } from "./exact.ts";
import { load } from "./helpers.ts";

const NODES = "nodes: [{name: worker-1, zone: a}]\n";

describe("controlPlane.terminatedPodGCThreshold", () => {
  it("is KubeControllerManagerConfiguration's spelling", () => {
    const s = load(`duration: 1m\n${NODES}controlPlane: {terminatedPodGCThreshold: 100}\n`);
    expect(s.controlPlane.terminatedPodGCThreshold).toBe(100);
  });

  const cases: ExactCase[] = [
    {
      name: "the old spelling is an error naming the new one",
      scenario: `duration: 1m\n${NODES}controlPlane:\n  terminatedPodGcThreshold: 100\n`,
      message:
        'scenario.yaml:4:3: controlPlane.terminatedPodGcThreshold: unknown field "terminatedPodGcThreshold" (did you mean "terminatedPodGCThreshold"?)',
    },
  ];
  it.each(cases)("$name", expectExact);
});
