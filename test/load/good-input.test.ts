// Valid scenarios load into the documented Scenario shape, with defaults applied.

import { describe, expect, it } from "vitest";
import type { Container, Deployment, Pod, StatefulSet } from "../../src/kubernetes/objects.ts";
import { NEWEST_VERSION } from "../../src/scenario/types.ts";
import { load } from "./helpers.ts";

const GiB = 2 ** 30;
const NODES = "nodes: [{name: worker-1, zone: a}, {name: worker-2, zone: b}]\n";

const WEB = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 3
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
        - name: web
          image: nginx:1.27
          resources:
            requests: {cpu: 250m, memory: 64Mi}
            limits: {memory: 128Mi}
          readinessProbe:
            httpGet: {path: /healthz, port: http}
            periodSeconds: 5
          livenessProbe:
            exec: {command: [sh, -c, "rm -rf / # never run"]}
          ports: [{name: http, containerPort: 8080}]
`;

const DB = `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: data}
spec:
  serviceName: db
  replicas: 3
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: postgres, image: postgres}]
  volumeClaimTemplates:
    - metadata: {name: data}
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
`;

describe("the scenario file", () => {
  it("loads the issue's example with every default", () => {
    const s = load(
      `name: node-power-loss
kubernetesVersion: "1.32"
seed: 7
duration: 25m
start: created
nodes:
  - {name: worker-1, zone: a, labels: {disk: ssd}, capacity: {cpu: "4", memory: 16Gi, pods: 110}, taints: []}
  - {name: worker-2, zone: b, region: eu-1, taints: [{key: dedicated, value: db, effect: NoSchedule}]}
manifests:
  - web.yaml
controlPlane:
  nodeMonitorGracePeriod: 50s
  nodeEvictionRate: 0.1
  largeClusterSizeThreshold: 50
  disableForceDetachOnTimeout: true
kubelet:
  nodeLeaseDurationSeconds: 40
  nodeStatusUpdateFrequency: 10s
  probeSchedule: period-end
behaviour:
  web: {bootSeconds: 24, readyAfterSeconds: 40, exitCode: 1}
  web/web: {shutdownSeconds: 5s}
timeline:
  - {at: 10s, do: power-off, node: worker-2}
  - {at: 21m, do: force-delete-pod, pod: default/web-7d4b9-x2x}
  - {at: 120s, do: deadlock, pod: "Deployment/web[0]"}
traffic:
  - {service: default/web, rate: 100}
`,
      {
        "web.yaml": `${WEB}\n---\napiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec: {selector: {app: web}}\n`,
      },
    );
    expect(s.name).toBe("node-power-loss");
    expect(s.file).toBe("scenario.yaml");
    expect(s.kubernetesVersion).toBe("1.32");
    expect(s.seed).toBe(7);
    expect(s.duration).toBe(1500);
    expect(s.start).toBe("created");
    expect(s.nodes).toEqual([
      {
        name: "worker-1",
        zone: "a",
        labels: { disk: "ssd", "kubernetes.io/hostname": "worker-1", "topology.kubernetes.io/zone": "a" },
        capacity: { cpu: 4, memory: 16 * GiB, pods: 110 },
        taints: [],
      },
      {
        name: "worker-2",
        zone: "b",
        region: "eu-1",
        labels: {
          "kubernetes.io/hostname": "worker-2",
          "topology.kubernetes.io/zone": "b",
          "topology.kubernetes.io/region": "eu-1",
        },
        capacity: { cpu: 4, memory: 16 * GiB, pods: 110 },
        taints: [{ key: "dedicated", value: "db", effect: "NoSchedule" }],
      },
    ]);
    expect(s.controlPlane).toEqual({
      nodeMonitorGracePeriod: 50,
      nodeEvictionRate: 0.1,
      largeClusterSizeThreshold: 50,
      disableForceDetachOnTimeout: true,
    });
    expect(s.kubelet).toEqual({
      nodeLeaseDurationSeconds: 40,
      nodeStatusUpdateFrequency: 10,
      probeSchedule: "period-end",
    });
    expect(s.behaviour).toEqual({
      web: { bootSeconds: 24, readyAfterSeconds: 40, exitCode: 1 },
      "web/web": { shutdownSeconds: 5 },
    });
    expect(s.timeline.map((t) => [t.at, t.do, t.node ?? t.pod])).toEqual([
      [10, "power-off", "worker-2"],
      [120, "deadlock", "Deployment/web[0]"],
      [1260, "force-delete-pod", "default/web-7d4b9-x2x"],
    ]);
    expect(s.timeline[0]!.pos).toEqual({ file: "scenario.yaml", line: 24, col: 5 });
    expect(s.extra).toEqual({});
    expect(s.traffic).toMatchObject([
      {
        service: "default/web",
        rate: 100,
        clients: 1,
        keepAlive: true,
        // a client opens another connection when all are busy, and keeps each alive
        client: "on-demand",
        poolSize: Number.POSITIVE_INFINITY,
        maxIdle: Number.POSITIVE_INFINITY,
        idleTimeout: Number.POSITIVE_INFINITY,
        multiplexed: false,
        closedLoop: false,
        timeout: 30,
        retries: 0,
      },
    ]);
  });

  it("applies the defaults: name from the file, newest version, seed 1, start running, no overrides", () => {
    const s = load(`duration: 90\n${NODES}`, {}, "examples/node-power-loss.yaml");
    expect(s).toMatchObject({
      name: "node-power-loss",
      file: "examples/node-power-loss.yaml",
      kubernetesVersion: NEWEST_VERSION,
      seed: 1,
      duration: 90,
      start: "running",
      manifests: [],
      ignored: [],
      controlPlane: {},
      kubelet: {},
      behaviour: {},
      timeline: [],
      extra: {},
    });
  });

  it.each([
    ['"1.32"', "1.32"],
    ["1.32", "1.32"],
    ["1.30", "1.30"], // YAML reads 1.30 as 1.3; the source text is used
    ['"1.30"', "1.30"],
    ["1.28", "1.28"],
    ['"v1.31"', "1.31"],
    ['"1.33.2"', "1.33"],
  ])("kubernetesVersion: %s → %s", (written, version) => {
    expect(load(`kubernetesVersion: ${written}\nduration: 1m\n${NODES}`).kubernetesVersion).toBe(version);
  });

  it.each([
    ["15m", 900],
    ["1m30s", 90],
    ["500ms", 0.5],
    ["2h", 7200],
    ["168h", 604800],
    ["45", 45],
    ["12.5", 12.5],
  ])("duration: %s → %d s", (written, seconds) => {
    expect(load(`duration: ${written}\n${NODES}`).duration).toBe(seconds);
  });

  it("builds nodes from {count, zones}: worker-1…, zones round-robin, shared capacity and labels", () => {
    const s = load(
      "duration: 1m\nnodes: {count: 5, zones: [a, b, c], region: r, capacity: {cpu: 8, memory: 32Gi}, labels: {pool: x}}\n",
    );
    expect(s.nodes.map((n) => [n.name, n.zone])).toEqual([
      ["worker-1", "a"],
      ["worker-2", "b"],
      ["worker-3", "c"],
      ["worker-4", "a"],
      ["worker-5", "b"],
    ]);
    expect(s.nodes[4]).toEqual({
      name: "worker-5",
      zone: "b",
      region: "r",
      labels: {
        pool: "x",
        "kubernetes.io/hostname": "worker-5",
        "topology.kubernetes.io/zone": "b",
        "topology.kubernetes.io/region": "r",
      },
      capacity: { cpu: 8, memory: 32 * GiB, pods: 110 },
      taints: [],
    });
  });

  it("builds nodes from {count} without zones", () => {
    const s = load("duration: 1m\nnodes: {count: 2}\n");
    expect(s.nodes.map((n) => [n.name, n.zone, n.labels])).toEqual([
      ["worker-1", undefined, { "kubernetes.io/hostname": "worker-1" }],
      ["worker-2", undefined, { "kubernetes.io/hostname": "worker-2" }],
    ]);
  });

  it("takes a node's zone from its topology label when no zone is given", () => {
    const s = load('duration: 1m\nnodes: [{name: n1, labels: {"topology.kubernetes.io/zone": z9}}]\n');
    expect(s.nodes[0]!.zone).toBe("z9");
  });

  it("accepts a single manifest path without a list", () => {
    const s = load(`duration: 1m\n${NODES}manifests: web.yaml\n`, { "web.yaml": WEB });
    expect(s.manifests.map((m) => m.object.metadata.name)).toEqual(["web"]);
  });

  it("accepts YAML anchors, aliases and merge keys", () => {
    const s = load(
      "duration: 1m\nnodes:\n  - &base {name: worker-1, zone: a, capacity: {cpu: 8}}\n  - {<<: *base, name: worker-2}\n",
    );
    expect(s.nodes.map((n) => [n.name, n.zone, n.capacity.cpu])).toEqual([
      ["worker-1", "a", 8],
      ["worker-2", "a", 8],
    ]);
  });

  it("accepts exactly 5,000 nodes", () => {
    expect(load("duration: 1m\nnodes: {count: 5000}\n").nodes).toHaveLength(5000);
  });

  it.each([
    ["cpu: 500m", { cpu: 0.5 }],
    ['cpu: "4"', { cpu: 4 }],
    ["cpu: 2", { cpu: 2 }],
    ["memory: 16Gi", { memory: 16 * GiB }],
    ["memory: 512Mi", { memory: 512 * 2 ** 20 }],
    ["memory: 1G", { memory: 1e9 }],
    ["memory: 16G", { memory: 16e9 }],
    ["memory: 1073741824", { memory: GiB }],
    ["pods: 20", { pods: 20 }],
  ])("node capacity %s", (written, expected) => {
    const s = load(`duration: 1m\nnodes: [{name: n1, capacity: {${written}}}]\n`);
    expect(s.nodes[0]!.capacity).toEqual({ cpu: 4, memory: 16 * GiB, pods: 110, ...expected });
  });

  it("sorts the timeline by time, keeping the file's order for equal times", () => {
    const s = load(
      `duration: 1h\n${NODES}timeline:
  - {at: 30s, do: power-on, node: worker-1}
  - {at: 10s, do: cordon, node: worker-2}
  - {at: 30s, do: power-off, node: worker-2}
  - {at: 0, do: drain, node: worker-1}
  - {at: 10s, do: uncordon, node: worker-1}
`,
    );
    expect(s.timeline.map((t) => `${t.at}:${t.do}`)).toEqual([
      "0:drain",
      "10:cordon",
      "10:uncordon",
      "30:power-on",
      "30:power-off",
    ]);
  });

  // Built by concatenation: the text is a literal dollar-brace placeholder, not a template.
  const name = "$" + "{NAME}";
  const image = "$" + "{IMAGE}:$(TAG)";
  it("keeps placeholders such as $-brace and $(…) as they are, never evaluated", () => {
    const s = load(`name: "${name}"\nduration: 1m\n${NODES}manifests: [p.yaml]\n`, {
      "p.yaml": `apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: "${image}"}]\n`,
    });
    expect(s.name).toBe(name);
    expect((s.manifests[0]!.object as Pod).spec.containers[0]!.image).toBe(image);
  });
});

describe("manifests", () => {
  it("types a Deployment: namespace default, requests parsed, limits default requests, probes as given", () => {
    const s = load(`duration: 1m\n${NODES}manifests: [web.yaml]\n`, { "web.yaml": WEB });
    expect(s.manifests).toHaveLength(1);
    const m = s.manifests[0]!;
    expect(m.kind).toBe("Deployment");
    expect(m.pos).toEqual({ file: "web.yaml", line: 1, col: 1 });
    const d = m.object as Deployment;
    expect(d.metadata).toEqual({ name: "web", namespace: "default" });
    expect(d.spec.replicas).toBe(3);
    expect(d.spec.selector).toEqual({ matchLabels: { app: "web" } });
    expect(d.spec.template.metadata).toEqual({ labels: { app: "web" } });
    const c = d.spec.template.spec.containers[0] as Container;
    expect(c).toEqual({
      name: "web",
      image: "nginx:1.27",
      ports: [{ name: "http", containerPort: 8080 }],
      resources: {
        requests: { cpu: 0.25, memory: 64 * 2 ** 20 },
        limits: { memory: 128 * 2 ** 20 },
      },
      readinessProbe: { httpGet: { path: "/healthz", port: "http" }, periodSeconds: 5 },
      livenessProbe: { exec: { command: ["sh", "-c", "rm -rf / # never run"] } },
    });
  });

  it("defaults replicas to 1 and requests to limits", () => {
    const s = load(`duration: 1m\n${NODES}manifests: [d.yaml]\n`, {
      "d.yaml": `apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: rs}
spec:
  selector: {matchExpressions: [{key: app, operator: In, values: [rs, other]}]}
  template:
    metadata: {labels: {app: rs}}
    spec:
      containers: [{name: c, resources: {limits: {cpu: "1", memory: 1Gi}}}]
`,
    });
    const rs = s.manifests[0]!.object;
    expect(rs.kind).toBe("ReplicaSet");
    if (rs.kind !== "ReplicaSet") return;
    expect(rs.spec.replicas).toBe(1);
    expect(rs.spec.template.spec.containers[0]!.resources).toEqual({
      requests: { cpu: 1, memory: GiB },
      limits: { cpu: 1, memory: GiB },
    });
  });

  it("reads multi-document files, skipping empty documents, and expands Lists", () => {
    const s = load(`duration: 1m\n${NODES}manifests: [all.yaml]\n`, {
      "all.yaml": `---
# just a comment
---
${WEB}---
---
apiVersion: v1
kind: List
items:
  - apiVersion: v1
    kind: Service
    metadata: {name: web}
    spec: {selector: {app: web}, ports: [{port: 80, targetPort: http}]}
  - apiVersion: v1
    kind: ConfigMap
    metadata: {name: settings}
---
apiVersion: apps/v1
kind: DeploymentList
items: []
`,
    });
    expect(s.manifests.map((m) => `${m.kind}/${m.object.metadata.name}@${m.pos.line}:${m.pos.col}`)).toEqual([
      "Deployment/web@4:1",
      "Service/web@33:5",
    ]);
    expect(s.ignored).toMatchObject([
      { apiVersion: "v1", kind: "ConfigMap", name: "settings", pos: { file: "all.yaml", line: 37, col: 5 } },
    ]);
    // What faultline serve shows of it (src/serve/config-objects.ts).
    expect(s.ignored[0]!.view?.namespace).toBe("default");
  });

  it("reads every manifest of a folder, sorted by name, and JSON files", () => {
    const s = load(`duration: 1m\n${NODES}manifests: [k8s, extra/pdb.json]\n`, {
      "k8s/b-web.yaml": WEB,
      "k8s/a-db.yml": DB,
      "k8s/README.md": "# not a manifest",
      "extra/pdb.json": JSON.stringify({
        apiVersion: "policy/v1",
        kind: "PodDisruptionBudget",
        metadata: { name: "web" },
        spec: { minAvailable: "50%", selector: { matchLabels: { app: "web" } } },
      }),
    });
    expect(
      s.manifests.map(
        (m) => `${m.pos.file}:${m.kind}/${m.object.metadata.namespace}/${m.object.metadata.name}`,
      ),
    ).toEqual([
      "k8s/a-db.yml:StatefulSet/data/db",
      "k8s/b-web.yaml:Deployment/default/web",
      "extra/pdb.json:PodDisruptionBudget/default/web",
    ]);
    const db = s.manifests[0]!.object as StatefulSet;
    expect(db.spec.serviceName).toBe("db");
    expect(db.spec.volumeClaimTemplates).toEqual([
      { metadata: { name: "data" }, spec: { accessModes: ["ReadWriteOnce"], storage: 2 ** 30 } },
    ]);
  });

  it("keeps inline objects, positioned in the scenario file", () => {
    const s = load(
      `duration: 1m\n${NODES}manifests:\n  - apiVersion: v1\n    kind: PersistentVolumeClaim\n    metadata: {name: data}\n    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n`,
    );
    expect(s.manifests[0]).toMatchObject({
      kind: "PersistentVolumeClaim",
      pos: { file: "scenario.yaml", line: 4, col: 5 },
    });
  });

  it.each([
    ["networking.k8s.io/v1", "Ingress"],
    ["v1", "Secret"],
    ["v1", "ConfigMap"],
    ["monitoring.coreos.com/v1", "ServiceMonitor"],
    ["apiextensions.k8s.io/v1", "CustomResourceDefinition"],
    ["example.com/v1", "Deployment"], // someone's CRD with a built-in kind's name
    ["autoscaling/v2", "HorizontalPodAutoscaler"],
  ])("ignores %s %s, never rejecting it", (apiVersion, kind) => {
    const s = load(`duration: 1m\n${NODES}manifests: [x.yaml]\n`, {
      "x.yaml": `apiVersion: ${apiVersion}\nkind: ${kind}\nmetadata: {name: thing}\nspec: {anything: [goes, here]}\nwhatever: 1\n`,
    });
    expect(s.manifests).toEqual([]);
    expect(s.ignored.map(({ view: _served, ...o }) => o)).toEqual([
      { apiVersion, kind, name: "thing", pos: { file: "x.yaml", line: 1, col: 1 } },
    ]);
    // What faultline serve shows of a core ConfigMap or Secret: a Secret's keys and type, never its values.
    const view = {
      Secret: { namespace: "default", keys: [], type: "Opaque" },
      ConfigMap: { namespace: "default" },
    };
    expect(s.ignored[0]!.view).toEqual(apiVersion === "v1" ? view[kind as keyof typeof view] : undefined);
  });

  it("passes a realistic manifest with fields faultline does not model", () => {
    const s = load(`duration: 1m\n${NODES}manifests: [real.yaml]\n`, {
      "real.yaml": `apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
  namespace: shop
  labels: {app.kubernetes.io/name: api}
  annotations: {deployment.kubernetes.io/revision: "3"}
spec:
  replicas: 2
  revisionHistoryLimit: 5
  progressDeadlineSeconds: 600
  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 25%, maxUnavailable: 0}}
  selector: {matchLabels: {app.kubernetes.io/name: api}}
  template:
    metadata:
      labels: {app.kubernetes.io/name: api, version: "1.0"}
      annotations: {prometheus.io/scrape: "true"}
    spec:
      serviceAccountName: api
      securityContext: {runAsNonRoot: true}
      priorityClassName: high
      terminationGracePeriodSeconds: 45
      nodeSelector: {kubernetes.io/os: linux}
      tolerations:
        - {key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 30}
      affinity:
        podAntiAffinity:
          preferredDuringSchedulingIgnoredDuringExecution:
            - weight: 100
              podAffinityTerm: {topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {app.kubernetes.io/name: api}}}
      topologySpreadConstraints:
        - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: ScheduleAnyway}
      volumes:
        - {name: tmp, emptyDir: {}}
      initContainers:
        - name: migrate
          image: api:3
          command: [/migrate]
      containers:
        - name: api
          image: api:3
          imagePullPolicy: IfNotPresent
          args: [--port=8080]
          env: [{name: LOG, value: debug}]
          ports: [{containerPort: 8080, name: http, protocol: TCP}]
          resources: {requests: {cpu: 100m, memory: 128Mi, ephemeral-storage: 1Gi}}
          volumeMounts: [{name: tmp, mountPath: /tmp}]
          securityContext: {readOnlyRootFilesystem: true}
          startupProbe: {httpGet: {path: /started, port: http, scheme: HTTP, httpHeaders: [{name: X, value: y}]}, failureThreshold: 30, periodSeconds: 2}
          livenessProbe: {grpc: {port: 9090}, timeoutSeconds: 3, terminationGracePeriodSeconds: 10}
          readinessProbe: {tcpSocket: {port: 8080}, successThreshold: 2, initialDelaySeconds: 0}
          lifecycle: {preStop: {sleep: {seconds: 5}}}
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
description: the shop's front end
`,
    });
    const d = s.manifests[0]!.object as Deployment;
    expect(d.metadata.namespace).toBe("shop");
    const spec = d.spec.template.spec;
    expect(spec.terminationGracePeriodSeconds).toBe(45);
    expect(spec.serviceAccountName).toBe("api");
    expect(spec.tolerations).toEqual([
      {
        key: "node.kubernetes.io/unreachable",
        operator: "Exists",
        effect: "NoExecute",
        tolerationSeconds: 30,
      },
    ]);
    expect(spec.initContainers?.map((c) => c.name)).toEqual(["migrate"]);
    const c = spec.containers[0]!;
    // ephemeral-storage is kept by name: NodeResourcesFit compares it (noderesources/fit.go fitsRequest)
    expect(c.resources?.requests).toEqual({
      cpu: 0.1,
      memory: 128 * 2 ** 20,
      scalar: { "ephemeral-storage": 2 ** 30 },
    });
    expect(c.livenessProbe).toEqual({
      grpc: { port: 9090 },
      timeoutSeconds: 3,
      terminationGracePeriodSeconds: 10,
    });
    expect(c.readinessProbe).toEqual({
      tcpSocket: { port: 8080 },
      successThreshold: 2,
      initialDelaySeconds: 0,
    });
    expect(c.lifecycle).toEqual({ preStop: { sleep: { seconds: 5 } } });
  });
});

describe("timeline pod targets", () => {
  const files = {
    "apps.yaml": `${WEB}---
${DB}---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent, namespace: kube-system}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec: {containers: [{name: agent}]}
---
apiVersion: v1
kind: Pod
metadata: {name: solo}
spec: {containers: [{name: c}]}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web-api}
spec:
  selector: {matchLabels: {app: web-api}}
  template:
    metadata: {labels: {app: web-api}}
    spec: {containers: [{name: c}]}
`,
  };
  it.each([
    ["default/solo", { namespace: "default", kind: "Pod", workload: "solo", podName: "solo" }],
    ["data/db-2", { namespace: "data", kind: "StatefulSet", workload: "db", index: 2, podName: "db-2" }],
    [
      "default/web-7d4b9-x2x",
      { namespace: "default", kind: "Deployment", workload: "web", podName: "web-7d4b9-x2x" },
    ],
    [
      "default/web-api-5f-abc",
      { namespace: "default", kind: "Deployment", workload: "web-api", podName: "web-api-5f-abc" },
    ],
    [
      "kube-system/agent-q7x",
      { namespace: "kube-system", kind: "DaemonSet", workload: "agent", podName: "agent-q7x" },
    ],
    ["Deployment/web", { namespace: "default", kind: "Deployment", workload: "web" }],
    ["Deployment/web[2]", { namespace: "default", kind: "Deployment", workload: "web", index: 2 }],
    ["StatefulSet/db[0]", { namespace: "data", kind: "StatefulSet", workload: "db", index: 0 }],
    ["DaemonSet/agent[1]", { namespace: "kube-system", kind: "DaemonSet", workload: "agent", index: 1 }],
    ["Pod/solo", { namespace: "default", kind: "Pod", workload: "solo" }],
    ["Pod/solo[0]", { namespace: "default", kind: "Pod", workload: "solo", index: 0 }],
  ])("%s", (pod, target) => {
    const s = load(
      `duration: 1m\n${NODES}manifests: [apps.yaml]\ntimeline: [{at: 1s, do: crash, pod: "${pod}"}]\n`,
      files,
    );
    expect(s.timeline[0]).toMatchObject({ do: "crash", pod, target });
    expect(s.timeline[0]!.target).toEqual(target);
  });
});
