// Seed 002's cascade: four pods of capacity 100, 110, 120 and 130 requests/s share 440/s. With an
// aggressive liveness probe whose health check queues behind requests, an overloaded pod is
// restarted, its load moves to the others, and the fleet never recovers; with liveness checking
// only that the process is alive, the same overload costs a few percent.

import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import type { SimulationResult } from "../../src/run/simulate.ts";
import { run, scenario } from "../helpers/sim.ts";

const CAPACITY = [100, 110, 120, 130];

function cascade(aggressive: boolean): SimulationResult {
  const names = ["a", "b", "c", "d"];
  // The seed's toy checks liveness only on a booted pod ("a restarted Pod is gone for 20 seconds"):
  // initialDelaySeconds covers the 20s boot, and a readiness probe that only checks the port keeps
  // a booting pod out of the endpoints (without one, Kubernetes calls a booting pod ready).
  const liveness = aggressive
    ? {
        httpGet: { path: "/healthz", port: 80 },
        initialDelaySeconds: 20,
        periodSeconds: 2,
        failureThreshold: 1,
        timeoutSeconds: 1,
      }
    : {
        tcpSocket: { port: 80 },
        initialDelaySeconds: 20,
        periodSeconds: 10,
        failureThreshold: 3,
        timeoutSeconds: 1,
      };
  const readiness = { tcpSocket: { port: 80 }, periodSeconds: 2 };
  const manifests: object[] = names.map((n) => ({
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: `web-${n}` },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: "web", part: n } },
      template: {
        metadata: { labels: { app: "web", part: n } },
        spec: {
          containers: [{ name: "web", image: "nginx", livenessProbe: liveness, readinessProbe: readiness }],
        },
      },
    },
  }));
  manifests.push({
    apiVersion: "v1",
    kind: "Service",
    metadata: { name: "web" },
    spec: { selector: { app: "web" }, ports: [{ port: 80 }] },
  });
  const behaviour = Object.fromEntries(
    names.map((n, i) => [
      `web-${n}`,
      { capacityRps: CAPACITY[i], serviceTimeMs: 5, bootSeconds: 20, healthSharesRequestQueue: aggressive },
    ]),
  );
  return run(
    scenario(
      stringify({
        name: "cascade",
        kubernetesVersion: "1.32",
        duration: "5m",
        nodes: { count: 2, zones: ["a", "b"] },
        manifests,
        behaviour,
        traffic: [
          {
            service: "default/web",
            rate: 440,
            clients: 40,
            // the seed's load does not back off: a caller opens another connection when its
            // others are busy (Go's http.Transport: MaxConnsPerHost 0, no limit)
            poolSize: 100,
            keepAlive: false,
            timeout: "2s",
            entry: "cluster-ip",
          },
        ],
      }),
    ),
  );
}

/** The fewest ready endpoints of default/web at any moment. */
function minReady(r: SimulationResult): number {
  let ready = 4;
  let min = 4;
  for (const e of r.events) {
    if (e.type === "EndpointReady" && e.service === "default/web") ready++;
    if (e.type === "EndpointNotReady" && e.service === "default/web") ready--;
    min = Math.min(min, ready);
  }
  return min;
}

const served = (r: SimulationResult) => r.traffic!.totals.ok / r.traffic!.totals.sent;

describe("the probe article's liveness cascade", () => {
  it("liveness that only checks the process: at least 95% served, never fewer than four ready", () => {
    const r = cascade(false);
    expect(r.traffic!.totals.sent).toBeGreaterThan(440 * 290);
    expect(served(r)).toBeGreaterThanOrEqual(0.95);
    expect(served(r)).toBeLessThan(1); // the 100/s pod is overloaded: some of its requests time out
    expect(minReady(r)).toBe(4);
  });

  it("aggressive liveness sharing the request queue: never recovers, under 25% served, zero ready at some point", () => {
    const r = cascade(true);
    expect(served(r)).toBeLessThan(0.25);
    expect(minReady(r)).toBe(0);
  });
});
