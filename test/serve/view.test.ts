// The view a real cluster gives (issue 29 item 5): Services' cluster IPs from the service range,
// deterministic; nodes' addresses and system info, the dump's when there is one.

import { describe, expect, it } from "vitest";
import type { Service } from "../../src/kubernetes/objects.ts";
import { loadScenarioFile } from "../../src/load/index.ts";
import { clusterIps, nodeAddresses, serviceRange } from "../../src/serve/addresses.ts";
import { DeploymentConditionMemory } from "../../src/serve/deployment-conditions.ts";
import { ClusterMirror } from "../../src/serve/mirror.ts";
import { PRINTERS } from "../../src/serve/tables.ts";
import { request, serveExample } from "./helpers.ts";

const svc = (namespace: string, name: string, clusterIP?: string): Service =>
  ({
    kind: "Service",
    metadata: { namespace, name },
    spec: { ...(clusterIP !== undefined ? { clusterIP } : {}), ports: [{ port: 80 }] },
  }) as Service;

const n = (ip: string) => ip.split(".").reduce((a, o) => a * 256 + Number(o), 0);

describe("cluster IPs", () => {
  it("allocates from 10.96.0.0/12 above the lower band, the same on every run, keeping written ones and None", () => {
    const services = [svc("default", "web"), svc("default", "db", "None"), svc("shop", "cart", "10.96.0.50")];
    const ips = clusterIps(services);
    expect(ips.get("default/db")).toBe("None");
    expect(ips.get("shop/cart")).toBe("10.96.0.50");
    const web = ips.get("default/web")!;
    expect(n(web)).toBeGreaterThanOrEqual(n("10.96.1.0"));
    expect(n(web)).toBeLessThan(n("10.112.0.0"));
    expect(clusterIps([...services].reverse()).get("default/web")).toBe(web);
  });

  it("gives CoreDNS's Service the tenth address, as kubeadm does, and no two Services one address", () => {
    const many = Array.from({ length: 300 }, (_, i) => svc("ns", `s${i}`));
    const ips = clusterIps([svc("kube-system", "kube-dns"), ...many]);
    expect(ips.get("kube-system/kube-dns")).toBe("10.96.0.10");
    expect(new Set(ips.values()).size).toBe(301);
  });

  it("takes the range from the input's addresses (an EKS dump's 10.100.0.0/16 and 172.20.0.0/16)", () => {
    const services = [svc("default", "kubernetes", "10.100.0.1"), svc("default", "web")];
    expect(serviceRange(services).text).toBe("10.100.0.0/16");
    expect(clusterIps(services).get("default/web")).toMatch(/^10\.100\.\d+\.\d+$/);
    expect(serviceRange([svc("default", "kubernetes", "172.20.0.1")]).text).toBe("172.20.0.0/16");
    expect(serviceRange([svc("a", "x", "10.96.0.1"), svc("a", "y", "10.104.3.4")]).text).toBe("10.96.0.0/12");
  });
});

describe("node addresses", () => {
  it("a modelled node: InternalIP on the kind-style node network, and its Hostname", () => {
    expect(nodeAddresses(undefined, 1, "worker-2")).toEqual([
      { type: "InternalIP", address: "172.18.0.3" },
      { type: "Hostname", address: "worker-2" },
    ]);
  });

  it("a dump's node: its own addresses", () => {
    const addresses = [
      { type: "InternalIP", address: "10.0.1.12" },
      { type: "InternalDNS", address: "ip-10-0-1-12.ec2.internal" },
    ];
    const spec = { name: "ip-10-0-1-12", labels: {}, taints: [], capacity: {}, addresses };
    expect(nodeAddresses(spec, 0, "ip-10-0-1-12")).toEqual(addresses);
  });
});

describe("Deployment conditions", () => {
  it("Available False from the moment a pod of web stops being ready, True again after its replacement", async () => {
    const s = await serveExample("node-power-loss.yaml", 70);
    try {
      const at = async () =>
        (await request(`${s.serving.url}/apis/apps/v1/namespaces/default/deployments/web`)).json().status;
      const early = await at();
      expect(early.conditions[0]).toMatchObject({
        type: "Available",
        status: "False",
        reason: "MinimumReplicasUnavailable",
        message: "Deployment does not have minimum availability.",
        lastTransitionTime: "2025-01-01T00:00:57Z",
      });
      expect(early.conditions[1]).toMatchObject({
        type: "Progressing",
        status: "True",
        reason: "NewReplicaSetAvailable",
      });
      expect(early.conditions[1].message).toMatch(
        /^ReplicaSet "web-[a-z0-9]+" has successfully progressed\.$/,
      );
      s.serving.cluster.seek(390);
      const late = await at();
      expect(late.availableReplicas).toBe(3);
      expect(late.conditions[0]).toMatchObject({ status: "True", reason: "MinimumReplicasAvailable" });
      expect(late.conditions[0].lastTransitionTime > "2025-01-01T00:06:00Z").toBe(true);
    } finally {
      await s.stop();
    }
  }, 120_000);

  it("Progressing: ReplicaSetUpdated on progress, ProgressDeadlineExceeded 600 s after the last", () => {
    const m = new DeploymentConditionMemory();
    const c = (available: number) => ({ replicas: 3, updated: 3, ready: available, available });
    m.conditions("ns/d", 3, "d-1", c(0), 0, 0);
    const progress = m.conditions("ns/d", 3, "d-1", c(1), 10, 0) as { type: string; reason: string }[];
    expect(progress[1]).toMatchObject({
      reason: "ReplicaSetUpdated",
      message: 'ReplicaSet "d-1" is progressing.',
    });
    expect(m.conditions("ns/d", 3, "d-1", c(1), 600, 0)[1]).toMatchObject({ status: "True" });
    expect(m.conditions("ns/d", 3, "d-1", c(1), 611, 0)[1]).toMatchObject({
      status: "False",
      reason: "ProgressDeadlineExceeded",
      message: 'ReplicaSet "d-1" has timed out progressing.',
    });
  });
});

describe("a new pod's first statuses", () => {
  it("Pending when created and bound, ContainerCreating once its kubelet has it, then Running", () => {
    const mirror = new ClusterMirror(loadScenarioFile("examples/node-power-loss.yaml"));
    const seen = new Map<string, string[]>();
    for (;;) {
      const changes = mirror.step(390);
      if (changes === null) break;
      for (const c of changes) {
        if (c.resource.resource !== "pods" || !c.object) continue;
        const status = String(PRINTERS.pods!.cells(c.object, mirror.now)[2]);
        const list = seen.get(c.object.metadata.name) ?? [];
        if (list.at(-1) !== status) list.push(status);
        seen.set(c.object.metadata.name, list);
      }
    }
    // The web replica made after the eviction at ~6m02s.
    const replacements = [...seen.entries()].filter(
      ([name, s]) => name.startsWith("web-") && s[0] === "Pending",
    );
    expect(replacements.length).toBe(1);
    expect(replacements[0]![1]).toEqual(["Pending", "ContainerCreating", "Running"]);
  }, 120_000);
});
