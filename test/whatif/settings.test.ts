// resolvedSettings: what a run actually uses, and where each value comes from.

import { describe, expect, it } from "vitest";
import { simulate } from "../../src/run/simulate.ts";
import { resolvedSettings } from "../../src/whatif/index.ts";
import { example } from "../helpers/sim.ts";
import { withTraffic } from "./helpers.ts";

describe("resolvedSettings", () => {
  it("the profile's values, not the version's defaults (doks-measured: 2.5s grace period)", () => {
    const r = resolvedSettings(example("traffic-doks-power-off.yaml"));
    expect(r.profile).toBe("doks-measured");
    expect(r.controlPlane.nodeMonitorGracePeriod).toBe(2.5);
    expect(r.origins["controlPlane.nodeMonitorGracePeriod"]).toBe("profile");
    expect(r.kubelet.nodeLeaseDurationSeconds).toBe(1);
    expect(r.origins["controlPlane.nodeEvictionRate"]).toBe("default");
    expect(r.network.nodeLossEndpointDelay).toBe(10);
    expect(r.origins["network.nodeLossEndpointDelay"]).toBe("profile");
    expect(r.origins["network.loadBalancer.healthCheckInterval"]).toBe("profile");
  });

  it("the version's defaults and the scenario's overrides", () => {
    expect(resolvedSettings(example("node-power-loss-1.31.yaml")).controlPlane.nodeMonitorGracePeriod).toBe(
      40,
    );
    const r = resolvedSettings(withTraffic("controlPlane: {nodeMonitorGracePeriod: 30s}\n"));
    expect(r.controlPlane.nodeMonitorGracePeriod).toBe(30);
    expect(r.origins["controlPlane.nodeMonitorGracePeriod"]).toBe("scenario");
    expect(r.origins["network.kubeProxy.syncPeriod"]).toBe("default");
  });

  it("Services and probes with the API's defaults, each with what a patch needs to change it", () => {
    const r = resolvedSettings(withTraffic());
    expect(r.services).toEqual([
      {
        service: "default/web",
        type: "LoadBalancer",
        externalTrafficPolicy: "Cluster",
        internalTrafficPolicy: "Cluster",
      },
      {
        service: "default/other",
        type: "ClusterIP",
        externalTrafficPolicy: "Cluster",
        internalTrafficPolicy: "Cluster",
      },
    ]);
    expect(r.probes).toEqual([
      {
        object: "Deployment/default/web",
        container: "web",
        probe: "liveness",
        path: "spec.template.spec.containers[name=web].livenessProbe",
        initialDelaySeconds: 0,
        periodSeconds: 5,
        timeoutSeconds: 1,
        successThreshold: 1,
        failureThreshold: 3,
      },
    ]);
  });

  it("are the values the run reports for every example", () => {
    for (const name of ["node-power-loss.yaml", "traffic-doks-power-off.yaml", "zone-outage.yaml"]) {
      const s = example(name);
      const r = resolvedSettings(s);
      const run = simulate(s).summary.settings;
      expect(run).toMatchObject({
        nodeMonitorPeriod: r.controlPlane.nodeMonitorPeriod,
        nodeMonitorGracePeriod: r.controlPlane.nodeMonitorGracePeriod,
        defaultUnreachableTolerationSeconds: r.controlPlane.defaultUnreachableTolerationSeconds,
        nodeLeaseDurationSeconds: r.kubelet.nodeLeaseDurationSeconds,
      });
    }
  });
});
