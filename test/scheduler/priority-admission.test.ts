// The Priority admission plugin (plugin/pkg/admission/priority/admission.go): a pod's
// priorityClassName resolved at its creation, the global default class, the built-in system classes
// (pkg/apis/scheduling/types.go), and the plugin's refusals, reported where the loader finds them.

import { describe, expect, it } from "vitest";
import { SYSTEM_PRIORITY_CLASSES } from "../../src/kubernetes/priority.ts";
import { parseScenario } from "../../src/load/index.ts";
import { createSimulation } from "../../src/run/simulate.ts";
import { scenario } from "../helpers/sim.ts";
import { expectLoadError, memoryReader } from "../load/helpers.ts";

const head = `name: prio\nkubernetesVersion: "1.32"\nduration: 1m\nstart: running\nnodes:\n  - {name: worker-1}\nmanifests:\n`;

function deployment(name: string, spec = ""): string {
  return `  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: ${name}}
    spec:
      replicas: 1
      selector: {matchLabels: {app: ${name}}}
      template:
        metadata: {labels: {app: ${name}}}
        spec:
${spec}          containers: [{name: c, image: x}]
`;
}

const cls = (name: string, value: number, extra = "") =>
  `  - {apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, metadata: {name: ${name}}, value: ${value}${extra}}\n`;

/** Each pod's priorityClassName, priority and preemptionPolicy after the warm-up, by app label. */
function admitted(manifests: string) {
  const sim = createSimulation(scenario(head + manifests));
  return Object.fromEntries(
    sim.store
      .list("Pod")
      .map((p) => [
        p.metadata.labels?.app,
        [p.spec.priorityClassName, p.spec.priority, p.spec.preemptionPolicy] as const,
      ]),
  );
}

describe("Priority admission", () => {
  it("the built-in classes: system-node-critical 2000001000, system-cluster-critical 2000000000", () => {
    expect(SYSTEM_PRIORITY_CLASSES).toEqual({
      "system-node-critical": 2_000_001_000,
      "system-cluster-critical": 2_000_000_000,
    });
    const pods = admitted(
      deployment("dns", "          priorityClassName: system-cluster-critical\n") + deployment("web"),
    );
    expect(pods.dns).toEqual(["system-cluster-critical", 2_000_000_000, "PreemptLowerPriority"]);
    // no class and no default class: priority 0 (DefaultPriorityWhenNoDefaultClassExists)
    expect(pods.web).toEqual([undefined, 0, "PreemptLowerPriority"]);
  });

  it("a class listed after the pods that name it still applies, and a globalDefault class names itself on the pods without one", () => {
    const pods = admitted(
      deployment("batch", "          priorityClassName: low\n") +
        deployment("web") +
        cls("low", -10, ", preemptionPolicy: Never") +
        cls("normal", 100, ", globalDefault: true"),
    );
    expect(pods.batch).toEqual(["low", -10, "Never"]);
    expect(pods.web).toEqual(["normal", 100, "PreemptLowerPriority"]);
  });

  it("a class that does not exist: the pods are forbidden, at the field that names it", () => {
    expectLoadError({
      name: "unknown class",
      scenario: `${head}  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: web}
    spec:
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec:
          priorityClassName: »high
          containers: [{name: c}]
`,
      code: "invalid-value",
      path: "manifests[0].spec.template.spec.priorityClassName",
      message: 'every pod of Deployment "web" is forbidden: no PriorityClass with name high was found',
    });
  });

  it("a priority or preemptionPolicy of the pod's own that the class contradicts is refused in the plugin's words", () => {
    expectLoadError({
      name: "priority given",
      scenario: `${head}  - apiVersion: v1
    kind: Pod
    metadata: {name: p}
    spec:
      priority: »7
      containers: [{name: c}]
`,
      code: "invalid-value",
      path: "manifests[0].spec.priority",
      message:
        'pods "p" is forbidden: the integer value of priority (7) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name',
    });
    expectLoadError({
      name: "policy given",
      scenario: `${head}  - apiVersion: v1
    kind: Pod
    metadata: {name: p}
    spec:
      preemptionPolicy: »Never
      containers: [{name: c}]
`,
      code: "invalid-value",
      path: "manifests[0].spec.preemptionPolicy",
      message:
        "the string value of PreemptionPolicy (Never) must not be provided in pod spec; priority admission controller computed PreemptLowerPriority from the given PriorityClass name",
    });
  });

  it("PriorityClass validation: a second default, a reserved name, a value above 1000000000", () => {
    expectLoadError({
      name: "two defaults",
      scenario: `${head}${cls("a", 1, ", globalDefault: true")}  - {apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, metadata: {name: b}, value: 2, globalDefault: »true}\n`,
      code: "invalid-value",
      path: "manifests[1].globalDefault",
      message: "PriorityClass a is already marked as default. Only one default can exist",
    });
    expectLoadError({
      name: "reserved",
      scenario: `${head}  - {apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, metadata: {name: »system-mine}, value: 2}\n`,
      code: "invalid-value",
      path: "manifests[0].metadata.name",
      message: "priority class names with 'system-' prefix are reserved",
    });
    expectLoadError({
      name: "too high",
      scenario: `${head}  - {apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, metadata: {name: big}, value: »1000000001}\n`,
      code: "invalid-value",
      path: "manifests[0].value",
      message: "maximum allowed value of a user defined priority is 1000000000",
    });
  });
});

describe("a cluster dump's priorities", () => {
  const node = `- apiVersion: v1
  kind: Node
  metadata: {name: n1, labels: {kubernetes.io/hostname: n1}}
  spec: {}
  status:
    allocatable: {cpu: "4", memory: 16Gi, pods: "110"}
    capacity: {cpu: "4", memory: 16Gi, pods: "110"}
    conditions: [{type: Ready, status: "True", reason: KubeletReady}]
    nodeInfo: {kubeletVersion: v1.32.1}
`;
  const pc = (name: string, value: number) => `- apiVersion: scheduling.k8s.io/v1
  kind: PriorityClass
  metadata: {name: ${name}, resourceVersion: "7", uid: pc-${name}}
  value: ${value}
  preemptionPolicy: PreemptLowerPriority
  description: from the cluster
`;
  const pod = (name: string, cls: string, priority: number) => `- apiVersion: v1
  kind: Pod
  metadata: {name: ${name}, namespace: default, uid: u-${name}}
  spec:
    nodeName: n1
    priorityClassName: ${cls}
    priority: ${priority}
    preemptionPolicy: PreemptLowerPriority
    containers: [{name: c, image: x}]
  status: {phase: Running}
`;
  const list = (items: string) => `apiVersion: v1\nkind: List\nitems:\n${items}`;

  it("reads the dump's PriorityClasses (the system ones included) and keeps each pod's recorded priority", () => {
    const dump = list(
      node +
        pc("system-node-critical", 2_000_001_000) +
        pc("business", 5000) +
        pod("api", "business", 5000) +
        pod("job", "gone", 42),
    );
    const s = parseScenario(
      "name: dump\nduration: 1m\ncluster: dump.yaml\n",
      "s.yaml",
      memoryReader({ "dump.yaml": dump }),
    );
    expect(s.manifests.filter((m) => m.kind === "PriorityClass").map((m) => m.object.metadata.name)).toEqual([
      "system-node-critical",
      "business",
      // a class the dump lacks, known by the priority its pods recorded
      "gone",
    ]);
    const sim = createSimulation(s);
    expect(sim.store.get("PriorityClass", "business")?.value).toBe(5000);
    expect(sim.store.get("PriorityClass", "gone")?.value).toBe(42);
    expect(sim.store.get("Pod", "default/api")?.spec.priority).toBe(5000);
  });
});
