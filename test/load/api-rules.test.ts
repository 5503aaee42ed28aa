// What the API server would refuse, faultline refuses ("never silent"):
// names, labels, annotations, taints, tolerations, ports with Kubernetes' own rules and words;
// Lists without items; kinds misspelled in a built-in group; steps after the end of the run.

import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatLoadError, LoadError, loadScenarioFile } from "../../src/load/index.ts";
import { type ExactCase, expectExact } from "./exact.ts";
import { load } from "./helpers.ts";

const NODES = "nodes: [{name: worker-1, zone: a}]\n";
const withFile = (file: string) => ({
  scenario: `duration: 15m\n${NODES}manifests: [m.yaml]\n`,
  files: { "m.yaml": file },
});
const pod = (spec: string, meta = "") =>
  `apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n${meta}spec:\n  containers:\n    - name: c\n${spec}`;
const service = (spec: string, name = "web") =>
  `apiVersion: v1\nkind: Service\nmetadata:\n  name: ${name}\nspec:\n  selector: {app: web}\n${spec}`;

const LABEL_KEY_RULE =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE_RULE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

const cases: ExactCase[] = [
  {
    name: "a label key with a space (IsQualifiedName)",
    ...withFile(pod("", '  labels: {"my app": web}\n')),
    message: `m.yaml:5:12: metadata.labels["my app"]: "my app" is not a valid label key: ${LABEL_KEY_RULE}`,
  },
  {
    name: "a label key with an upper-case prefix",
    ...withFile(pod("", "  labels: {Example.com/app: web}\n")),
    message:
      "m.yaml:5:12: metadata.labels[\"Example.com/app\"]: \"Example.com/app\" is not a valid label key: prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
  },
  {
    name: "a label key with two slashes",
    ...withFile(pod("", "  labels: {a/b/c: web}\n")),
    message:
      "m.yaml:5:12: metadata.labels[\"a/b/c\"]: \"a/b/c\" is not a valid label key: a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
  },
  {
    name: "a label key of 64 bytes",
    ...withFile(pod("", `  labels: {${"k".repeat(64)}: web}\n`)),
    message: `m.yaml:5:12: metadata.labels.${"k".repeat(64)}: "${"k".repeat(57)}..." is not a valid label key: name part must be no more than 63 bytes`,
  },
  {
    name: "a label value with a slash",
    ...withFile(pod("", "  labels: {app: web/v1}\n")),
    message: `m.yaml:5:17: metadata.labels.app: "web/v1" is not a valid label value: ${LABEL_VALUE_RULE}`,
  },
  {
    name: "a template label value ending in '-'",
    scenario: `duration: 15m\n${NODES}manifests: [m.yaml]\n`,
    files: {
      "m.yaml":
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web, tier: front-}}\n    spec: {containers: [{name: c}]}\n",
    },
    message: `m.yaml:7:41: spec.template.metadata.labels.tier: "front-" is not a valid label value: ${LABEL_VALUE_RULE}`,
  },
  {
    name: "an annotation key with a space (case aside, a qualified name)",
    ...withFile(pod("", '  annotations: {"Note Here": x}\n')),
    message: `m.yaml:5:17: metadata.annotations["Note Here"]: "note here" is not a valid annotation key: ${LABEL_KEY_RULE}`,
  },
  {
    name: "annotations over 256 KiB",
    ...withFile(pod("", `  annotations: {big: "${"x".repeat(262142)}"}\n`)),
    message:
      "m.yaml:5:3: metadata.annotations: Too long: must have at most 262144 bytes (the annotations hold 262145)",
  },
  {
    name: "a nodeSelector key with a space",
    ...withFile(
      `apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c}]\n  nodeSelector: {"disk type": ssd}\n`,
    ),
    message: `m.yaml:6:18: spec.nodeSelector["disk type"]: "disk type" is not a valid label key: ${LABEL_KEY_RULE}`,
  },
  {
    name: "a matchExpressions value that is not a label value",
    scenario: `duration: 15m\n${NODES}manifests: [m.yaml]\n`,
    files: {
      "m.yaml":
        'apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: p}\nspec:\n  minAvailable: 1\n  selector:\n    matchExpressions: [{key: app, operator: In, values: [web, "a b"]}]\n',
    },
    message: `m.yaml:7:63: spec.selector.matchExpressions[0].values[1]: "a b" is not a valid label value: ${LABEL_VALUE_RULE}`,
  },
  {
    name: "a Service name that is not a DNS-1035 label (it starts with a digit)",
    ...withFile(service("", "1web")),
    message:
      "m.yaml:4:9: metadata.name: \"1web\" is not a valid Service name: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
  },
  {
    name: "a Service port name with an underscore (a DNS-1123 label)",
    ...withFile(service("  ports: [{name: web_port, port: 80}]\n")),
    message:
      "m.yaml:7:18: spec.ports[0].name: \"web_port\" is not a valid port name: a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
  },
  {
    name: "a Service with two ports, one unnamed",
    ...withFile(service("  ports: [{name: http, port: 80}, {port: 443}]\n")),
    message:
      'm.yaml:7:35: spec.ports[1]: missing required field "name" (a Service with more than one port must name each)',
  },
  {
    name: "a Service with two ports of one name",
    ...withFile(service("  ports: [{name: http, port: 80}, {name: http, port: 443}]\n")),
    message: 'm.yaml:7:42: spec.ports[1].name: Duplicate value: "http"',
  },
  {
    name: "a targetPort name that is not an IANA service name",
    ...withFile(service("  ports: [{port: 80, targetPort: HTTP}]\n")),
    message:
      'm.yaml:7:34: spec.ports[0].targetPort: "HTTP" is not a valid port name: must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-); must contain at least one letter (a-z)',
  },
  {
    name: "a container port name with two hyphens",
    ...withFile(pod("      ports: [{containerPort: 80, name: we--b}]\n")),
    message:
      'm.yaml:8:41: spec.containers[0].ports[0].name: "we--b" is not a valid port name: must not contain consecutive hyphens',
  },
  {
    name: "a container port name of 16 characters",
    ...withFile(pod("      ports: [{containerPort: 80, name: abcdefghijklmnop}]\n")),
    message:
      'm.yaml:8:41: spec.containers[0].ports[0].name: "abcdefghijklmnop" is not a valid port name: must be no more than 15 bytes',
  },
  {
    name: "two container ports of one name",
    ...withFile(pod("      ports: [{containerPort: 80, name: web}, {containerPort: 81, name: web}]\n")),
    message: 'm.yaml:8:73: spec.containers[0].ports[1].name: Duplicate value: "web"',
  },
  {
    name: "a toleration key with a space",
    ...withFile(
      `apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c}]\n  tolerations: [{key: "a b", operator: Exists}]\n`,
    ),
    message: `m.yaml:6:23: spec.tolerations[0].key: "a b" is not a valid toleration key: ${LABEL_KEY_RULE}`,
  },
  {
    name: "a toleration without key whose operator is not Exists",
    ...withFile(
      `apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c}]\n  tolerations: [{effect: NoSchedule}]\n`,
    ),
    message:
      'm.yaml:6:17: spec.tolerations[0]: operator must be Exists when `key` is empty, which means "match all values and all keys"',
  },
  {
    name: "a toleration value that is not a label value",
    ...withFile(
      `apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c}]\n  tolerations: [{key: k, value: "x y"}]\n`,
    ),
    message: `m.yaml:6:33: spec.tolerations[0].value: "x y" is not a valid toleration value: ${LABEL_VALUE_RULE}`,
  },
  {
    name: "a node taint key with a space",
    scenario: 'duration: 15m\nnodes: [{name: worker-1, taints: [{key: "a b", effect: NoSchedule}]}]\n',
    message: `scenario.yaml:2:41: nodes[0].taints[0].key: "a b" is not a valid taint key: ${LABEL_KEY_RULE}`,
  },
  {
    name: "two node taints with one key and effect",
    scenario:
      "duration: 15m\nnodes: [{name: worker-1, taints: [{key: k, effect: NoSchedule}, {key: k, value: v, effect: NoSchedule}]}]\n",
    message:
      "scenario.yaml:2:65: nodes[0].taints[1]: taints must be unique by key and effect pair (nodes[0].taints[0] has the same)",
  },
  {
    name: "a node label value with a space",
    scenario: 'duration: 15m\nnodes: [{name: worker-1, labels: {disk: "fast ssd"}}]\n',
    message: `scenario.yaml:2:41: nodes[0].labels.disk: "fast ssd" is not a valid label value: ${LABEL_VALUE_RULE}`,
  },
  {
    name: "a zone that disagrees with the node's zone label",
    scenario:
      'duration: 15m\nnodes: [{name: worker-1, zone: a, labels: {"topology.kubernetes.io/zone": b}}]\n',
    message:
      'scenario.yaml:2:75: nodes[0].labels["topology.kubernetes.io/zone"]: "b" disagrees with nodes[0].zone: "a"; set one of them',
  },
  {
    name: "kind: List without items",
    ...withFile("apiVersion: v1\nkind: List\nmetadata: {}\n"),
    message: 'm.yaml:1:1: a List needs "items", the list of its objects',
  },
  {
    name: "kind: List whose items is a mapping",
    ...withFile("apiVersion: v1\nkind: List\nitems: {a: b}\n"),
    message: 'm.yaml:3:8: items: a mapping is not a list: a List holds its objects in "items"',
  },
  {
    name: "a PodList without items",
    ...withFile("apiVersion: v1\nkind: PodList\n"),
    message: 'm.yaml:1:1: a PodList needs "items", the list of its objects',
  },
  {
    name: "a built-in kind misspelled in its group",
    ...withFile("apiVersion: apps/v1\nkind: Statefulset\nmetadata: {name: db}\n"),
    message:
      'm.yaml:2:7: kind: no matches for kind "Statefulset" in version "apps/v1"; did you mean "StatefulSet"?',
  },
  {
    name: "a kind in the wrong built-in group",
    ...withFile("apiVersion: apps/v1\nkind: Ingress\nmetadata: {name: i}\n"),
    message:
      'm.yaml:2:7: kind: no matches for kind "Ingress" in version "apps/v1" (Ingress is in networking.k8s.io)',
  },
  {
    name: "a misspelled kind of another built-in group",
    ...withFile("apiVersion: v1\nkind: CronJb\nmetadata: {name: j}\n"),
    message:
      'm.yaml:2:7: kind: no matches for kind "CronJb" in version "v1"; did you mean "CronJob" (in batch)?',
  },
  // Versions Kubernetes stopped serving before 1.28 (the Deprecated API Migration Guide, kubernetes/
  // website content/en/docs/reference/using-api/deprecation-guide.md): the API server has no such
  // kind in that version, whether faultline models the kind or not.
  {
    name: "a CronJob in batch/v1beta1, removed in 1.25",
    ...withFile("apiVersion: batch/v1beta1\nkind: CronJob\nmetadata: {name: j}\n"),
    message:
      'm.yaml:1:13: apiVersion: no matches for kind "CronJob" in version "batch/v1beta1" (use apiVersion: batch/v1)',
  },
  {
    name: "an Ingress in extensions/v1beta1, removed in 1.22",
    ...withFile("apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata: {name: i}\n"),
    message:
      'm.yaml:1:13: apiVersion: no matches for kind "Ingress" in version "extensions/v1beta1" (use apiVersion: networking.k8s.io/v1)',
  },
  {
    name: "a CustomResourceDefinition in apiextensions.k8s.io/v1beta1, removed in 1.22",
    ...withFile(
      "apiVersion: apiextensions.k8s.io/v1beta1\nkind: CustomResourceDefinition\nmetadata: {name: c}\n",
    ),
    message:
      'm.yaml:1:13: apiVersion: no matches for kind "CustomResourceDefinition" in version "apiextensions.k8s.io/v1beta1" (use apiVersion: apiextensions.k8s.io/v1)',
  },
  {
    name: "a HorizontalPodAutoscaler in autoscaling/v2beta2, removed in 1.26",
    ...withFile("apiVersion: autoscaling/v2beta2\nkind: HorizontalPodAutoscaler\nmetadata: {name: h}\n"),
    message:
      'm.yaml:1:13: apiVersion: no matches for kind "HorizontalPodAutoscaler" in version "autoscaling/v2beta2" (use apiVersion: autoscaling/v2)',
  },
  {
    name: "a PodSecurityPolicy, removed in 1.25 with no successor",
    ...withFile("apiVersion: policy/v1beta1\nkind: PodSecurityPolicy\nmetadata: {name: p}\n"),
    message:
      'm.yaml:1:13: apiVersion: no matches for kind "PodSecurityPolicy" in version "policy/v1beta1" (PodSecurityPolicy was removed in Kubernetes 1.25)',
  },
  {
    name: "a timeline step after the end of the run",
    scenario: `duration: 15m\n${NODES}timeline:\n  - {at: 20m, do: power-off, node: worker-1}\n`,
    message:
      'scenario.yaml:4:10: timeline[0].at: "20m" is after the end of the run (duration: 15m): the step would never happen',
  },
  {
    name: "a timeline step a millisecond after the end, written second, in seconds",
    scenario: `duration: 15m\n${NODES}timeline:\n  - {at: 1m, do: power-off, node: worker-1}\n  - {at: 900.001, do: power-on, node: worker-1}\n`,
    message:
      "scenario.yaml:5:10: timeline[1].at: 900.001 is after the end of the run (duration: 15m): the step would never happen",
  },
];

describe("Kubernetes' validation rules", () => {
  it.each(cases)("$name", expectExact);
});

describe("what the API server accepts, faultline accepts", () => {
  it("prefixed keys, empty label values, upper-case annotation keys, a step at the very end", () => {
    const s = load(
      `duration: 15m\n${NODES}manifests: [m.yaml]\ntimeline:\n  - {at: 15m, do: power-off, node: worker-1}\n`,
      {
        "m.yaml": pod(
          "",
          '  labels: {app.kubernetes.io/name: web, empty: ""}\n  annotations: {Example.com/Note: x}\n',
        ),
      },
    );
    expect(s.manifests[0]?.object.metadata.labels).toEqual({ "app.kubernetes.io/name": "web", empty: "" });
    expect(s.timeline[0]?.at).toBe(900);
  });

  it("kinds of groups Kubernetes does not have, and built-in kinds not modelled, are listed as ignored", () => {
    const s = load(`duration: 15m\n${NODES}manifests: [m.yaml]\n`, {
      "m.yaml":
        "apiVersion: example.com/v1\nkind: Statefulset\nmetadata: {name: a}\n---\napiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: b}\n---\napiVersion: v1\nkind: List\nitems: []\n",
    });
    expect(s.ignored.map((i) => `${i.apiVersion} ${i.kind} ${i.name}`)).toEqual([
      "example.com/v1 Statefulset a",
      "autoscaling/v2 HorizontalPodAutoscaler b",
    ]);
  });

  it("a node's labels may set the hostname and add the well-known labels", () => {
    const s = load(
      'duration: 15m\nnodes: [{name: worker-1, zone: a, labels: {"kubernetes.io/hostname": host-1, "kubernetes.io/arch": arm64}}]\n',
    );
    expect(s.nodes[0]?.labels).toEqual({
      "kubernetes.io/hostname": "host-1",
      "topology.kubernetes.io/zone": "a",
      "kubernetes.io/arch": "arm64",
    });
  });
});

describe("invalid UTF-8", () => {
  const dir = mkdtempSync(join(tmpdir(), "faultline-utf8-"));
  const line = (file: string) => {
    try {
      loadScenarioFile(file);
    } catch (e) {
      if (e instanceof LoadError) return formatLoadError(e);
      throw e;
    }
    return "loaded";
  };

  it("in the scenario file: the byte, its offset, line and column", () => {
    const file = join(dir, "s.yaml");
    writeFileSync(
      file,
      Buffer.concat([Buffer.from("duration: 15m\nname: caf"), Buffer.from([0xe9]), Buffer.from("\n")]),
    );
    expect(line(file)).toBe(
      `${file}:2:10: invalid UTF-8 at byte 23 (0xE9): faultline reads YAML and JSON as UTF-8`,
    );
  });

  it("in a manifest, and a UTF-16 file says so", () => {
    const file = join(dir, "m.yaml");
    writeFileSync(join(dir, "s2.yaml"), `duration: 15m\n${NODES}manifests: [m.yaml]\n`);
    writeFileSync(file, Buffer.from("\ufeffapiVersion: v1\n", "utf16le"));
    expect(line(join(dir, "s2.yaml"))).toBe(
      `${file}:1:1: invalid UTF-8 at byte 0 (0xFF): the file is UTF-16; save it as UTF-8`,
    );
  });

  it("a truncated sequence and an encoded surrogate are ill-formed; valid text is not", async () => {
    const { invalidUtf8Offset } = await import("../../src/load/utf8.ts");
    expect(invalidUtf8Offset(Buffer.from([0x61, 0xe2, 0x82]))).toBe(1);
    expect(invalidUtf8Offset(Buffer.from([0xed, 0xa0, 0x80]))).toBe(0);
    expect(invalidUtf8Offset(Buffer.from([0xc0, 0xaf]))).toBe(0);
    expect(invalidUtf8Offset(Buffer.from("ok – µs 🙂"))).toBe(-1);
  });
});
