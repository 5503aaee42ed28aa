// Issue 9: real manifests nobody here wrote (test/fixtures/real/<set>/, each with its SOURCE.md), run
// as a new user would run them, on a simulated cluster (`start: running`). For each set:
// - every pod either runs (Running and Ready at t=0 in the JSON's `initial`) or is reported with the
//   scheduler's own reason (Unschedulable and kube-scheduler's FailedScheduling message), and every
//   workload has the pods its spec asks for;
// - nothing is silently dropped: every object is modelled or in the JSON's `ignored` (file:line), and
//   every field of every modelled object is read by a model, has no bearing on failure handling
//   (FIELDS below says why), or is in the JSON's `notModelled` (file:line).
// The CockroachDB example as published uses policy/v1beta1, which Kubernetes stopped serving in 1.25:
// it is refused with a located message naming the version to use; the copy with policy/v1 runs.

import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { LoadError } from "../../src/load/errors.ts";
import { parseScenario, readManifestEntry } from "../../src/load/index.ts";
import { formatJson } from "../../src/report/json.ts";
import { simulate } from "../../src/run/simulate.ts";
import type { Scenario } from "../../src/scenario/types.ts";
import type { InitialState } from "../../src/trace/result.ts";

const ROOT = "test/fixtures/real";

/** Two clusters: three roomy nodes in three zones, and one small node the sets do not all fit on. */
const CLUSTERS = {
  "three nodes": "{count: 3, zones: [a, b, c]}",
  "one small node": '[{name: small, zone: a, capacity: {cpu: "1", memory: 2Gi, pods: 110}}]',
};

function load(dir: string, nodes: string): Scenario {
  const yaml = `name: real\nduration: 1m\nstart: running\nnodes: ${nodes}\nmanifests: [${dir}/]\n`;
  return parseScenario(yaml, `${ROOT}/scenario.yaml`, (entry) => readManifestEntry(ROOT, entry));
}

interface Json {
  ignored?: { kind: string; apiVersion: string; name: string; where: string }[];
  notModelled?: { field: string; where: string }[];
  initial: InitialState;
}

function runJson(s: Scenario): Json {
  return JSON.parse(formatJson(simulate({ ...s, duration: 0, timeline: [] }), s)) as Json;
}

/** The objects of a set as written: kind, namespace, name and raw value, from every file under it. */
function rawObjects(dir: string): { kind: string; id: string; value: Record<string, unknown> }[] {
  const files = (d: string): string[] =>
    readdirSync(d)
      .sort()
      .flatMap((f) => {
        const p = join(d, f);
        return statSync(p).isDirectory() ? files(p) : p.endsWith(".yaml") ? [p] : [];
      });
  return files(join(ROOT, dir)).flatMap((f) =>
    parseAllDocuments(readFileSync(f, "utf8"))
      .map((d) => d.toJS() as Record<string, unknown> | null)
      .filter((v): v is Record<string, unknown> => v !== null)
      .map((value) => {
        const meta = value.metadata as { name: string; namespace?: string };
        return { kind: value.kind as string, id: `${meta.namespace ?? "default"}/${meta.name}`, value };
      }),
  );
}

/**
 * Each set, the kinds it has that no model reads, and the fields it must list as not modelled (read
 * from the manifests: a limit, a hostPort, an update strategy, an init container, a preStop hook, a
 * priority class, and references to objects a full install creates elsewhere: the kube-prometheus
 * namespace, service accounts, a ConfigMap and a Secret not optional).
 */
const SETS = [
  {
    set: "microservices-demo",
    dir: "microservices-demo",
    ignored: [] as string[],
    listed: ["Container.resources.limits"],
  },
  {
    set: "kube-prometheus",
    dir: "kube-prometheus",
    ignored: ["Alertmanager"],
    listed: [
      "ObjectMeta.namespace",
      "Container.resources.limits",
      "PodSpec.serviceAccountName",
      "Volume.configMap",
      "DaemonSetSpec.updateStrategy",
    ],
  },
  {
    set: "Argo CD",
    dir: "argo-cd",
    ignored: ["NetworkPolicy"],
    listed: ["PodSpec.serviceAccountName", "EnvVarSource.secretKeyRef", "Volume.configMap"],
  },
  // Its bootstrap init container runs before cockroachdb (test/kubelet/init-containers.test.ts).
  { set: "CockroachDB", dir: "cockroachdb/policy-v1", ignored: [], listed: [] },
  {
    set: "Cassandra",
    dir: "cassandra",
    ignored: [],
    listed: ["Container.resources.limits"],
  },
  // updateStrategy is read by the StatefulSet controller's rolling update (rollout-restart).
  { set: "ZooKeeper", dir: "zookeeper", ignored: [], listed: [] },
];

const WORKLOADS = ["Deployment", "StatefulSet", "DaemonSet", "ReplicaSet"];

describe.each(SETS)("$set", ({ dir, ignored, listed: expectedListed }) => {
  const objects = rawObjects(dir);

  it.each(Object.entries(CLUSTERS))(
    "on %s, every pod runs or carries the scheduler's own reason",
    (_, nodes) => {
      const s = load(dir, nodes);
      const json = runJson(s);
      const nodeCount = json.initial.nodes.length;
      for (const { kind, id, value } of objects.filter((o) => WORKLOADS.includes(o.kind))) {
        const spec = value.spec as { replicas?: number };
        const want = kind === "DaemonSet" ? nodeCount : (spec.replicas ?? 1);
        expect(
          json.initial.pods.filter((p) => p.owner === `${kind}/${id}`),
          `${kind}/${id}`,
        ).toHaveLength(want);
      }
      for (const p of json.initial.pods) {
        if (p.phase === "Running" && p.ready) continue;
        // kube-scheduler's FailedScheduling: "0/N nodes are available: <reasons>." (schedule_one.go FitError).
        expect(p, p.pod).toMatchObject({
          node: null,
          phase: "Pending",
          ready: false,
          reason: "Unschedulable",
        });
        expect(p.message, p.pod).toMatch(new RegExp(`^0/${nodeCount} nodes are available: .+\\.`));
      }
    },
  );

  it("three roomy nodes run every pod", () => {
    const json = runJson(load(dir, CLUSTERS["three nodes"]));
    expect(json.initial.pods.filter((p) => !(p.phase === "Running" && p.ready))).toEqual([]);
  });

  it("every object is modelled or listed as ignored, with its file and line", () => {
    const s = load(dir, CLUSTERS["three nodes"]);
    const json = runJson(s);
    expect(s.manifests.length + s.ignored.length).toBe(objects.length);
    expect((json.ignored ?? []).map((i) => i.kind)).toEqual(ignored);
    for (const i of json.ignored ?? []) expect(i.where).toMatch(/^test\/fixtures\/real\/.+\.yaml:\d+$/);
  });

  it("every field is read by a model, has no bearing, or is listed as not modelled with its file and line", () => {
    const s = load(dir, CLUSTERS["three nodes"]);
    const json = runJson(s);
    const listed = new Set((json.notModelled ?? []).map((n) => n.field));
    expect([...listed].sort()).toEqual([...expectedListed].sort());
    for (const n of json.notModelled ?? []) expect(n.where).toMatch(/^test\/fixtures\/real\/.+\.yaml:\d+$/);
    const ignoredKinds = new Set(ignored);
    for (const { kind, value } of objects.filter((o) => !ignoredKinds.has(o.kind)))
      for (const path of fieldPaths(kind, value)) {
        const c = classify(path);
        expect(c, `${kind} ${path}: no model reads it, and it is not classified here`).toBeDefined();
        if (c!.startsWith("listed as "))
          expect(listed, `${kind} ${path}`).toContain(c!.slice("listed as ".length));
      }
  });
});

it("the CockroachDB example as published: refused with the version to use, as the API server refuses it", () => {
  let error: unknown;
  try {
    load("cockroachdb/upstream", CLUSTERS["three nodes"]);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(LoadError);
  expect((error as LoadError).message).toBe(
    'test/fixtures/real/cockroachdb/upstream/cockroachdb-statefulset.yaml:57:13: apiVersion: no matches for kind "PodDisruptionBudget" in version "policy/v1beta1" (use apiVersion: policy/v1)',
  );
});

/** Leaf paths of an object, by API type: `PodSpec.volumes.configMap.name`, `Container.resources.limits.cpu`. */
function fieldPaths(kind: string, value: unknown): string[] {
  const out: string[] = [];
  const walk = (v: unknown, path: string) => {
    if (Array.isArray(v)) for (const x of v) walk(x, path);
    else if (v !== null && typeof v === "object" && Object.keys(v).length > 0)
      for (const [k, x] of Object.entries(v)) walk(x, path ? `${path}.${k}` : k);
    else out.push(path);
  };
  walk(value, "");
  const spec = WORKLOADS.includes(kind) ? "spec.template.spec" : kind === "Pod" ? "spec" : null;
  return out.map((p) => {
    let q = p;
    if (spec && (q === spec || q.startsWith(`${spec}.`))) q = `PodSpec${q.slice(spec.length)}`;
    else if (q.startsWith("spec.template.metadata"))
      q = `ObjectMeta${q.slice("spec.template.metadata".length)}`;
    else if (q.startsWith("spec.")) q = `${kind}Spec${q.slice("spec".length)}`;
    q = q.replace(/^metadata/, "ObjectMeta").replace(/^PodSpec\.containers\./, "Container.");
    return q;
  });
}

/** A path's class: the longest entry of FIELDS that is the path or a prefix of it. */
function classify(path: string): string | undefined {
  let best: string | undefined;
  for (const prefix of Object.keys(FIELDS))
    if ((path === prefix || path.startsWith(`${prefix}.`)) && (!best || prefix.length > best.length))
      best = prefix;
  return best === undefined ? undefined : FIELDS[best];
}

const MODELLED = "modelled";
/**
 * The fields these sets use, by API type. "modelled": a model reads it; "no bearing: …": valid, read
 * by no model, and without effect on what a failure does (why); "listed as F": valid, with an effect
 * faultline does not model, so it must be in `notModelled` as F; "a reference": modelled when the
 * object it names is among the manifests, listed (references.ts) when it is not.
 */
const FIELDS: Record<string, string> = {
  apiVersion: MODELLED,
  kind: MODELLED,
  "ObjectMeta.name": MODELLED,
  "ObjectMeta.namespace": "a reference",
  "ObjectMeta.labels": MODELLED,
  "ObjectMeta.annotations":
    "no bearing: the annotations these sets carry are read by tools (kubectl's default container, Prometheus' scrape settings)",
  // Removed in 1.24 (kubernetes#108020) and never read by the EndpointSlice controller.
  "ObjectMeta.annotations.service.alpha.kubernetes.io/tolerate-unready-endpoints":
    "no bearing: Kubernetes no longer reads it",
  "DeploymentSpec.replicas": MODELLED,
  "DeploymentSpec.selector": MODELLED,
  "DaemonSetSpec.selector": MODELLED,
  "DaemonSetSpec.updateStrategy": "listed as DaemonSetSpec.updateStrategy",
  "StatefulSetSpec.replicas": MODELLED,
  "StatefulSetSpec.selector": MODELLED,
  "StatefulSetSpec.serviceName": MODELLED,
  "StatefulSetSpec.podManagementPolicy": MODELLED,
  "StatefulSetSpec.updateStrategy": MODELLED,
  "StatefulSetSpec.volumeClaimTemplates.metadata.name": MODELLED,
  "StatefulSetSpec.volumeClaimTemplates.spec": MODELLED,
  "StatefulSetSpec.volumeClaimTemplates.metadata.annotations.volume.beta.kubernetes.io/storage-class":
    MODELLED,
  // GetPersistentVolumeClaimClass reads only the beta annotation.
  "StatefulSetSpec.volumeClaimTemplates.metadata.annotations.volume.alpha.kubernetes.io/storage-class":
    "no bearing: Kubernetes no longer reads it",
  PodDisruptionBudgetSpec: MODELLED,
  "ServiceSpec.selector": MODELLED,
  "ServiceSpec.type": MODELLED,
  "ServiceSpec.clusterIP":
    "no bearing: callers reach a Service's ready endpoints whatever its address, or none",
  "ServiceSpec.ports": "no bearing: the endpoints of a Service are its ready pods, whatever the ports",
  provisioner: MODELLED,
  parameters: "no bearing: the provisioner's own settings (disk type)",
  "PodSpec.affinity": MODELLED,
  "PodSpec.nodeSelector": MODELLED,
  "PodSpec.tolerations": MODELLED,
  "PodSpec.terminationGracePeriodSeconds": MODELLED,
  "PodSpec.hostNetwork": MODELLED,
  "PodSpec.restartPolicy": MODELLED,
  "PodSpec.priorityClassName": MODELLED,
  "PodSpec.initContainers": MODELLED,
  "PodSpec.serviceAccountName": "a reference",
  "PodSpec.automountServiceAccountToken": "no bearing: what the pod can read from the API",
  "PodSpec.hostPID": "no bearing: which processes the pod sees",
  "PodSpec.securityContext": "no bearing: the user and file system group the containers run as",
  "PodSpec.volumes.name": MODELLED,
  "PodSpec.volumes.persistentVolumeClaim": MODELLED,
  "PodSpec.volumes.emptyDir": MODELLED,
  "PodSpec.volumes.hostPath":
    "no bearing: a path on whichever node the pod runs on, nothing to attach or detach",
  "PodSpec.volumes.configMap": "a reference",
  "PodSpec.volumes.secret": "a reference",
  "Container.name": MODELLED,
  "Container.image": MODELLED,
  "Container.imagePullPolicy":
    "no bearing: a container's start time is the scenario's behaviour (bootSeconds)",
  "Container.args": "no bearing: the process's own arguments",
  "Container.command": "no bearing: the process's own command",
  "Container.env": "no bearing: the process's own environment",
  "Container.env.valueFrom.configMapKeyRef": "a reference",
  "Container.env.valueFrom.secretKeyRef": "a reference",
  "Container.workingDir": "no bearing: the process's working directory",
  "Container.securityContext": "no bearing: the process's privileges",
  "Container.volumeMounts": "no bearing: where the pod's volumes appear inside the container",
  "Container.terminationMessagePath": "no bearing: where the container's last words are read",
  "Container.terminationMessagePolicy": "no bearing: where the container's last words are read",
  "Container.ports.containerPort":
    "no bearing: the endpoints of a Service are its ready pods, whatever the ports",
  "Container.ports.name": "no bearing: the endpoints of a Service are its ready pods, whatever the ports",
  "Container.ports.hostPort": MODELLED,
  "Container.ports.hostIP": MODELLED,
  "Container.ports.protocol": MODELLED,
  "Container.resources.requests": MODELLED,
  "Container.resources.limits": "listed as Container.resources.limits",
  "Container.livenessProbe": MODELLED,
  "Container.readinessProbe": MODELLED,
  "Container.lifecycle.preStop": MODELLED,
};
