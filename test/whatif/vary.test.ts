// `--vary` goes through the loader: every value is validated as the file's own would be, and a bad
// one is refused with the loader's message naming the option.

import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.ts";
import { applyVariation, parseVary, scalarValue, VaryError, varyPatches } from "../../src/whatif/index.ts";
import { errorLine, withTraffic } from "./helpers.ts";

describe("--vary values are checked by load/", () => {
  const cases: [string, string][] = [
    [
      "controlPlane.nodeMonitorPeriod=-1s",
      '--vary controlPlane.nodeMonitorPeriod=-1s: "-1s" is negative: must be at least 1ms',
    ],
    [
      "network.loadBalancer.healthCheckInterval=0",
      "--vary network.loadBalancer.healthCheckInterval=0: 0 is too short: must be at least 1ms",
    ],
    ["traffic.rate=1e9", "--vary traffic.rate=1e9: 1000000000 is too large: must be at most 100000"],
    [
      "traffic.poolSize=100000000",
      "--vary traffic.poolSize=100000000: 100000000 is too large: must be at most 1000",
    ],
    ["traffic.timeout=-5s", '--vary traffic.timeout=-5s: "-5s" is negative: must be at least 1ms'],
    ["controlPlane.bogusField=5", '--vary controlPlane.bogusField=5: unknown field "bogusField"'],
    [
      "controlPlane.nodeMonitorGracePeriod=50 s",
      '--vary controlPlane.nodeMonitorGracePeriod=50 s: "50 s" is not a duration (use Go-style like 10s, 1m30s, 500ms, or seconds as a number)',
    ],
    [
      "externalTrafficPolicy=local",
      '--vary externalTrafficPolicy=local: "local" is not one of "Cluster", "Local"; did you mean "Local"?',
    ],
    ["traffic.clients=0", "--vary traffic.clients=0: 0 is too small: must be at least 1"],
    [
      "traffic.outlierDetection=true",
      "--vary traffic.outlierDetection=true: outlier detection runs in the caller's proxy, which picks endpoints itself: use it with entry: cluster-ip",
    ],
    [
      "profile=doks-measure",
      '--vary profile=doks-measure: "doks-measure" is not one of "stock", "doks-measured", "eks", "gke", "aks", "doks"; did you mean "doks-measured"?',
    ],
    ["seed=-1", "--vary seed=-1: -1 is too small: must be at least 0"],
    [
      "kubelet.nodeLeaseDurationSeconds=0.5",
      "--vary kubelet.nodeLeaseDurationSeconds=0.5: 0.5 is not an integer",
    ],
    ["controlPlane=5", "--vary controlPlane=5: 5 is not a mapping"],
    [
      "controlPlane.nodeMonitorPeriod.x=1",
      "--vary controlPlane.nodeMonitorPeriod.x=1: controlPlane.nodeMonitorPeriod: a mapping is not a duration (use Go-style like 10s, 1m30s, 500ms, or seconds as a number)",
    ],
    [
      "traffic[0].timeout.x=1",
      '--vary traffic[0].timeout.x=1: traffic[0].timeout is the value "10s", not a mapping or list',
    ],
  ];
  it.each(cases)("%s", (vary, line) => {
    const s = withTraffic();
    const { key, values } = parseVary(vary);
    expect(errorLine(() => applyVariation(s, key, values[0]!))).toBe(line);
  });

  it("a scenario without callers refuses traffic.<field>, naming the option", () => {
    const s = withTraffic().origin!.source;
    const bare = withTraffic();
    bare.traffic = undefined;
    expect(errorLine(() => varyPatches(bare, "traffic.timeout", "5s"))).toBe(
      "--vary traffic.timeout=5s: the scenario has no traffic section",
    );
    expect(s.file).toBe("scenario.yaml");
  });

  it("an error the variant causes elsewhere keeps its position and names the option", () => {
    const s = withTraffic("kubelet: {crashLoopBackOff: {maxContainerRestartPeriod: 30s}}\n", "1.35");
    expect(errorLine(() => applyVariation(s, "kubernetesVersion", "1.31"))).toBe(
      "scenario.yaml:10:29: kubelet.crashLoopBackOff: crashLoopBackOff.maxContainerRestartPeriod needs the KubeletCrashLoopBackOffMax feature gate (alpha in 1.32, on by default from 1.35): set featureGates: {KubeletCrashLoopBackOffMax: true} (with --vary kubernetesVersion=1.31)",
    );
  });
});

describe("--vary values that are valid", () => {
  it("are read as the file reads them: units, numbers, quoted versions", () => {
    const s = withTraffic();
    expect(
      applyVariation(s, "controlPlane.nodeMonitorGracePeriod", "20s").controlPlane.nodeMonitorGracePeriod,
    ).toBe(20);
    expect(
      applyVariation(s, "controlPlane.nodeMonitorGracePeriod", "1m").controlPlane.nodeMonitorGracePeriod,
    ).toBe(60);
    expect(applyVariation(s, "kubernetesVersion", "1.30").kubernetesVersion).toBe("1.30");
    expect(applyVariation(s, "traffic.timeout", "2").traffic?.map((t) => t.timeout)).toEqual([2, 2]);
    expect(applyVariation(s, "network.kubeProxy.syncPeriod", "10s").network?.kubeProxy?.syncPeriod).toBe(10);
  });

  it("externalTrafficPolicy sets the callers' Services only (every Service when there are none)", () => {
    const v = applyVariation(withTraffic(), "externalTrafficPolicy", "Local");
    const policy = (name: string) =>
      v.manifests.find((m) => m.object.kind === "Service" && m.object.metadata.name === name)?.object;
    expect(policy("web")).toMatchObject({ spec: { externalTrafficPolicy: "Local" } });
    expect(policy("other")).not.toMatchObject({ spec: { externalTrafficPolicy: "Local" } });
  });

  it("traffic.outlierDetection=true on cluster-ip callers gives Envoy's defaults through the loader", () => {
    const s = withTraffic();
    const v = applyVariation(s, "traffic[1].outlierDetection", "{}");
    expect(v.traffic?.[1]?.outlierDetection).toEqual({
      consecutive5xx: 5,
      interval: 10,
      baseEjectionTime: 30,
      maxEjectionTime: 300,
      maxEjectionPercent: 10,
    });
  });

  it("keep the rest of the scenario as the file has it, positions included", () => {
    const s = withTraffic();
    const v = applyVariation(s, "controlPlane.nodeMonitorGracePeriod", "20s");
    expect(v.timeline).toEqual(s.timeline);
    expect(v.traffic?.map((t) => t.pos)).toEqual(s.traffic?.map((t) => t.pos));
    expect(v.origin?.patches).toHaveLength(1);
    // A variant of a variant keeps the first patch.
    const vv = applyVariation(v, "seed", "7");
    expect([vv.seed, vv.controlPlane.nodeMonitorGracePeriod]).toEqual([7, 20]);
  });

  it("scalars are typed as YAML types them", () => {
    expect([
      scalarValue("25s"),
      scalarValue("25"),
      scalarValue("1e9"),
      scalarValue("true"),
      scalarValue("on"),
    ]).toEqual(["25s", 25, 1e9, true, "on"]);
  });
});

describe("parseVary", () => {
  it.each([
    ["nothing", '--vary: "nothing" is not KEY=V1,V2 (e.g. externalTrafficPolicy=Local,Cluster)'],
    ["a=1,,2", '--vary: "a=1,,2" has an empty value'],
    ["a..b=1", '--vary: "a..b" is not a field path (an empty field name at 2)'],
  ])("%s is a usage error", (text, message) => {
    expect(() => parseVary(text)).toThrow(new VaryError(message));
  });
});

describe("faultline simulate --vary", () => {
  it("exits 2 with the loader's one line for a bad value, before running any variant", async () => {
    let out = "";
    let err = "";
    const code = await main(
      ["simulate", "examples/traffic-doks-power-off.yaml", "--vary", "controlPlane.nodeMonitorPeriod=1s,-1s"],
      { out: (t) => (out += t), err: (t) => (err += t) },
    );
    expect({ code, out, err }).toEqual({
      code: 2,
      out: "",
      err: '--vary controlPlane.nodeMonitorPeriod=-1s: "-1s" is negative: must be at least 1ms\n',
    });
  });
});
