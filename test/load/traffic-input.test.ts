// Bad `traffic`, `network` and `profile` sections: one LoadError at the right place.

import { describe, expect, it } from "vitest";
import { type BadCase, expectLoadError, load } from "./helpers.ts";

const WEB = `apiVersion: v1
kind: Service
metadata: {name: web}
spec: {selector: {app: web}}
`;
const base = (extra: string) => `duration: 5m\nnodes: [{name: worker-1}]\nmanifests: [web.yaml]\n${extra}`;
const files = { "web.yaml": WEB };

const cases: BadCase[] = [
  {
    name: "traffic is not a list",
    scenario: base("traffic: »{service: default/web}\n"),
    files,
    code: "invalid-type",
    path: "traffic",
    message: "is not a list of callers",
  },
  {
    name: "an unknown Service",
    scenario: base("traffic:\n  - {service: »default/wbe, rate: 10}\n"),
    files,
    code: "invalid-value",
    path: "traffic[0].service",
    message: 'no Service "default/wbe" in the manifests (did you mean "default/web"?)',
  },
  {
    name: "a missing rate",
    scenario: base("traffic:\n  - »{service: default/web}\n"),
    files,
    code: "missing-field",
    path: "traffic[0].rate",
    message: 'missing required field "rate"',
  },
  {
    name: "a zero rate",
    scenario: base("traffic:\n  - {service: default/web, rate: »0}\n"),
    files,
    code: "invalid-value",
    path: "traffic[0].rate",
    message: "must be more than 0",
  },
  {
    name: "an unknown traffic field",
    scenario: base("traffic:\n  - {service: default/web, rate: 1, »rps: 3}\n"),
    files,
    code: "unknown-field",
    path: "traffic[0].rps",
    message: "rps",
  },
  {
    name: "a timeout that is not a duration",
    scenario: base("traffic:\n  - {service: default/web, rate: 1, timeout: »30 sec}\n"),
    files,
    code: "invalid-duration",
    path: "traffic[0].timeout",
    message: "is not a duration",
  },
  {
    name: "an unknown entry",
    scenario: base("traffic:\n  - {service: default/web, rate: 1, entry: »ingress}\n"),
    files,
    code: "invalid-value",
    path: "traffic[0].entry",
    message: "ingress",
  },
  {
    name: "outlier detection through a load balancer",
    // a LoadBalancer Service's callers come in through its balancer unless they say otherwise
    scenario: base("traffic:\n  - {service: default/web, rate: 1, »outlierDetection: {}}\n"),
    files: { "web.yaml": WEB.replace("spec: {", "spec: {type: LoadBalancer, ") },
    code: "invalid-value",
    path: "traffic[0].outlierDetection",
    message: "use it with entry: cluster-ip",
  },
  {
    name: "an unknown outlier-detection field",
    scenario: base(
      "traffic:\n  - {service: default/web, rate: 1, entry: cluster-ip, outlierDetection: {»consecutiveErrors: 3}}\n",
    ),
    files,
    code: "unknown-field",
    path: "traffic[0].outlierDetection.consecutiveErrors",
    message: "consecutiveErrors",
  },
  {
    name: "a negative pool",
    scenario: base("traffic:\n  - {service: default/web, rate: 1, poolSize: »0}\n"),
    files,
    code: "invalid-value",
    path: "traffic[0].poolSize",
    message: "",
  },
  {
    name: "an unknown profile",
    // doks is a profile since the platform profiles (docs/platforms.md): openshift is not.
    scenario: base("profile: »openshift\n"),
    files,
    code: "invalid-value",
    path: "profile",
    message: "openshift",
  },
  {
    name: "an unknown network field",
    scenario: base("network: {»kubeproxy: {}}\n"),
    files,
    code: "unknown-field",
    path: "network.kubeproxy",
    message: "kubeproxy",
  },
  {
    name: "a zero health-check threshold",
    scenario: base("network: {loadBalancer: {unhealthyThreshold: »0}}\n"),
    files,
    code: "invalid-value",
    path: "network.loadBalancer.unhealthyThreshold",
    message: "",
  },
  {
    name: "a bad kube-proxy period",
    scenario: base("network: {kubeProxy: {syncPeriod: »0s}}\n"),
    files,
    code: "invalid-duration",
    path: "network.kubeProxy.syncPeriod",
    message: '"0s" is too short: must be at least 1ms',
  },
];

describe("traffic, network and profile: bad input", () => {
  it.each(cases.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    expectLoadError(c);
  });
});

describe("traffic, network and profile: good input", () => {
  it("fills the issue's defaults and keeps positions", () => {
    const s = load(
      base(
        "profile: doks-measured\nnetwork: {endpointPropagationSeconds: 0.5, kubeProxy: {minSyncPeriod: 1s}}\ntraffic:\n  - {service: web, rate: 175, clients: 20, entry: cluster-ip, outlierDetection: {}}\n",
      ),
      files,
    );
    expect(s.profile).toBe("doks-measured");
    expect(s.network).toEqual({ endpointPropagationSeconds: 0.5, kubeProxy: { minSyncPeriod: 1 } });
    expect(s.traffic![0]).toMatchObject({
      service: "default/web",
      rate: 175,
      clients: 20,
      keepAlive: true,
      // a client opens another connection when all are busy, and keeps each alive
      client: "on-demand",
      poolSize: Number.POSITIVE_INFINITY,
      maxIdle: Number.POSITIVE_INFINITY,
      idleTimeout: Number.POSITIVE_INFINITY,
      multiplexed: false,
      closedLoop: false,
      timeout: 30,
      retries: 0,
      entry: "cluster-ip",
      outlierDetection: { consecutive5xx: 5, interval: 10, baseEjectionTime: 30, maxEjectionPercent: 10 },
      pos: { file: "scenario.yaml", line: 7 },
    });
  });
});
