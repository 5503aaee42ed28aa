// Reading a cluster dump: a `kind: List` as kubectl prints it, YAML or JSON, one file or a
// folder; what the API server adds accepted; bad dumps answered with one located line (exit 2) when
// the run would mean nothing, and with an "ignored" note when only one object cannot be used.

import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseIpv4Cidr } from "../../src/kubernetes/cidr.ts";
import { parseJsonDump } from "../../src/load/cluster/json.ts";
import { formatLoadError, LoadError } from "../../src/load/index.ts";
import { parseYamlFile } from "../../src/load/source.ts";
import { createSimulation } from "../../src/run/simulate.ts";
import { cli, FAULTLINE, oneLine, shell } from "../cli/helpers.ts";
import { load } from "./helpers.ts";

const node = (name: string, zone: string, extra = "") => `- apiVersion: v1
  kind: Node
  metadata:
    labels: {kubernetes.io/hostname: ${name}, topology.kubernetes.io/zone: ${zone}, topology.kubernetes.io/region: r1}
    managedFields: [{manager: kubelet, operation: Update, apiVersion: v1, fieldsType: FieldsV1, fieldsV1: {}}]
    name: ${name}
    resourceVersion: "101"
    uid: 0b6a4f3c-1111-4a2b-8c3d-000000000001
  spec:${extra || " {}"}
  status:
    allocatable: {cpu: 3920m, memory: 14879388Ki, pods: "58"}
    capacity: {cpu: "4", memory: 15896988Ki, pods: "58"}
    conditions: [{type: Ready, status: "True", reason: KubeletReady}]
    nodeInfo: {kubeletVersion: v1.30.6-gke.1125000}
`;
const pod = (name: string, nodeName: string) => `- apiVersion: v1
  kind: Pod
  metadata: {name: ${name}, namespace: default, uid: 9c1e-${name}, resourceVersion: "202"}
  spec:
    containers: [{name: app, image: "nginx:1.27", terminationMessagePath: /dev/termination-log}]
    nodeName: ${nodeName}
    dnsPolicy: ClusterFirst
    schedulerName: default-scheduler
  status:
    phase: Running
    podIP: 10.8.3.7
    containerStatuses: [{name: app, ready: true, restartCount: 4, started: true, state: {running: {startedAt: "2024-11-02T10:00:00Z"}}}]
`;
const list = (items: string) =>
  `apiVersion: v1\nitems:\n${items}kind: List\nmetadata:\n  resourceVersion: ""\n`;
const SCENARIO = "duration: 5m\ncluster: dump.yaml\n";

describe("a dump loads", () => {
  it("nodes with their labels, taints, cordon and allocatable; pods with their IP and restart counts; the version from the kubelets", () => {
    const s = load(SCENARIO, {
      "dump.yaml": list(
        node(
          "n1",
          "a",
          '\n    unschedulable: true\n    taints: [{key: node.kubernetes.io/unschedulable, effect: NoSchedule, timeAdded: "2024-11-02T10:00:00Z"}]',
        ) +
          node("n2", "b") +
          pod("web", "n2"),
      ),
    });
    expect(s.kubernetesVersion).toBe("1.30");
    expect(s.nodes.map((n) => [n.name, n.zone, n.region, n.unschedulable ?? false])).toEqual([
      ["n1", "a", "r1", true],
      ["n2", "b", "r1", false],
    ]);
    expect(s.nodes[0]!.taints).toEqual([{ key: "node.kubernetes.io/unschedulable", effect: "NoSchedule" }]);
    expect(s.nodes[0]!.allocatable).toEqual({ cpu: 3.92, memory: 14879388 * 1024, pods: 58 });
    expect(s.nodes[0]!.capacity.cpu).toBe(4);
    const web = s.manifests.find((m) => m.kind === "Pod")!.object;
    expect(
      web.kind === "Pod" && [
        web.spec.nodeName,
        web.status.podIP,
        web.status.containerStatuses[0]?.restartCount,
      ],
    ).toEqual(["n2", "10.8.3.7", 4]);
    expect(s.ignored).toEqual([]);
  });

  it("a node's pod CIDR: podCIDRs' IPv4 one (dual-stack, either order) or podCIDR; IPv6 only or none: none; and the run's new pods get their addresses from it", () => {
    const s = load(`${SCENARIO}manifests: [web.yaml]\n`, {
      "dump.yaml": list(
        node("n1", "a", "\n    podCIDR: fd00:10:8:1::/64\n    podCIDRs: [fd00:10:8:1::/64, 10.8.1.0/24]") +
          node("n2", "a", "\n    podCIDR: 10.8.2.0/24") +
          node("n3", "a", "\n    podCIDR: fd00:10:8:3::/64") +
          node("n4", "a"),
      ),
      "web.yaml":
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 4\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: app, image: app}], topologySpreadConstraints: [{maxSkew: 1, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: web}}}]}\n",
    });
    expect(s.nodes.map((n) => n.podCIDR)).toEqual([
      parseIpv4Cidr("10.8.1.0/24"),
      parseIpv4Cidr("10.8.2.0/24"),
      undefined,
      undefined,
    ]);
    const sim = createSimulation(s);
    const ips = Object.fromEntries(
      sim.store.list("Pod").map((p) => [p.spec.nodeName, p.status.podIP] as const),
    );
    // One pod per node (the spread constraint); n3 and n4 have no IPv4 pod CIDR of their own: the
    // generated plan's 10.244.<node index>.0/24.
    expect(ips).toEqual({ n1: "10.8.1.1", n2: "10.8.2.1", n3: "10.244.3.1", n4: "10.244.4.1" });
  });

  it("a folder of dumps, nodes in one file and pods in another, in any order", () => {
    const s = load("duration: 5m\ncluster: dump/\n", {
      "dump/a-pods.yaml": list(pod("web", "n1")),
      "dump/b-nodes.json": JSON.stringify(parseYamlFile(list(node("n1", "a")), "x")[0]!.value, null, 4),
    });
    expect(s.nodes.map((n) => n.name)).toEqual(["n1"]);
    expect(s.manifests.map((m) => m.object.metadata.name)).toEqual(["web"]);
    expect(s.cluster?.files).toEqual(["dump/a-pods.yaml", "dump/b-nodes.json"]);
  });

  it("EndpointSlices, ControllerRevisions, Leases, Events are counted, not read; ConfigMaps and Secrets no further than their name", () => {
    const s = load(SCENARIO, {
      "dump.yaml": list(
        `${node("n1", "a")}- {apiVersion: discovery.k8s.io/v1, kind: EndpointSlice, metadata: {name: web-x1, namespace: default}, addressType: IPv4, endpoints: not read}
- {apiVersion: apps/v1, kind: ControllerRevision, metadata: {name: db-5d8, namespace: default}, revision: 1}
- {apiVersion: v1, kind: Secret, metadata: {name: db-password, namespace: default}, data: {password: c2VjcmV0}}
- {apiVersion: v1, kind: ConfigMap, metadata: {name: web-config, namespace: default}, data: {a: b}}
`,
      ),
    });
    expect(s.cluster?.rebuilt).toEqual({ EndpointSlice: 1, ControllerRevision: 1 });
    expect(s.ignored.map((i) => `${i.kind} ${i.name}`)).toEqual([
      "Secret db-password",
      "ConfigMap web-config",
    ]);
  });
});

describe("what a dump holds that the model does not act on is listed, never dropped in silence", () => {
  it("a node under memory or disk pressure: the condition, where it first stands; a healthy node's False ones are nothing", () => {
    const pressured = node("n2", "b").replace(
      'conditions: [{type: Ready, status: "True", reason: KubeletReady}]',
      'conditions: [{type: MemoryPressure, status: "True", reason: KubeletHasInsufficientMemory}, {type: DiskPressure, status: "False"}, {type: Ready, status: "True", reason: KubeletReady}]',
    );
    expect(pressured).toContain("MemoryPressure");
    const s = load(SCENARIO, { "dump.yaml": list(node("n1", "a") + pressured) });
    expect(s.notModelled).toEqual([
      { field: "NodeStatus.conditions[MemoryPressure=True]", where: "dump.yaml:29" },
    ]);
    expect(load(SCENARIO, { "dump.yaml": list(node("n1", "a")) }).notModelled).toEqual([]);
  });

  it("a dumped object's namespace is not a missing reference: the API server admitted the object into it", () => {
    const inShop = pod("web", "n1").replace("namespace: default", "namespace: shop");
    expect(inShop).toContain("namespace: shop");
    expect(load(SCENARIO, { "dump.yaml": list(node("n1", "a") + inShop) }).notModelled).toEqual([]);
  });
});

describe("JSON dumps: item positions without the YAML parser", () => {
  it("each item's position from the scan is where the YAML parser puts it", () => {
    const text = readFileSync("test/fixtures/cluster/shop-dump.yaml", "utf8");
    const json = JSON.stringify(parseYamlFile(text, "x", 64 * 1024 * 1024)[0]!.value, null, 4).slice(
      0,
      400_000,
    );
    // A prefix of whole items, closed again: still kubectl's JSON layout.
    const cut = `${json.slice(0, json.lastIndexOf("\n        },") + 10)}\n    ]\n}\n`;
    const fast = parseJsonDump(cut, "d.json")!;
    const slow = parseYamlFile(cut, "d.json")[0]!;
    const n = (fast.value as { items: unknown[] }).items.length;
    expect(n).toBeGreaterThan(20);
    for (let i = 0; i < n; i++) expect(fast.locate(["items", i])).toEqual(slow.locate(["items", i]));
    // A deeper position is its object's for a note; an error's parses the YAML document.
    expect(fast.locate(["items", 3, "metadata", "name"])).toEqual(slow.locate(["items", 3]));
    expect(fast.locate(["items", 3, "metadata", "name"], "value", true)).toEqual(
      slow.locate(["items", 3, "metadata", "name"]),
    );
  });

  it("minified, or laid out otherwise from some item on: the scan finds every item where the YAML parser does", () => {
    const text = readFileSync("test/fixtures/cluster/shop-dump.yaml", "utf8");
    const value = parseYamlFile(text, "x", 64 * 1024 * 1024)[0]!.value as { items: unknown[] };
    const some = { ...value, items: value.items.slice(0, 30) };
    const pretty = JSON.stringify(some, null, 2);
    // Item 12 written on one line: the layout no longer holds from there.
    const mixed = pretty.replace(
      JSON.stringify(some.items[12], null, 2).replace(/\n/g, "\n    "),
      JSON.stringify(some.items[12]),
    );
    expect(mixed).not.toBe(pretty);
    for (const layout of [JSON.stringify(some), mixed]) {
      const fast = parseJsonDump(layout, "d.json")!;
      const slow = parseYamlFile(layout, "d.json")[0]!;
      for (let i = 0; i < 30; i++) expect(fast.locate(["items", i])).toEqual(slow.locate(["items", i]));
    }
  });
});

const error = (scenario: string, files: Record<string, string>): string => {
  try {
    load(scenario, files);
  } catch (e) {
    if (e instanceof LoadError) return formatLoadError(e);
    throw e;
  }
  throw new Error("loaded");
};

describe("bad dumps", () => {
  it("a truncated YAML file: where the List stops, located", () => {
    const whole = list(node("n1", "a") + pod("web", "n1"));
    const cut = whole.slice(0, whole.indexOf("  spec:\n    containers"));
    expect(error(SCENARIO, { "dump.yaml": cut })).toBe(
      'dump.yaml:17:3: items[1]: the List ends here without "kind: List": the file looks cut short; dump the cluster again',
    );
    // Cut after the items: the object it cuts in half.
    const inItem = `${cut}kind: List\n`;
    expect(error(SCENARIO, { "dump.yaml": inItem })).toBe(
      'dump.yaml:17:3: items[1].spec: missing required field "spec" in Pod',
    );
  });

  it("a truncated JSON file: where the text ends", () => {
    const json = JSON.stringify(parseYamlFile(list(node("n1", "a")), "x")[0]!.value, null, 4);
    const msg = error("duration: 5m\ncluster: dump.json\n", { "dump.json": json.slice(0, 200) });
    expect(msg).toMatch(/^dump\.json:\d+:\d+: invalid JSON: /);
  });

  it("a pod on a node the dump does not hold: ignored, with why", () => {
    const s = load(SCENARIO, { "dump.yaml": list(node("n1", "a") + pod("web", "n1") + pod("stray", "n9")) });
    expect(s.manifests.map((m) => m.object.metadata.name)).toEqual(["web"]);
    expect(s.ignored).toMatchObject([
      { kind: "Pod", name: "default/stray", reason: "on node n9, which is not in the dump" },
    ]);
  });

  it("a kind Kubernetes does not have in a built-in group: the API server's error, located", () => {
    expect(
      error(SCENARIO, {
        "dump.yaml": list(`${node("n1", "a")}- {apiVersion: v1, kind: Nod, metadata: {name: x}}\n`),
      }),
    ).toBe('dump.yaml:17:26: items[1].kind: no matches for kind "Nod" in version "v1"; did you mean "Node"?');
  });

  it("a custom resource: ignored", () => {
    const s = load(SCENARIO, {
      "dump.yaml": list(
        `${node("n1", "a")}- {apiVersion: monitoring.coreos.com/v1, kind: ServiceMonitor, metadata: {name: web}}\n`,
      ),
    });
    expect(s.ignored.map((i) => i.kind)).toEqual(["ServiceMonitor"]);
  });

  it("a pod CIDR that is no CIDR: located", () => {
    expect(error(SCENARIO, { "dump.yaml": list(node("n1", "a", "\n    podCIDRs: [10.8.1.0]")) })).toBe(
      'dump.yaml:12:16: items[0].spec.podCIDRs[0]: "10.8.1.0" is not a CIDR (e.g. "10.244.1.0/24")',
    );
  });

  it("no Node in the dump, nodes beside a dump, a dump that is not there", () => {
    expect(error(SCENARIO, { "dump.yaml": list(pod("web", "n1")) })).toMatch(
      /^scenario\.yaml:2:10: cluster: the dump holds no Node/,
    );
    expect(error(`${SCENARIO}nodes: [{name: a}]\n`, { "dump.yaml": list(node("n1", "a")) })).toBe(
      "scenario.yaml:3:1: nodes: the nodes come from the cluster dump: remove `nodes`",
    );
    expect(error(SCENARIO, {})).toMatch(
      /^scenario\.yaml:2:10: cluster: "dump\.yaml": no such file or folder/,
    );
  });

  it("the command line: exit 2 with the located line for a truncated dump; --cluster alone runs the dump", async () => {
    const dir = mkdtempSync(join(tmpdir(), "faultline-dump-"));
    const whole = list(node("n1", "a") + pod("web", "n1"));
    writeFileSync(join(dir, "cut.yaml"), whole.slice(0, whole.indexOf("  spec:\n    containers")));
    writeFileSync(join(dir, "ok.yaml"), whole);
    const bad = await cli(["simulate", "--cluster", join(dir, "cut.yaml")]);
    expect(bad.code).toBe(2);
    expect(bad.err).toBe(
      `${join(dir, "cut.yaml")}:17:3: items[1]: the List ends here without "kind: List": the file looks cut short; dump the cluster again\n`,
    );
    const ok = await cli(["simulate", "--cluster", join(dir, "ok.yaml")]);
    expect(ok.code).toBe(0);
    expect(ok.out).toContain(
      `from the cluster dump ${join(dir, "ok.yaml")}: 1 pod on their nodes, kubelets v1.30.6-gke.1125000`,
    );
    const missing = await cli(["simulate", "--cluster", join(dir, "none.yaml")]);
    expect(missing.code).toBe(2);
  });

  it("- reads the dump from the standard input (kubectl get … -o json | faultline simulate --cluster -)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "faultline-dump-stdin-"));
    writeFileSync(join(dir, "dump.yaml"), list(node("n1", "a") + pod("web", "n1")));
    const ok = await shell(`${FAULTLINE} simulate --cluster - < ${join(dir, "dump.yaml")}`);
    expect(ok.code).toBe(0);
    expect(ok.out).toContain("from the cluster dump <stdin>: 1 pod on their nodes");
    // Messages name the standard input as <stdin>, with the line and column.
    const cut = await shell(`head -c 300 ${join(dir, "dump.yaml")} | ${FAULTLINE} simulate --cluster -`);
    expect(cut.code).toBe(2);
    expect(cut.err).toMatch(/^<stdin>:\d+:\d+: /);
    expect(oneLine(cut.err)).toBe(true);
  }, 60_000);

  it("the starting state says what the dump does not: the version (the kubelets' unless the scenario's or --kubernetes-version) and the flags assumed", async () => {
    const dir = mkdtempSync(join(tmpdir(), "faultline-dump-assumed-"));
    writeFileSync(join(dir, "dump.yaml"), list(node("n1", "a") + pod("web", "n1")));
    const fromKubelets = await cli(["simulate", "--cluster", join(dir, "dump.yaml")]);
    expect(fromKubelets.out).toContain(
      "  assumed: Kubernetes 1.30 from the kubelets' version v1.30.6-gke.1125000 (a scenario's kubernetesVersion sets another); kube-controller-manager's 1.30 defaults for every flag",
    );
    writeFileSync(
      join(dir, "s.yaml"),
      'duration: 5m\nkubernetesVersion: "1.32"\ncluster: dump.yaml\ncontrolPlane: {nodeMonitorGracePeriod: 50s}\n',
    );
    const fromScenario = await cli(["simulate", join(dir, "s.yaml")]);
    expect(fromScenario.out).toContain(
      "  assumed: Kubernetes 1.32 as given (kubernetesVersion or --kubernetes-version); kube-controller-manager's 1.32 defaults but node-monitor-grace-period from the scenario's controlPlane",
    );
    const fromFlag = await cli([
      "simulate",
      "--cluster",
      join(dir, "dump.yaml"),
      "--kubernetes-version",
      "v1.33",
    ]);
    expect(fromFlag.out).toMatch(/^faultline simulate · dump · Kubernetes 1\.33 ·/);
    expect(fromFlag.out).toContain("  assumed: Kubernetes 1.33 as given");
    const unsupported = await cli([
      "simulate",
      "--cluster",
      join(dir, "dump.yaml"),
      "--kubernetes-version",
      "1.2",
    ]);
    expect([unsupported.code, unsupported.err]).toEqual([
      2,
      '--kubernetes-version 1.2: Kubernetes "1.2" is not supported (supported: 1.28 to 1.37)\n',
    ]);
  });

  it("--dump-at prints a List in kubectl's form that --cluster reads back; a time after the end is a usage error", async () => {
    const dir = mkdtempSync(join(tmpdir(), "faultline-dump-at-"));
    const out = await cli(["simulate", "examples/node-power-loss.yaml", "--dump-at", "6m"]);
    expect(out.code).toBe(0);
    expect(out.out.startsWith("apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Node\n")).toBe(true);
    expect(out.out.endsWith('kind: List\nmetadata:\n  resourceVersion: ""\n')).toBe(true);
    writeFileSync(join(dir, "at-6m.yaml"), out.out);
    const again = await cli(["simulate", "--cluster", join(dir, "at-6m.yaml"), "--json"]);
    expect(again.code).toBe(0);
    const late = await cli(["simulate", "examples/node-power-loss.yaml", "--dump-at", "1h"]);
    expect(late.code).toBe(2);
    expect(late.err).toContain("--dump-at 1h: after the end of the scenario");
  });
});
