// Real manifests with init containers and a mesh's native sidecar RUN them: init containers in
// order before the app containers, sidecars kept running beside them (test/kubelet/
// init-containers.test.ts has the rules). The MySQL tutorial StatefulSet (kubernetes/website,
// CC-BY-4.0) prepares its configuration and clones its data in two init containers; Istio's
// injector output for native sidecars (istio/istio pkg/kube/inject/testdata, Apache-2.0) has
// istio-init (iptables, runs to completion), istio-proxy (restartPolicy: Always, startup probe,
// preStop drain) and a second sidecar. Sources and checksums: each fixture's SOURCE.md.

import { describe, expect, it } from "vitest";
import { parseScenario, readManifestEntry } from "../../src/load/index.ts";
import { simulate } from "../../src/run/simulate.ts";
import type { Scenario } from "../../src/scenario/types.ts";
import { eventsOf } from "../helpers/sim.ts";

const ROOT = "test/fixtures/real";

function load(dir: string, behaviour = "", version = "1.33"): Scenario {
  const yaml = `name: real\nkubernetesVersion: "${version}"\nduration: 3m\nstart: created\nnodes: {count: 3, zones: [a, b, c]}\nmanifests: [${dir}/]\n${behaviour}`;
  return parseScenario(yaml, `${ROOT}/scenario.yaml`, (entry) => readManifestEntry(ROOT, entry));
}

/** Each pod's container starts, in order: `container (role)`. */
function startOrder(s: Scenario): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const e of eventsOf(simulate(s), "ContainerStarted")) {
    const pod = e.object.split("/").pop()!;
    out.set(pod, [...(out.get(pod) ?? []), `${e.container}${e.role ? ` (${e.role})` : ""}`]);
  }
  return out;
}

describe("the MySQL tutorial StatefulSet", () => {
  it("lists no init container as not modelled", () => {
    expect(load("mysql-tutorial").notModelled.map((n) => n.field)).not.toContain("PodSpec.initContainers");
  });

  it("runs init-mysql, then clone-mysql, then mysql and xtrabackup, in each of its three members", () => {
    const s = load(
      "mysql-tutorial",
      "behaviour:\n  mysql/init-mysql: {exitAfterSeconds: 1}\n  mysql/clone-mysql: {exitAfterSeconds: 20}\n",
    );
    const order = startOrder(s);
    expect([...order.keys()]).toEqual(["mysql-0", "mysql-1", "mysql-2"]);
    for (const starts of order.values())
      expect(starts).toEqual(["init-mysql (init)", "clone-mysql (init)", "mysql", "xtrabackup"]);
    // The clone's 20 seconds count in each member's start: mysql starts 21s after init-mysql.
    const r = simulate(s);
    const t = (pod: string, c: string) =>
      eventsOf(r, "ContainerStarted").find((e) => e.object.endsWith(`/${pod}`) && e.container === c)!.t;
    expect(t("mysql-0", "mysql") - t("mysql-0", "init-mysql")).toBeCloseTo(21, 6);
    // OrderedReady: mysql-1 is created only once mysql-0 is Running and Ready, after its init containers.
    expect(t("mysql-1", "init-mysql")).toBeGreaterThan(t("mysql-0", "mysql"));
  });
});

describe("Istio's native sidecar injection", () => {
  it("runs istio-init to completion, then istio-proxy and other-sidecar as sidecars, then hello", () => {
    const s = load("istio-native-sidecar", "behaviour:\n  hello/istio-proxy: {bootSeconds: 2}\n");
    expect(s.notModelled.map((n) => n.field)).not.toContain("Container.restartPolicy");
    expect(startOrder(s).get("hello")).toEqual([
      "istio-init (init)",
      "istio-proxy (sidecar)",
      "other-sidecar (sidecar)",
      "hello",
    ]);
    const r = simulate(s);
    const at = (c: string) => eventsOf(r, "ContainerStarted").find((e) => e.container === c)!.t;
    // other-sidecar waits for istio-proxy's startup probe (/healthz/ready, every 1s): ≥ 2s of boot.
    expect(at("other-sidecar") - at("istio-proxy")).toBeGreaterThanOrEqual(2 - 1e-6);
    // READY counts the two sidecars with hello.
    expect(eventsOf(r, "ContainerStarted").at(-1)?.podRow.ready).toMatch(/^\d\/3$/);
  });
});
