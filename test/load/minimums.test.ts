// Periods and timeouts have physical minimums: Kubernetes' own where it has one, else 1 ms
//. Each bad value gets its exact one-line message.

import { describe, expect, it } from "vitest";
import type { Deployment } from "../../src/kubernetes/objects.ts";
import { type ExactCase, expectExact } from "./exact.ts";
import { load } from "./helpers.ts";

const NODES = "nodes: [{name: worker-1}]\n";
const SVC = "apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec: {selector: {app: web}}\n";
const withSvc = (extra: string) => `duration: 15m\n${NODES}manifests: [web.yaml]\n${extra}`;

const cases: ExactCase[] = [
  {
    name: "duration below 1ms",
    scenario: `duration: 1us\n${NODES}`,
    message: 'scenario.yaml:1:11: duration: "1us" is too short: must be at least 1ms',
  },
  {
    name: "duration 0",
    scenario: `duration: 0\n${NODES}`,
    message: "scenario.yaml:1:11: duration: 0 is too short: must be at least 1ms",
  },
  ...["nodeMonitorPeriod", "nodeMonitorGracePeriod", "nodeStartupGracePeriod"].map(
    (f): ExactCase => ({
      name: `controlPlane.${f} below 1ms`,
      scenario: `duration: 15m\n${NODES}controlPlane:\n  ${f}: 999us\n`,
      message: `scenario.yaml:4:${f.length + 5}: controlPlane.${f}: "999us" is too short: must be at least 1ms`,
    }),
  ),
  {
    name: "a negative period",
    scenario: `duration: 15m\n${NODES}controlPlane: {nodeMonitorPeriod: -1s}\n`,
    message: 'scenario.yaml:3:35: controlPlane.nodeMonitorPeriod: "-1s" is negative: must be at least 1ms',
  },
  ...["nodeStatusUpdateFrequency", "nodeStatusReportFrequency"].map(
    (f): ExactCase => ({
      name: `kubelet.${f} 1ns`,
      scenario: `duration: 15m\n${NODES}kubelet:\n  ${f}: 1ns\n`,
      message: `scenario.yaml:4:${f.length + 5}: kubelet.${f}: "1ns" is too short: must be at least 1ms`,
    }),
  ),
  {
    name: "kubelet.nodeLeaseDurationSeconds 0 (ValidateKubeletConfiguration: must be greater than 0)",
    scenario: `duration: 15m\n${NODES}kubelet: {nodeLeaseDurationSeconds: 0}\n`,
    message: "scenario.yaml:3:37: kubelet.nodeLeaseDurationSeconds: 0 is too small: must be at least 1",
  },
  {
    name: "load balancer health check interval 1us",
    scenario: `duration: 15m\n${NODES}network: {loadBalancer: {healthCheckInterval: 1us}}\n`,
    message:
      'scenario.yaml:3:47: network.loadBalancer.healthCheckInterval: "1us" is too short: must be at least 1ms',
  },
  {
    name: "load balancer health check timeout 0",
    scenario: `duration: 15m\n${NODES}network: {loadBalancer: {healthCheckTimeout: 0}}\n`,
    message:
      "scenario.yaml:3:46: network.loadBalancer.healthCheckTimeout: 0 is too short: must be at least 1ms",
  },
  {
    name: "kube-proxy syncPeriod 0 (must be greater than 0)",
    scenario: `duration: 15m\n${NODES}network: {kubeProxy: {syncPeriod: 0}}\n`,
    message: "scenario.yaml:3:35: network.kubeProxy.syncPeriod: 0 is too short: must be at least 1ms",
  },
  {
    name: "kube-proxy minSyncPeriod negative",
    scenario: `duration: 15m\n${NODES}network: {kubeProxy: {minSyncPeriod: -1s}}\n`,
    message: 'scenario.yaml:3:38: network.kubeProxy.minSyncPeriod: "-1s" is negative: must be at least 0s',
  },
  {
    name: "kube-proxy syncPeriod below the profile's minSyncPeriod",
    scenario: `duration: 15m\n${NODES}network: {kubeProxy: {syncPeriod: 500ms}}\n`,
    message:
      "scenario.yaml:3:35: network.kubeProxy.syncPeriod: syncPeriod 500ms must be greater than or equal to minSyncPeriod 1s",
  },
  {
    name: "a caller timeout of 1us",
    scenario: withSvc("traffic: [{service: web, rate: 1, timeout: 1us}]\n"),
    files: { "web.yaml": SVC },
    message: 'scenario.yaml:4:44: traffic[0].timeout: "1us" is too short: must be at least 1ms',
  },
  {
    name: "an outlier-detection base ejection time of 0",
    scenario: withSvc(
      "traffic: [{service: web, rate: 1, entry: cluster-ip, outlierDetection: {baseEjectionTime: 0}}]\n",
    ),
    files: { "web.yaml": SVC },
    message:
      "scenario.yaml:4:91: traffic[0].outlierDetection.baseEjectionTime: 0 is too short: must be at least 1ms",
  },
  {
    name: "an outlier-detection interval of 100us",
    scenario: withSvc(
      "traffic: [{service: web, rate: 1, entry: cluster-ip, outlierDetection: {interval: 100us}}]\n",
    ),
    files: { "web.yaml": SVC },
    message:
      'scenario.yaml:4:83: traffic[0].outlierDetection.interval: "100us" is too short: must be at least 1ms',
  },
];

describe("physical minimums", () => {
  it.each(cases)("$name", expectExact);

  it("0 is allowed where it means no delay, and kube-proxy's minSyncPeriod may be 0", () => {
    const s = load(
      `duration: 15m\n${NODES}network: {endpointPropagationSeconds: 0, nodeLossEndpointDelay: 0, kubeProxy: {minSyncPeriod: 0}}\n`,
    );
    expect(s.network).toEqual({
      endpointPropagationSeconds: 0,
      nodeLossEndpointDelay: 0,
      kubeProxy: { minSyncPeriod: 0 },
    });
  });

  it("a probe's 0 is the API's default, as SetDefaults_Probe makes it (the effective minimum is 1)", () => {
    const web = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
        - name: web
          livenessProbe: {tcpSocket: {port: 80}, initialDelaySeconds: 0, periodSeconds: 0, timeoutSeconds: 0, successThreshold: 0, failureThreshold: 0}
`;
    const s = load(`duration: 15m\n${NODES}manifests: [web.yaml]\n`, { "web.yaml": web });
    const probe = (s.manifests[0]!.object as Deployment).spec.template.spec.containers[0]!.livenessProbe;
    // Unset fields take PROBE_DEFAULTS in the models: period 10, timeout 1, thresholds 1 and 3.
    expect(probe).toEqual({ tcpSocket: { port: 80 }, initialDelaySeconds: 0 });
  });
});
