// NodeResourcesFit compares every resource the pod requests with what the node has left
// (pkg/scheduler/framework/plugins/noderesources/fit.go fitsRequest): cpu, memory and pods, and by
// name ephemeral-storage and the scalar resources (extended resources such as nvidia.com/gpu,
// hugepages-<size>), each insufficient one a reason "Insufficient <name>". A limit without a request
// sets the request (core/v1 SetDefaults_Pod); init containers count at their largest
// (component-helpers resource.PodRequests).

import { describe, expect, it } from "vitest";
import { run, scenario } from "../../helpers/sim.ts";
import { load } from "../../load/helpers.ts";

/** Three nodes, one per zone (capacity `capacity` when given), and one Deployment of `replicas` with `resources`. */
function gpuScenario(resources: string, opts: { capacity?: string; replicas?: number; init?: string } = {}) {
  const capacity = opts.capacity ? `, capacity: ${opts.capacity}` : "";
  const nodes = ["a", "b", "c"]
    .map((z, i) => `  - {name: worker-${i + 1}, zone: ${z}${capacity}}\n`)
    .join("");
  const head = `name: gpu\nkubernetesVersion: "1.32"\nduration: 1m\nstart: running\nnodes:\n${nodes}`;
  return scenario(`${head}manifests:
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: trainer}
    spec:
      replicas: ${opts.replicas ?? 1}
      selector: {matchLabels: {app: trainer}}
      template:
        metadata: {labels: {app: trainer}}
        spec:
${opts.init ? `          initContainers: [${opts.init}]\n` : ""}          containers:
            - {name: cuda, image: nvidia/cuda, resources: ${resources}}
`);
}

/** The pods at t=0, after the warm-up. */
const initialPods = (s: ReturnType<typeof gpuScenario>) => run({ ...s, timeline: [] }).initial.pods;

/** The FitError of the one pod left Pending (its PodScheduled=False message). */
function fitError(s: ReturnType<typeof gpuScenario>): string | undefined {
  const pending = initialPods(s).filter((p) => p.phase === "Pending");
  expect(pending).toHaveLength(1);
  return pending[0]!.message;
}

const fitErrorOn3 = (reasons: string) =>
  `0/3 nodes are available: ${reasons}. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.`;

describe("NodeResourcesFit: extended and other scalar resources", () => {
  it("a GPU limit on CPU-only nodes: Pending with kube-scheduler's words", () => {
    const s = gpuScenario("{limits: {nvidia.com/gpu: 1}}");
    expect(initialPods(s).map((p) => p.phase)).toEqual(["Pending"]);
    expect(fitError(s)).toBe(fitErrorOn3("3 Insufficient nvidia.com/gpu"));
  });

  it("nodes that declare GPUs take the pods, one per GPU, and the fourth waits", () => {
    const s = gpuScenario("{limits: {nvidia.com/gpu: 1}}", {
      capacity: '{cpu: "8", memory: 32Gi, pods: 110, nvidia.com/gpu: 1}',
      replicas: 4,
    });
    const phases = initialPods(s).map((p) => p.phase);
    expect(phases.filter((p) => p === "Running")).toHaveLength(3);
    expect(phases.filter((p) => p === "Pending")).toHaveLength(1);
  });

  it("hugepages: a node that pre-allocates none refuses the request; ephemeral-storage is counted too", () => {
    const hp = gpuScenario(
      "{requests: {hugepages-2Mi: 64Mi, memory: 64Mi}, limits: {hugepages-2Mi: 64Mi, memory: 64Mi}}",
    );
    expect(fitError(hp)).toBe(fitErrorOn3("3 Insufficient hugepages-2Mi"));
    const es = gpuScenario("{requests: {ephemeral-storage: 30Gi}}", {
      capacity: '{cpu: "8", memory: 32Gi, pods: 110, ephemeral-storage: 20Gi}',
    });
    expect(fitError(es)).toBe(fitErrorOn3("3 Insufficient ephemeral-storage"));
  });

  it("a scenario node that does not declare ephemeral-storage has as much as the pods ask", () => {
    const s = gpuScenario("{requests: {ephemeral-storage: 30Gi}}");
    expect(initialPods(s).map((p) => p.phase)).toEqual(["Running"]);
  });

  it("an init container's request counts at its largest, not summed with the containers'", () => {
    const capacity = '{cpu: "8", memory: 32Gi, pods: 110, nvidia.com/gpu: 2}';
    const init = "{name: warm, image: nvidia/cuda, resources: {limits: {nvidia.com/gpu: 2}}}";
    const fits = gpuScenario("{limits: {nvidia.com/gpu: 2}}", { capacity, init });
    expect(initialPods(fits).map((p) => p.phase)).toEqual(["Running"]);
    const tooMany = gpuScenario("{limits: {nvidia.com/gpu: 1}}", {
      capacity,
      init: "{name: warm, image: nvidia/cuda, resources: {limits: {nvidia.com/gpu: 3}}}",
    });
    expect(initialPods(tooMany).map((p) => p.phase)).toEqual(["Pending"]);
  });
});

describe("NodeResourcesFit on a cluster dump", () => {
  const node = (name: string, zone: string) => `- apiVersion: v1
  kind: Node
  metadata:
    labels: {kubernetes.io/hostname: ${name}, topology.kubernetes.io/zone: ${zone}}
    name: ${name}
  spec: {}
  status:
    allocatable: {cpu: 3920m, ephemeral-storage: "95551679124", hugepages-1Gi: "0", hugepages-2Mi: "0", memory: 14879388Ki, pods: "58"}
    capacity: {cpu: "4", ephemeral-storage: 103681212Ki, hugepages-1Gi: "0", hugepages-2Mi: "0", memory: 15896988Ki, pods: "58"}
    conditions: [{type: Ready, status: "True", reason: KubeletReady}]
    nodeInfo: {kubeletVersion: v1.31.4}
`;
  const message =
    "0/2 nodes are available: 2 Insufficient nvidia.com/gpu. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.";
  const pendingPod = `- apiVersion: v1
  kind: Pod
  metadata: {name: cuda-vectoradd, namespace: default, uid: 7f2d-cuda}
  spec:
    restartPolicy: OnFailure
    containers:
      - name: cuda-vectoradd
        image: nvcr.io/nvidia/k8s/cuda-sample:vectoradd-cuda11.7.1-ubuntu20.04
        resources: {limits: {nvidia.com/gpu: "1"}, requests: {nvidia.com/gpu: "1"}}
  status:
    phase: Pending
    conditions:
      - {type: PodScheduled, status: "False", reason: Unschedulable, message: "${message}"}
`;
  const dump = `apiVersion: v1\nitems:\n${node("n1", "a")}${node("n2", "b")}${pendingPod}kind: List\nmetadata: {resourceVersion: ""}\n`;

  it("dumped nodes keep ephemeral-storage and hugepages; a GPU pod Pending in the dump stays Pending, for the same reason", () => {
    const s = load("duration: 1m\ncluster: dump.yaml\n", { "dump.yaml": dump });
    const n1 = s.nodes.find((n) => n.name === "n1")!;
    expect(n1.allocatable?.scalar).toEqual({
      "ephemeral-storage": 95551679124,
      "hugepages-1Gi": 0,
      "hugepages-2Mi": 0,
    });
    const r = run(s);
    const pod = r.initial.pods.find((p) => p.pod === "default/cuda-vectoradd")!;
    expect(pod).toMatchObject({ phase: "Pending", node: null, message });
    expect(r.summary.pods.find((p) => p.pod === "default/cuda-vectoradd")).toMatchObject({ node: null });
  });
});

describe("from 1.34, a request larger than every node's allocatable is UnschedulableAndUnresolvable", () => {
  it("preemption is not helpful: no node has a GPU at all (InsufficientResource.Unresolvable)", () => {
    const s = gpuScenario("{limits: {nvidia.com/gpu: 1}}");
    const msg = run({ ...s, kubernetesVersion: "1.34", timeline: [] }).initial.pods[0]!.message;
    expect(msg).toBe(
      "0/3 nodes are available: 3 Insufficient nvidia.com/gpu. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
    );
  });
});
