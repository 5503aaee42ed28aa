// The kubelet's graceful node shutdown settings in a scenario's `kubelet:` section, checked as
// pkg/kubelet/apis/config/validation/validation.go checks KubeletConfiguration, plus the
// configuration the kubelet would accept and silently turn into no graceful shutdown
// (nodeshutdown_manager_linux.go migrateConfig: more for critical pods than in all).

import { describe, expect, it } from "vitest";
import { resolveKubelet } from "../../src/kubernetes/defaults.ts";
import { scenario } from "../helpers/sim.ts";
import { type BadCase, expectLoadError } from "./helpers.ts";

const NODES = "nodes: [{name: worker-1, zone: a}]\n";

describe("kubelet shutdown settings", () => {
  it("default: 0s and no groups (defaults.go sets none: the shutdown is immediate)", () => {
    const k = resolveKubelet("1.33", {});
    expect(k).toMatchObject({ shutdownGracePeriod: 0, shutdownGracePeriodCriticalPods: 0 });
    expect(k.shutdownGracePeriodByPodPriority).toEqual([]);
  });

  it("reads durations and the priority list", () => {
    const s = scenario(
      `duration: 1m\n${NODES}kubelet:\n  shutdownGracePeriod: 1m\n  shutdownGracePeriodCriticalPods: 20s\n`,
    );
    expect(s.kubelet).toMatchObject({ shutdownGracePeriod: 60, shutdownGracePeriodCriticalPods: 20 });
    const t = scenario(
      `duration: 1m\n${NODES}kubelet:\n  shutdownGracePeriodByPodPriority:\n    - {priority: 100000, shutdownGracePeriodSeconds: 10}\n    - {priority: 0, shutdownGracePeriodSeconds: 60}\n`,
    );
    expect(t.kubelet.shutdownGracePeriodByPodPriority).toEqual([
      { priority: 100000, shutdownGracePeriodSeconds: 10 },
      { priority: 0, shutdownGracePeriodSeconds: 60 },
    ]);
  });

  const cases: BadCase[] = [
    {
      name: "both the priority list and shutdownGracePeriod",
      scenario: `duration: 1m\n${NODES}kubelet:\n  shutdownGracePeriod: 30s\n  shutdownGracePeriodByPodPriority:\n    »- {priority: 0, shutdownGracePeriodSeconds: 10}\n`,
      code: "invalid-value",
      path: "kubelet.shutdownGracePeriodByPodPriority",
      message:
        "Cannot specify both shutdownGracePeriodByPodPriority and shutdownGracePeriod at the same time",
    },
    {
      name: "more for critical pods than in all",
      scenario: `duration: 1m\n${NODES}kubelet:\n  shutdownGracePeriod: 10s\n  shutdownGracePeriodCriticalPods: »20s\n`,
      code: "invalid-value",
      path: "kubelet.shutdownGracePeriodCriticalPods",
      message: "turn graceful node shutdown off",
    },
    {
      name: "less than a second",
      scenario: `duration: 1m\n${NODES}kubelet:\n  shutdownGracePeriod: »500ms\n`,
      code: "invalid-duration",
      path: "kubelet.shutdownGracePeriod",
      message: "must be either zero or otherwise >= 1 sec",
    },
    {
      name: "a group without its priority",
      scenario: `duration: 1m\n${NODES}kubelet:\n  shutdownGracePeriodByPodPriority:\n    - »{shutdownGracePeriodSeconds: 10}\n`,
      code: "missing-field",
      path: "kubelet.shutdownGracePeriodByPodPriority[0]",
      message: 'missing required field "priority"',
    },
    {
      name: "a misspelt field of a group",
      scenario: `duration: 1m\n${NODES}kubelet:\n  shutdownGracePeriodByPodPriority:\n    - {priority: 0, »shutdownGracePeriod: 10}\n`,
      code: "unknown-field",
      path: "kubelet.shutdownGracePeriodByPodPriority[0].shutdownGracePeriod",
      message: "shutdownGracePeriodSeconds",
    },
  ];
  it.each(cases.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    expectLoadError(c);
  });
});
