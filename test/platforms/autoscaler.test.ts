// The scenario's `autoscaler:` (Cluster Autoscaler, Karpenter): "no room for the replacement" becomes
// "room after N s, when the new node is Ready". Written from kubernetes/autoscaler
// cluster-autoscaler/FAQ.md (--scan-interval 10s, --max-node-provision-time 15m) and Karpenter's
// settings (BATCH_IDLE_DURATION 1s); bad input is one located error.

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { LoadError } from "../../src/load/index.ts";
import type { SimulationResult } from "../../src/run/simulate.ts";
import { eventsOf, example, only, run, scenario } from "../helpers/sim.ts";

const FILE = "examples/platforms/autoscaler.yaml";
// biome-ignore lint/suspicious/noExplicitAny: a parsed YAML document, edited freely by tests
type Doc = Record<string, any>;
const edited = (edit: (d: Doc) => void) => {
  const doc = parse(readFileSync(FILE, "utf8")) as Doc;
  edit(doc);
  return scenario(stringify(doc), FILE);
};
const pending = (r: SimulationResult) =>
  r.summary.pods.filter((p) => p.pod.startsWith("default/web-") && p.status === "Pending");

describe("examples/platforms/autoscaler.yaml", () => {
  const withCA = run(example("platforms/autoscaler.yaml"));
  const without = run(edited((d) => delete d.autoscaler));

  it("without an autoscaler the two replacements stay Pending: no room on worker-1", () => {
    expect(pending(without)).toHaveLength(2);
    expect(eventsOf(without, "NodeScaleUp")).toEqual([]);
  });

  it("Cluster Autoscaler scales pool-a up at its first 10s scan after the pods are unschedulable", () => {
    const failed = eventsOf(withCA, "FailedScheduling");
    expect(failed.length).toBeGreaterThan(0);
    const up = only(withCA, "NodeScaleUp");
    expect(up).toMatchObject({
      by: "cluster-autoscaler",
      group: "pool-a",
      from: 1,
      to: 2,
      max: 3,
      scanInterval: 10,
    });
    expect(up.pods).toHaveLength(2);
    expect(up.t - failed[0]!.t).toBeGreaterThanOrEqual(0);
    expect(up.t - failed[0]!.t).toBeLessThanOrEqual(10);
  });

  // GKE's boot to Ready, 180s (the lower end of cluster-autoscaler/FAQ.md's "3 to 4 minutes" on
  // GCE), since the example no longer sets bootSeconds (it set faultline's 90s estimate before).
  it("the new node is Ready the profile's bootToReady (GKE: 180s) later and takes both pods: all four Running and Ready", () => {
    const up = only(withCA, "NodeScaleUp");
    const ready = only(withCA, "ScaledNodeReady");
    expect(ready.t - up.t).toBeCloseTo(180, 3);
    expect(pending(withCA)).toEqual([]);
    const web = withCA.summary.pods.filter((p) => p.pod.startsWith("default/web-") && p.status === "Running");
    expect(web).toHaveLength(4);
    expect(web.filter((p) => p.node === up.newNode)).toHaveLength(2);
  });

  it("Karpenter reacts after its 1s batch window instead of a 10s scan", () => {
    const r = run(edited((d) => (d.autoscaler.kind = "karpenter")));
    const up = only(r, "NodeScaleUp");
    expect(up).toMatchObject({ by: "karpenter", scanInterval: 1 });
    expect(up.t - eventsOf(r, "FailedScheduling")[0]!.t).toBeLessThanOrEqual(1);
  });

  it("autoscaler.bootSeconds overrides the profile's figure", () => {
    const r = run(edited((d) => Object.assign(d.autoscaler, { bootSeconds: "45s" })));
    expect(only(r, "ScaledNodeReady").t - only(r, "NodeScaleUp").t).toBeCloseTo(45, 3);
    expect(pending(r)).toEqual([]);
  });

  it("a boot longer than --max-node-provision-time brings no node", () => {
    const r = run(
      edited((d) => Object.assign(d.autoscaler, { bootSeconds: "16m", maxNodeProvisionTime: "15m" })),
    );
    expect(eventsOf(r, "ScaledNodeReady")).toEqual([]);
    expect(pending(r)).toHaveLength(2);
  });

  it("a template the pods do not fit (a zone their volumes cannot reach, a selector) is not scaled", () => {
    const r = run(
      edited((d) => {
        d.manifests[0].spec.template.spec.nodeSelector = { "topology.kubernetes.io/zone": "a" };
        d.nodes.push({
          name: "worker-3",
          zone: "b",
          capacity: { cpu: 8, memory: "8Gi", pods: 110 },
          taints: [],
        });
        d.autoscaler.nodeGroups = [{ name: "pool-b", like: "worker-3" }];
      }),
    );
    expect(eventsOf(r, "NodeScaleUp")).toEqual([]);
  });
});

describe("autoscaler: bad input, one located message each", () => {
  const err = (edit: (d: Doc) => void) => {
    try {
      edited(edit);
    } catch (e) {
      expect(e).toBeInstanceOf(LoadError);
      return (e as LoadError).message;
    }
    throw new Error("loaded");
  };
  it.each([
    ["an unknown field", (d: Doc) => (d.autoscaler.scanIntervall = "10s"), /scanIntervall/],
    ["an unknown kind", (d: Doc) => (d.autoscaler.kind = "keda"), /cluster-autoscaler.*karpenter/],
    [
      "a template node that does not exist",
      (d: Doc) => (d.autoscaler.nodeGroups[0].like = "worker-9"),
      /no node named "worker-9"/,
    ],
    ["a group without like", (d: Doc) => delete d.autoscaler.nodeGroups[0].like, /like: <node>/],
    ["no node groups", (d: Doc) => (d.autoscaler.nodeGroups = []), /at least one node group/],
    [
      "a group twice",
      (d: Doc) => d.autoscaler.nodeGroups.push({ name: "pool-a", like: "worker-2" }),
      /listed twice/,
    ],
    ["a bad duration", (d: Doc) => (d.autoscaler.bootSeconds = "soon"), /bootSeconds|duration/],
    [
      "no nodeGroups and no node-group labels",
      (d: Doc) => delete d.autoscaler.nodeGroups,
      /needs nodeGroups/,
    ],
  ])("%s", (_what, edit, message) => {
    expect(err(edit)).toMatch(message);
  });
});
