// Every kind of bad input gives exactly one LoadError naming file, line, column and field path.
// "»" marks where the error must point.

import { describe, expect, it } from "vitest";
import { formatLoadError } from "../../src/load/index.ts";
import { type BadCase, expectLoadError } from "./helpers.ts";

const NODES = "nodes: [{name: worker-1, zone: a}, {name: worker-2, zone: b}]\n";
const scenario = (extra = "") => `duration: 15m\n${NODES}manifests: [web.yaml]\n${extra}`;

/** A Deployment; `container` is appended to its one container (10-space indent), `pod` to its PodSpec (6). */
function deployment({ container = "", pod = "", spec = "", replicas = "2" } = {}): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: ${replicas}
${spec}  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
${pod}      containers:
        - name: web
          image: nginx
${container}`;
}

const probe = (kind: string, body: string) => `          ${kind}:\n${body}`;

const cases: BadCase[] = [
  // --- YAML syntax ---
  {
    name: "malformed YAML: unclosed flow sequence",
    scenario: "duration: 15m\nnodes: [a, b\n»timeline: []\n",
    code: "yaml-syntax",
    path: "",
    message:
      "invalid YAML: Flow sequence in block collection must be sufficiently indented and end with a ] (BAD_INDENT)",
  },
  {
    name: "malformed YAML: tab indentation",
    scenario: "duration: 15m\n»\tnodes: []\n",
    code: "yaml-syntax",
    path: "",
    message: "Tabs are not allowed as indentation",
  },
  {
    name: "malformed YAML: duplicate key",
    scenario: `duration: 15m\n»duration: 10m\n${NODES}`,
    code: "yaml-syntax",
    path: "",
    message: "Map keys must be unique",
  },
  {
    name: "malformed YAML inside a manifest points into the manifest",
    scenario: scenario(),
    files: { "web.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  labels: [x\n»" },
    code: "yaml-syntax",
    path: "",
    message: "invalid YAML",
  },
  {
    name: "a scenario file with two documents",
    scenario: `duration: 15m\n${NODES}---\n»apiVersion: v1\n`,
    code: "invalid-value",
    path: "",
    message: "a scenario file holds one YAML document",
  },
  {
    name: "a scenario that is a list",
    scenario: "»- duration: 15m\n",
    code: "invalid-type",
    path: "",
    message: "is not a scenario",
  },
  // --- scenario fields ---
  {
    name: "unknown field in the scenario file, with a suggestion",
    scenario: `duration: 15m\n${NODES}»behavior: {}\n`,
    code: "unknown-field",
    path: "behavior",
    message: 'unknown field "behavior" (did you mean "behaviour"?)',
  },
  {
    name: "unknown field: transposed letters",
    scenario: `duration: 15m\n${NODES}»timelien: []\n`,
    code: "unknown-field",
    path: "timelien",
    message: 'did you mean "timeline"?',
  },
  {
    name: "unknown field in controlPlane",
    scenario: `duration: 15m\n${NODES}controlPlane:\n  »nodeMonitorGracePeriodSeconds: 40\n`,
    code: "unknown-field",
    path: "controlPlane.nodeMonitorGracePeriodSeconds",
    message: 'did you mean "nodeMonitorGracePeriod"?',
  },
  {
    name: "unknown field in a node",
    scenario: "duration: 15m\nnodes:\n  - name: worker-1\n    »zones: a\n",
    code: "unknown-field",
    path: "nodes[0].zones",
    message: 'unknown field "zones" in a node (did you mean "zone"?)',
  },
  {
    name: "unknown field in a timeline step",
    scenario: `duration: 15m\n${NODES}timeline:\n  - {at: 10s, do: power-off, »nodes: worker-1}\n`,
    code: "unknown-field",
    path: "timeline[0].nodes",
    message: 'did you mean "node"?',
  },
  {
    name: "missing duration",
    scenario: `»${NODES}`,
    code: "missing-field",
    path: "duration",
    message: 'missing required field "duration"',
  },
  {
    name: "missing nodes",
    scenario: "»duration: 15m\n",
    code: "missing-field",
    path: "nodes",
    message: 'missing required field "nodes"',
  },
  {
    name: "wrong unit: duration in words",
    scenario: `duration: »15 minutes\n${NODES}`,
    code: "invalid-duration",
    path: "duration",
    message: '"15 minutes" is not a duration (use Go-style like 10s, 1m30s, 500ms, or seconds as a number)',
  },
  {
    name: "wrong unit: unknown duration unit",
    scenario: `duration: »15min\n${NODES}`,
    code: "invalid-duration",
    path: "duration",
    message: 'unknown unit "min"',
  },
  {
    name: "timeline at with a space",
    scenario: `duration: 15m\n${NODES}timeline:\n  - {at: 1s, do: power-on, node: worker-1}\n  - {at: 2s, do: power-on, node: worker-1}\n  - {at: »10 sec, do: power-off, node: worker-2}\n`,
    code: "invalid-duration",
    path: "timeline[2].at",
    message:
      'timeline[2].at: "10 sec" is not a duration (use Go-style like 10s, 1m30s, 500ms, or seconds as a number)',
  },
  {
    name: "negative duration",
    scenario: `duration: »-5m\n${NODES}`,
    code: "invalid-duration",
    path: "duration",
    message: '"-5m" is negative',
  },
  {
    name: "negative duration as a number",
    scenario: `duration: »-30\n${NODES}`,
    code: "invalid-duration",
    path: "duration",
    message: "-30 is negative",
  },
  {
    name: "zero duration",
    scenario: `duration: »0s\n${NODES}`,
    code: "invalid-duration",
    path: "duration",
    message: '"0s" is too short: must be at least 1ms',
  },
  {
    name: "negative timeline time",
    scenario: `duration: 15m\n${NODES}timeline:\n  - {at: »-1s, do: power-off, node: worker-1}\n`,
    code: "invalid-duration",
    path: "timeline[0].at",
    message: "is negative",
  },
  {
    name: "duration in days",
    scenario: `duration: »2d\n${NODES}`,
    code: "invalid-duration",
    path: "duration",
    message: '"2d" is not a duration (Go durations have no days: write 48h;',
  },
  {
    name: "duration over 7 days",
    scenario: `duration: »169h\n${NODES}`,
    code: "invalid-duration",
    path: "duration",
    message: "is too long: must be at most 7 days",
  },
  {
    name: "seed not an integer",
    scenario: `duration: 15m\nseed: »1.5\n${NODES}`,
    code: "invalid-type",
    path: "seed",
    message: "1.5 is not an integer",
  },
  {
    name: "negative seed",
    scenario: `duration: 15m\nseed: »-1\n${NODES}`,
    code: "invalid-value",
    path: "seed",
    message: "must be at least 0",
  },
  {
    name: "seed above 32 bits",
    scenario: `duration: 15m\nseed: »4294967296\n${NODES}`,
    code: "invalid-value",
    path: "seed",
    message: "must be at most 4294967295",
  },
  {
    name: "start not running or created",
    scenario: `duration: 15m\nstart: »runing\n${NODES}`,
    code: "invalid-value",
    path: "start",
    message: 'did you mean "running"?',
  },
  {
    name: "unsupported kubernetesVersion",
    scenario: `kubernetesVersion: »"1.27"\nduration: 15m\n${NODES}`,
    code: "unsupported-version",
    path: "kubernetesVersion",
    message: 'Kubernetes "1.27" is not supported (supported: 1.28 to 1.37',
  },
  {
    name: "unsupported kubernetesVersion as a number",
    scenario: `kubernetesVersion: »1.4\nduration: 15m\n${NODES}`,
    code: "unsupported-version",
    path: "kubernetesVersion",
    message: 'Kubernetes 1.4 is not supported (supported: 1.28 to 1.37; write it quoted, e.g. "1.30")',
  },
  {
    name: "controlPlane period with a wrong unit",
    scenario: `duration: 15m\n${NODES}controlPlane:\n  nodeMonitorGracePeriod: »50 s\n`,
    code: "invalid-duration",
    path: "controlPlane.nodeMonitorGracePeriod",
    message: "is not a duration",
  },
  {
    name: "controlPlane boolean as a string",
    scenario: `duration: 15m\n${NODES}controlPlane:\n  disableForceDetachOnTimeout: »"yes"\n`,
    code: "invalid-type",
    path: "controlPlane.disableForceDetachOnTimeout",
    message: "is not a boolean",
  },
  {
    name: "unhealthyZoneThreshold above 1",
    scenario: `duration: 15m\n${NODES}controlPlane:\n  unhealthyZoneThreshold: »55\n`,
    code: "invalid-value",
    path: "controlPlane.unhealthyZoneThreshold",
    message: "must be at most 1",
  },
  {
    name: "kubelet probeSchedule not a known value",
    scenario: `duration: 15m\n${NODES}kubelet:\n  probeSchedule: »period\n`,
    code: "invalid-value",
    path: "kubelet.probeSchedule",
    message: '"period" is not one of "kubernetes", "period-end"',
  },
  {
    name: "kubelet nodeLeaseDurationSeconds zero",
    scenario: `duration: 15m\n${NODES}kubelet:\n  nodeLeaseDurationSeconds: »0\n`,
    code: "invalid-value",
    path: "kubelet.nodeLeaseDurationSeconds",
    message: "must be at least 1",
  },
  {
    name: "kubelet feature gate not in that version",
    scenario: `kubernetesVersion: "1.31"\nduration: 15m\n${NODES}kubelet:\n  featureGates:\n    ReduceDefaultCrashLoopBackOffDecay: »true\n`,
    code: "invalid-value",
    path: "kubelet.featureGates.ReduceDefaultCrashLoopBackOffDecay",
    message: "not a feature gate of Kubernetes 1.31 (it appeared in 1.33)",
  },
  {
    name: "kubelet unknown feature gate",
    scenario: `duration: 15m\n${NODES}kubelet:\n  featureGates:\n    »ReduceCrashLoop: true\n`,
    code: "unknown-field",
    path: "kubelet.featureGates.ReduceCrashLoop",
    message: "ReduceCrashLoop",
  },
  {
    name: "maxContainerRestartPeriod out of range",
    scenario: `duration: 15m\n${NODES}kubelet:\n  crashLoopBackOff:\n    maxContainerRestartPeriod: »10m\n`,
    code: "invalid-value",
    path: "kubelet.crashLoopBackOff.maxContainerRestartPeriod",
    message: "from 1s to 300s",
  },
  {
    name: "maxContainerRestartPeriod without its feature gate (1.33)",
    scenario: `kubernetesVersion: "1.33"\nduration: 15m\n${NODES}kubelet:\n  crashLoopBackOff:\n    »maxContainerRestartPeriod: 1m\n`,
    code: "invalid-value",
    path: "kubelet.crashLoopBackOff",
    message: "KubeletCrashLoopBackOffMax",
  },
  // --- nodes ---
  {
    name: "wrong unit: memory 16GB",
    scenario: "duration: 15m\nnodes:\n  - {name: worker-1, capacity: {memory: »16GB}}\n",
    code: "invalid-quantity",
    path: "nodes[0].capacity.memory",
    message: '"16GB" is not a quantity (unknown unit "GB"',
  },
  {
    name: "wrong unit: cpu in words",
    scenario: "duration: 15m\nnodes:\n  - {name: worker-1, capacity: {cpu: »4 cores}}\n",
    code: "invalid-quantity",
    path: "nodes[0].capacity.cpu",
    message: "is not a quantity",
  },
  {
    name: "negative capacity",
    scenario: "duration: 15m\nnodes:\n  - {name: worker-1, capacity: {cpu: »-1}}\n",
    code: "invalid-quantity",
    path: "nodes[0].capacity.cpu",
    message: "is negative",
  },
  {
    name: "duplicate node names",
    scenario: "duration: 15m\nnodes:\n  - name: worker-1\n  - name: worker-2\n  - name: »worker-1\n",
    code: "duplicate-node",
    path: "nodes[2].name",
    message: 'duplicate node name "worker-1" (first defined as nodes[0] on line 3)',
  },
  {
    name: "node without a name",
    scenario: "duration: 15m\nnodes:\n  - »zone: a\n",
    code: "missing-field",
    path: "nodes[0].name",
    message: 'missing required field "name"',
  },
  {
    name: "node name not a DNS name",
    scenario: "duration: 15m\nnodes:\n  - name: »Worker_1\n",
    code: "invalid-value",
    path: "nodes[0].name",
    message: "is not a valid node name",
  },
  {
    name: "no nodes",
    scenario: "duration: 15m\nnodes: »[]\n",
    code: "invalid-value",
    path: "nodes",
    message: "at least one node",
  },
  {
    name: "more than 5,000 nodes (count form)",
    scenario: "duration: 15m\nnodes: {count: »5001, zones: [a, b, c]}\n",
    code: "too-large",
    path: "nodes.count",
    message: "5001 nodes is more than Kubernetes' documented limit of 5,000 nodes per cluster",
  },
  {
    name: "more than 5,000 nodes (list form)",
    scenario: `duration: 15m\nnodes:\n${Array.from({ length: 5000 }, (_, i) => `  - name: n${i}\n`).join("")}  - »name: n5000\n`,
    code: "too-large",
    path: "nodes[5000]",
    message: "5001 nodes is more than Kubernetes' documented limit of 5,000",
  },
  {
    name: "node count form without count",
    scenario: "duration: 15m\nnodes: »{zones: [a, b]}\n",
    code: "missing-field",
    path: "nodes.count",
    message: 'missing required field "count"',
  },
  {
    name: "taint with a bad effect",
    scenario: "duration: 15m\nnodes:\n  - {name: worker-1, taints: [{key: k, effect: »NoExec}]}\n",
    code: "invalid-value",
    path: "nodes[0].taints[0].effect",
    message: 'did you mean "NoExecute"?',
  },
  // --- timeline ---
  {
    name: "node that does not exist in a timeline step",
    scenario: `duration: 15m\n${NODES}timeline:\n  - {at: 10s, do: power-off, node: »worker-3}\n`,
    code: "unknown-node",
    path: "timeline[0].node",
    message: 'no node named "worker-3"',
  },
  {
    name: "node typo gets a suggestion",
    scenario: `duration: 15m\n${NODES}timeline:\n  - {at: 10s, do: power-off, node: »wroker-1}\n`,
    code: "unknown-node",
    path: "timeline[0].node",
    message: 'did you mean "worker-1"?',
  },
  {
    name: "node action without a node",
    scenario: `duration: 15m\n${NODES}timeline:\n  - »{at: 10s, do: power-off}\n`,
    code: "missing-field",
    path: "timeline[0].node",
    message: "power-off needs node: <name> (one of worker-1, worker-2)",
  },
  {
    name: "runtime-down without a node",
    scenario: `duration: 15m\n${NODES}timeline:\n  - »{at: 10s, do: runtime-down}\n`,
    code: "missing-field",
    path: "timeline[0].node",
    message: "runtime-down needs node: <name> (one of worker-1, worker-2)",
  },
  {
    name: "runtime-up on a pod",
    scenario: scenario("timeline:\n  - {at: 10s, do: runtime-up, »pod: Deployment/web}\n"),
    files: { "web.yaml": deployment() },
    code: "invalid-value",
    path: "timeline[0].pod",
    message: "runtime-up acts on a node: use node: <name>, not pod",
  },
  {
    name: "runtime-down on a node that does not exist",
    scenario: `duration: 15m\n${NODES}timeline:\n  - {at: 10s, do: runtime-down, node: »worker-9}\n`,
    code: "unknown-node",
    path: "timeline[0].node",
    message: 'no node named "worker-9"',
  },
  {
    name: "unknown action",
    scenario: `duration: 15m\n${NODES}timeline:\n  - {at: 10s, do: »poweroff, node: worker-1}\n`,
    code: "invalid-value",
    path: "timeline[0].do",
    message: 'did you mean "power-off"?',
  },
  {
    name: "pod action with a node",
    scenario: `duration: 15m\n${NODES}timeline:\n  - {at: 10s, do: crash, »node: worker-1}\n`,
    code: "invalid-value",
    path: "timeline[0].node",
    message: "crash acts on a pod",
  },
  {
    name: "pod target: workload that does not exist",
    scenario: scenario("timeline:\n  - {at: 10s, do: crash, pod: »Deployment/wbe}\n"),
    files: { "web.yaml": deployment() },
    code: "unknown-pod",
    path: "timeline[0].pod",
    message: 'no Deployment named "wbe" in the manifests (did you mean "Deployment/web"?)',
  },
  {
    name: "pod target: index out of range",
    scenario: scenario('timeline:\n  - {at: 10s, do: deadlock, pod: »"Deployment/web[2]"}\n'),
    files: { "web.yaml": deployment() },
    code: "unknown-pod",
    path: "timeline[0].pod",
    message: "Deployment/web has 2 replicas, so [2] does not exist",
  },
  {
    name: "pod target: StatefulSet ordinal out of range",
    scenario: scenario("timeline:\n  - {at: 10s, do: force-delete-pod, pod: »default/web-5}\n"),
    files: { "web.yaml": deployment().replace("kind: Deployment", "kind: StatefulSet") },
    code: "unknown-pod",
    path: "timeline[0].pod",
    message: 'StatefulSet "web" has 2 replicas (web-0 … web-1)',
  },
  {
    name: "pod target: no pod in the namespace",
    scenario: scenario("timeline:\n  - {at: 10s, do: crash, pod: »kube-system/web-1}\n"),
    files: { "web.yaml": deployment() },
    code: "unknown-pod",
    path: "timeline[0].pod",
    message: 'no workloads in namespace "kube-system"',
  },
  {
    name: "pod target: lower-case kind",
    scenario: scenario("timeline:\n  - {at: 10s, do: crash, pod: »deployment/web}\n"),
    files: { "web.yaml": deployment() },
    code: "unknown-pod",
    path: "timeline[0].pod",
    message: 'did you mean "Deployment/web"?',
  },
  {
    name: "pod target: not a pod form",
    scenario: scenario("timeline:\n  - {at: 10s, do: crash, pod: »web}\n"),
    files: { "web.yaml": deployment() },
    code: "unknown-pod",
    path: "timeline[0].pod",
    message: "<namespace>/<name>, <Kind>/<name> or <Kind>/<name>[i]",
  },
  // --- behaviour ---
  {
    name: "behaviour for a workload that does not exist",
    scenario: scenario("behaviour:\n  »wbe: {bootSeconds: 5}\n"),
    files: { "web.yaml": deployment() },
    code: "unknown-workload",
    path: "behaviour.wbe",
    message: 'no workload named "wbe" in the manifests (did you mean "web"?)',
  },
  {
    name: "behaviour for a container that does not exist",
    scenario: scenario("behaviour:\n  »web/app: {bootSeconds: 5}\n"),
    files: { "web.yaml": deployment() },
    code: "unknown-workload",
    path: 'behaviour["web/app"]',
    message: '"web" has no container named "app" (containers: web)',
  },
  {
    name: "behaviour with an unknown field",
    scenario: scenario("behaviour:\n  web: {»bootSecond: 5}\n"),
    files: { "web.yaml": deployment() },
    code: "unknown-field",
    path: "behaviour.web.bootSecond",
    message: 'did you mean "bootSeconds"?',
  },
  {
    name: "behaviour exitCode out of range",
    scenario: scenario("behaviour:\n  web: {exitCode: »256}\n"),
    files: { "web.yaml": deployment() },
    code: "invalid-value",
    path: "behaviour.web.exitCode",
    message: "must be at most 255",
  },
  // --- manifests: files ---
  {
    name: "manifest path that does not exist",
    scenario: `duration: 15m\n${NODES}manifests:\n  - web.yaml\n  - »missing.yaml\n`,
    files: { "web.yaml": deployment() },
    code: "file-not-found",
    path: "manifests[1]",
    message: '"missing.yaml": no such file or folder',
  },
  {
    name: "manifest entry of the wrong type",
    scenario: `duration: 15m\n${NODES}manifests:\n  - »42\n`,
    code: "invalid-type",
    path: "manifests[0]",
    message: "42 is not a string",
  },
  // --- manifests: objects ---
  {
    name: "object without apiVersion",
    scenario: scenario(),
    files: { "web.yaml": "»kind: Deployment\nmetadata: {name: web}\n" },
    code: "invalid-object",
    path: "",
    message: 'object has no "apiVersion"',
  },
  {
    name: "object without kind, in the second document",
    scenario: scenario(),
    files: { "web.yaml": `${deployment()}---\n»apiVersion: v1\nmetadata: {name: x}\n` },
    code: "invalid-object",
    path: "",
    message: 'object has no "kind"',
  },
  {
    name: "inline object without kind points into the scenario",
    scenario: `duration: 15m\n${NODES}manifests:\n  - »apiVersion: v1\n    metadata: {name: x}\n`,
    code: "invalid-object",
    path: "manifests[0]",
    message: 'object has no "kind"',
  },
  {
    name: "Deployment in an old apiVersion",
    scenario: scenario(),
    files: { "web.yaml": deployment().replace("apiVersion: apps/v1", "apiVersion: »extensions/v1beta1") },
    code: "invalid-object",
    path: "apiVersion",
    message: 'no matches for kind "Deployment" in version "extensions/v1beta1" (use apiVersion: apps/v1)',
  },
  {
    name: "replicas: three",
    scenario: scenario(),
    files: { "web.yaml": deployment({ replicas: "»three" }) },
    code: "invalid-type",
    path: "spec.replicas",
    message: '"three" is not an integer',
  },
  {
    name: "negative replicas",
    scenario: scenario(),
    files: { "web.yaml": deployment({ replicas: "»-1" }) },
    code: "invalid-value",
    path: "spec.replicas",
    message: "-1 is too small: must be at least 0",
  },
  {
    name: "replicas over 150,000",
    scenario: scenario(),
    files: { "web.yaml": deployment({ replicas: "»150001" }) },
    code: "invalid-value",
    path: "spec.replicas",
    message: "must be at most 150000",
  },
  {
    name: "more than 150,000 pods in all",
    scenario: `duration: 15m\n${NODES}manifests: [a.yaml, b.yaml]\n`,
    files: {
      "a.yaml": deployment({ replicas: "100000" }),
      "b.yaml": deployment({ replicas: "»60000" }).replace("name: web", "name: web2"),
    },
    code: "too-large",
    path: "spec.replicas",
    message: "160,000 pods by here, more than Kubernetes' documented limit of 150,000 pods per cluster",
  },
  {
    name: "more than 300,000 containers in all",
    scenario: scenario(),
    files: {
      "web.yaml": deployment({
        replicas: "»100000",
        container: "        - name: b\n        - name: c\n        - name: d\n",
      }),
    },
    code: "too-large",
    path: "spec.replicas",
    message: "400,000 containers by here",
  },
  {
    name: "containers missing",
    scenario: scenario(),
    files: {
      "web.yaml":
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      »restartPolicy: Always\n",
    },
    code: "missing-field",
    path: "spec.template.spec.containers",
    message: 'missing required field "containers" in PodSpec',
  },
  {
    name: "empty containers",
    scenario: scenario(),
    files: {
      "web.yaml": "apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  containers: »[]\n",
    },
    code: "missing-field",
    path: "spec.containers",
    message: "at least one container",
  },
  {
    name: "selector missing",
    scenario: scenario(),
    files: {
      "web.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  »replicas: 1\n",
    },
    code: "missing-field",
    path: "spec.selector",
    message: 'missing required field "selector" in DeploymentSpec',
  },
  {
    name: "selector does not match the template labels",
    scenario: scenario(),
    files: { "web.yaml": deployment().replace("labels: {app: web}", "labels: »{app: api}") },
    code: "invalid-value",
    path: "spec.template.metadata.labels",
    message: "`selector` does not match template `labels`",
  },
  {
    name: "unknown field in a Container",
    scenario: scenario(),
    files: {
      "web.yaml": deployment({ container: "          »livenesProbe:\n            tcpSocket: {port: 80}\n" }),
    },
    code: "unknown-field",
    path: "spec.template.spec.containers[0].livenesProbe",
    message: 'unknown field "livenesProbe" in Container (did you mean "livenessProbe"?)',
  },
  {
    name: "unknown field in a Probe",
    scenario: scenario(),
    files: {
      "web.yaml": deployment({
        container: probe(
          "readinessProbe",
          "            tcpSocket: {port: 80}\n            »periodSecond: 5\n",
        ),
      }),
    },
    code: "unknown-field",
    path: "readinessProbe.periodSecond",
    message: 'unknown field "periodSecond" in Probe (did you mean "periodSeconds"?)',
  },
  {
    name: "unknown field in a PodSpec",
    scenario: scenario(),
    files: { "web.yaml": deployment({ pod: "      »terminationGracePeriod: 30\n" }) },
    code: "unknown-field",
    path: "spec.template.spec.terminationGracePeriod",
    message:
      'unknown field "terminationGracePeriod" in PodSpec (did you mean "terminationGracePeriodSeconds"?)',
  },
  {
    name: "unknown field in ObjectMeta",
    scenario: scenario(),
    files: { "web.yaml": deployment().replace("  name: web\n", "  name: web\n  »label: {a: b}\n") },
    code: "unknown-field",
    path: "metadata.label",
    message: 'unknown field "label" in ObjectMeta (did you mean "labels"?)',
  },
  {
    name: "unknown field in a DeploymentSpec",
    scenario: scenario(),
    files: { "web.yaml": deployment({ spec: "  »replica: 3\n" }) },
    code: "unknown-field",
    path: "spec.replica",
    message: 'unknown field "replica" in DeploymentSpec (did you mean "replicas"?)',
  },
  {
    name: "unknown top-level field in an object",
    scenario: scenario(),
    files: { "web.yaml": `${deployment()}»specs: {}\n` },
    code: "unknown-field",
    path: "specs",
    message: 'unknown field "specs" in Deployment',
  },
  {
    name: "probe without a handler",
    scenario: scenario(),
    files: {
      "web.yaml": deployment({ container: probe("livenessProbe", "            »periodSeconds: 5\n") }),
    },
    code: "missing-field",
    path: "spec.template.spec.containers[0].livenessProbe",
    message: "a probe needs exactly one handler: exec, grpc, httpGet or tcpSocket (livenessProbe has none)",
  },
  {
    name: "probe with two handlers",
    scenario: scenario(),
    files: {
      "web.yaml": deployment({
        container: probe(
          "livenessProbe",
          "            httpGet: {port: 80}\n            »tcpSocket: {port: 80}\n",
        ),
      }),
    },
    code: "invalid-value",
    path: "livenessProbe.tcpSocket",
    message: "may not specify more than 1 handler type (found httpGet and tcpSocket)",
  },
  ...(["periodSeconds", "timeoutSeconds", "successThreshold", "failureThreshold"] as const).map(
    (field): BadCase => ({
      name: `probe ${field} < 0`,
      scenario: scenario(),
      files: {
        "web.yaml": deployment({
          container: probe(
            "readinessProbe",
            `            tcpSocket: {port: 80}\n            ${field}: »-1\n`,
          ),
        }),
      },
      code: "invalid-value",
      path: `readinessProbe.${field}`,
      message: "-1 is too small: must be at least 0",
    }),
  ),
  {
    name: "probe initialDelaySeconds < 0",
    scenario: scenario(),
    files: {
      "web.yaml": deployment({
        container: probe(
          "startupProbe",
          "            exec: {command: [cat, /tmp/healthy]}\n            initialDelaySeconds: »-1\n",
        ),
      }),
    },
    code: "invalid-value",
    path: "startupProbe.initialDelaySeconds",
    message: "-1 is too small: must be at least 0",
  },
  {
    name: "probe periodSeconds not an integer",
    scenario: scenario(),
    files: {
      "web.yaml": deployment({
        container: probe(
          "livenessProbe",
          "            tcpSocket: {port: 80}\n            periodSeconds: »10s\n",
        ),
      }),
    },
    code: "invalid-type",
    path: "livenessProbe.periodSeconds",
    message: '"10s" is not an integer',
  },
  {
    name: "successThreshold ≠ 1 on liveness",
    scenario: scenario(),
    files: {
      "web.yaml": deployment({
        container: probe(
          "livenessProbe",
          "            tcpSocket: {port: 80}\n            successThreshold: »2\n",
        ),
      }),
    },
    code: "invalid-value",
    path: "livenessProbe.successThreshold",
    message: "must be 1 for livenessProbes",
  },
  {
    name: "successThreshold ≠ 1 on startup",
    scenario: scenario(),
    files: {
      "web.yaml": deployment({
        container: probe(
          "startupProbe",
          "            tcpSocket: {port: 80}\n            successThreshold: »3\n",
        ),
      }),
    },
    code: "invalid-value",
    path: "startupProbe.successThreshold",
    message: "must be 1 for startupProbes",
  },
  {
    name: "probe terminationGracePeriodSeconds on readiness",
    scenario: scenario(),
    files: {
      "web.yaml": deployment({
        container: probe(
          "readinessProbe",
          "            tcpSocket: {port: 80}\n            »terminationGracePeriodSeconds: 10\n",
        ),
      }),
    },
    code: "invalid-value",
    path: "readinessProbe.terminationGracePeriodSeconds",
    message: "must not be set for readinessProbes",
  },
  {
    name: "probe port out of range",
    scenario: scenario(),
    files: {
      "web.yaml": deployment({ container: probe("livenessProbe", "            httpGet: {port: »70000}\n") }),
    },
    code: "invalid-value",
    path: "livenessProbe.httpGet.port",
    message: "must be at most 65535",
  },
  {
    name: "wrong unit in a container's memory request",
    scenario: scenario(),
    files: { "web.yaml": deployment({ container: "          resources: {requests: {memory: »512MB}}\n" }) },
    code: "invalid-quantity",
    path: "spec.template.spec.containers[0].resources.requests.memory",
    message: '"512MB" is not a quantity (unknown unit "MB"',
  },
  {
    name: "request above limit",
    scenario: scenario(),
    files: {
      "web.yaml": deployment({
        container: "          resources: {requests: {cpu: »2}, limits: {cpu: 500m}}\n",
      }),
    },
    code: "invalid-value",
    path: "resources.requests.cpu",
    message: "must be less than or equal to cpu limit",
  },
  {
    name: "label value that YAML reads as a number",
    scenario: scenario(),
    files: { "web.yaml": deployment().replace("  name: web\n", "  name: web\n  labels: {version: »1.0}\n") },
    code: "invalid-type",
    path: "metadata.labels.version",
    message: '1 is not a string (quote it: "1")',
  },
  {
    name: "Deployment with restartPolicy Never",
    scenario: scenario(),
    files: { "web.yaml": deployment({ pod: "      restartPolicy: »Never\n" }) },
    code: "invalid-value",
    path: "spec.template.spec.restartPolicy",
    message: 'Unsupported value: "Never": supported values: "Always"',
  },
  {
    name: "duplicate container names",
    scenario: scenario(),
    files: { "web.yaml": deployment({ container: "        - name: »web\n" }) },
    code: "invalid-value",
    path: "spec.template.spec.containers[1].name",
    message: 'Duplicate value: "web"',
  },
  {
    name: "object name not a DNS name",
    scenario: scenario(),
    files: { "web.yaml": deployment().replace("  name: web\n", "  name: »Web_1\n") },
    code: "invalid-value",
    path: "metadata.name",
    message: '"Web_1" is not a valid name',
  },
  {
    name: "duplicate objects in one file",
    scenario: scenario(),
    files: { "web.yaml": `${deployment()}---\n${deployment().replace("  name: web\n", "  name: »web\n")}` },
    code: "duplicate-object",
    path: "metadata.name",
    message: 'duplicate object: Deployment "default/web" is already defined at web.yaml:1:1',
  },
  {
    name: "duplicate objects across files",
    scenario: `duration: 15m\n${NODES}manifests: [a.yaml, b.yaml]\n`,
    files: {
      "a.yaml": deployment(),
      "b.yaml": `apiVersion: v1\nkind: List\nitems:\n  - ${deployment().replace("  name: web\n", "  name: »web\n").replaceAll("\n", "\n    ").trimEnd()}\n`,
    },
    code: "duplicate-object",
    path: "items[0].metadata.name",
    message: "is already defined at a.yaml:1:1",
  },
  {
    name: "error inside a List item points at the item",
    scenario: scenario(),
    files: {
      "web.yaml":
        "apiVersion: v1\nkind: List\nitems:\n  - apiVersion: v1\n    kind: Pod\n    metadata: {name: p}\n    spec:\n      containers:\n        - name: c\n          ports: [{containerPort: »0}]\n",
    },
    code: "invalid-value",
    path: "items[0].spec.containers[0].ports[0].containerPort",
    message: "must be at least 1",
  },
  {
    name: "PodDisruptionBudget with both minAvailable and maxUnavailable",
    scenario: scenario(),
    files: {
      "web.yaml":
        "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: web}\nspec:\n  minAvailable: 1\n  »maxUnavailable: 1\n",
    },
    code: "invalid-value",
    path: "spec.maxUnavailable",
    message: "cannot be both set",
  },
  {
    name: "toleration with tolerationSeconds but not NoExecute",
    scenario: scenario(),
    files: {
      "web.yaml": deployment({
        pod: "      tolerations:\n        - {key: k, operator: Exists, effect: NoSchedule, »tolerationSeconds: 30}\n",
      }),
    },
    code: "invalid-value",
    path: "spec.template.spec.tolerations[0].tolerationSeconds",
    message: "effect must be 'NoExecute'",
  },
];

describe("bad input: one LoadError with file, line, column and path", () => {
  it.each(cases.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    const e = expectLoadError(c);
    expect(formatLoadError(e)).toBe(e.message);
  });
});
