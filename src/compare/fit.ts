// `faultline compare --fit`: the settings a recording implies, each with its uncertainty, written as
// a profile in the shape of doks-measured (src/scenario/profiles.ts).
//
// - nodeMonitorGracePeriod: the node lifecycle controller marks a node Unknown at its first pass
//   (every --node-monitor-period) after probeTimestamp + grace, probeTimestamp being when it saw
//   the last Lease renewal (pkg/controller/nodelifecycle/node_lifecycle_controller.go
//   tryUpdateNodeHealth, Kubernetes 1.32). So NotReady − last renewal lies in [grace, grace +
//   period]; with the recording's resolution r (1s for metav1.Time), grace = delay + r/2 − period/2
//   ± (period + r)/2. The period is not in the API: assumed (--monitor-period, default the flag's
//   5s, pkg/controller/nodelifecycle/config/v1alpha1/defaults.go).
// - defaultUnreachableTolerationSeconds: the taint-eviction-controller deletes a pod at the
//   NoExecute taint's timeAdded + the pod's tolerationSeconds (pkg/controller/tainteviction
//   taint_eviction.go processPodOnNode, getMinTolerationTime); both ends at resolution r: ± r.
// - nodeLeaseDurationSeconds: read, not fitted: the Lease's spec.leaseDurationSeconds (the kubelet
//   renews every quarter of it, nodeLeaseRenewIntervalFraction 0.25, pkg/kubelet/kubelet.go).
// - nodeLossEndpointDelay: endpoints out − NotReady, where the recording times the endpoints (± r).
// - endpointPropagationSeconds: the traffic probe's last failed request − endpoints out (± one
//   client's request period + r), where the recording has a probe.
// - pod start: a replacement's Ready − PodScheduled, reported (it is the app's, not a profile's).

import type { Fault } from "./observe.ts";
import type { Recording } from "./read.ts";
import type { StepTimes } from "./steps.ts";

export interface Estimate {
  setting: string;
  /** where it goes in a profile or scenario: controlPlane.nodeMonitorGracePeriod, … */
  path: string;
  value: number;
  uncertainty: number;
  unit: "s";
  how: string;
}

export interface FitOptions {
  /** the node monitor period assumed, seconds */
  monitorPeriod: number;
  /** the recording's time resolution, seconds (1 for metav1.Time) */
  resolution: number;
}

export const DEFAULT_FIT: FitOptions = { monitorPeriod: 5, resolution: 1 };

const round3 = (x: number) => Math.round(x * 1000) / 1000;

export function fitSettings(
  rec: Recording,
  fault: Fault,
  at: StepTimes,
  o: FitOptions = DEFAULT_FIT,
): Estimate[] {
  const out: Estimate[] = [];
  const r = o.resolution;
  const last = fault.lastRenewal;
  if (at["not-ready"] !== undefined && last !== undefined) {
    const delay = at["not-ready"] - last;
    out.push({
      setting: "node-monitor-grace-period",
      path: "controlPlane.nodeMonitorGracePeriod",
      value: round3(delay + r / 2 - o.monitorPeriod / 2),
      uncertainty: round3((o.monitorPeriod + r) / 2),
      unit: "s",
      how: `NotReady ${delay.toFixed(3)}s after the last Lease renewal, less half a monitor period (${o.monitorPeriod}s assumed)`,
    });
  }
  if (at.evicted !== undefined && at.tainted !== undefined) {
    const d = at.evicted - at.tainted;
    out.push({
      setting: "default-unreachable-toleration-seconds",
      path: "controlPlane.defaultUnreachableTolerationSeconds",
      value: Math.round(d),
      uncertainty: r,
      unit: "s",
      how: `the first eviction ${d.toFixed(3)}s after the unreachable NoExecute taint's timeAdded`,
    });
  }
  const lease = rec.dump.find((x) => x.kind === "Lease" && x.metadata?.name === fault.node);
  const duration = (lease?.spec as { leaseDurationSeconds?: number } | undefined)?.leaseDurationSeconds;
  if (duration !== undefined) {
    out.push({
      setting: "node-lease-duration-seconds",
      path: "kubelet.nodeLeaseDurationSeconds",
      value: duration,
      uncertainty: 0,
      unit: "s",
      how: "read from the node's Lease (spec.leaseDurationSeconds)",
    });
  }
  if (at["endpoints-out"] !== undefined && at["not-ready"] !== undefined) {
    const d = at["endpoints-out"] - at["not-ready"];
    out.push({
      setting: "node-loss endpoint delay",
      path: "network.nodeLossEndpointDelay",
      value: round3(Math.max(0, d)),
      uncertainty: r,
      unit: "s",
      how: `the endpoints out ${d.toFixed(3)}s after NotReady`,
    });
  }
  const probe = rec.header.probe;
  if (probe && at["requests-recovered"] !== undefined && at["endpoints-out"] !== undefined) {
    // The last failed request is within one client's period (clients / rate) of the moment the
    // callers' path stopped sending to the dead endpoints; the probe's clock is the recorder's, the
    // EndpointSlice's the control plane's: both taken to agree (NTP), which the figure assumes.
    const d = at["requests-recovered"] - at["endpoints-out"];
    out.push({
      setting: "endpoint propagation",
      path: "network.endpointPropagationSeconds",
      value: round3(Math.max(0, d)),
      uncertainty: round3(probe.clients / probe.rate + r),
      unit: "s",
      how: `the probe's last failed request ${d.toFixed(3)}s after the endpoints went out (the recorder's and the control plane's clocks taken to agree)`,
    });
  }
  if (at["replacement-ready"] !== undefined && at["replacement-scheduled"] !== undefined) {
    const d = at["replacement-ready"] - at["replacement-scheduled"];
    out.push({
      setting: "pod start (scheduled to Ready)",
      path: "(the app's startup: behaviour, probes)",
      value: round3(d),
      uncertainty: r,
      unit: "s",
      how: "the first replacement's Ready less its PodScheduled transition",
    });
  }
  return out;
}

/** The estimates as a profile file in the shape of doks-measured, each with its uncertainty. */
export function profileYaml(name: string, recording: string, estimates: Estimate[], o: FitOptions): string {
  const section = (s: string) =>
    estimates
      .filter((e) => e.path.startsWith(`${s}.`))
      .map(
        (e) =>
          `  ${e.path.slice(s.length + 1)}: ${e.value}${e.path.endsWith("Seconds") ? "" : "s"}  # ± ${e.uncertainty}s: ${e.how}`,
      );
  const block = (s: string) => {
    const lines = section(s);
    return lines.length > 0 ? [`${s}:`, ...lines] : [`${s}: {}`];
  };
  const others = estimates.filter((e) => !/^(controlPlane|kubelet|network)\./.test(e.path));
  return [
    `# faultline compare --fit ${recording}: the settings this recording implies.`,
    `# Assumed: a node monitor period of ${o.monitorPeriod}s and a time resolution of ${o.resolution}s.`,
    ...others.map((e) => `# ${e.setting}: ${e.value}s ± ${e.uncertainty}s (${e.how})`),
    `name: ${JSON.stringify(name)}`,
    `source: ${JSON.stringify(`faultline compare --fit of ${recording}`)}`,
    ...block("controlPlane"),
    ...block("kubelet"),
    ...block("network"),
    "",
  ].join("\n");
}
