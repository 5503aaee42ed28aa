// Issue 9, "Never silent again": the state at t=0 is shown, not assumed. Every pod that is not
// Running and Ready when the run begins is in `initial.pods` with its reason (the scheduler's own
// message for a pod it cannot place, the container's CrashLoopBackOff), and in the text's
// "Starting state".

import { describe, expect, it } from "vitest";
import { formatTimeline } from "../../src/report/text.ts";
import { run, scenario } from "../helpers/sim.ts";

const base = (manifests: string, extra = "") => `
name: initial
kubernetesVersion: "1.32"
duration: 1m
nodes:
  - {name: worker-1, zone: a}
  - {name: worker-2, zone: b}
${extra}
manifests:
${manifests}
`;

const web = `
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: web}
    spec:
      replicas: 2
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec:
          containers: [{name: web, image: "nginx:1.27"}]
  - apiVersion: v1
    kind: Service
    metadata: {name: web}
    spec: {selector: {app: web}, ports: [{port: 80}]}`;

describe("initial state", () => {
  it("lists every node, every pod with its owner, and each Service's ready endpoints", () => {
    const r = run(scenario(base(web)));
    expect(r.initial.nodes.map((n) => [n.name, n.zone, n.status])).toEqual([
      ["worker-1", "a", "Ready"],
      ["worker-2", "b", "Ready"],
    ]);
    expect(r.initial.pods).toHaveLength(2);
    for (const p of r.initial.pods) {
      expect(p).toMatchObject({ phase: "Running", ready: true, owner: "Deployment/default/web" });
      expect(p.reason).toBeUndefined();
    }
    expect(r.initial.endpoints).toEqual([
      {
        service: "default/web",
        ready: 2,
        total: 2,
        pods: r.initial.pods.map((p) => ({ pod: p.pod, ready: true })),
      },
    ]);
  });

  it("a pod the scheduler cannot place: Pending with the scheduler's own message", () => {
    const s = scenario(
      base(`
  - apiVersion: v1
    kind: Pod
    metadata: {name: gpu}
    spec:
      nodeSelector: {accelerator: nvidia}
      containers: [{name: app, image: "busybox"}]`),
    );
    const r = run(s);
    const pod = r.initial.pods.find((p) => p.pod === "default/gpu");
    expect(pod).toMatchObject({ node: null, phase: "Pending", ready: false, owner: "Pod/default/gpu" });
    expect(pod?.reason).toBe("Unschedulable");
    expect(pod?.message).toMatch(
      /^0\/2 nodes are available: 2 node\(s\) didn't match Pod's node affinity\/selector/,
    );
    expect(formatTimeline(r, s)).toContain(
      `  not Running and Ready at t=0: gpu Pending on no node: Unschedulable (${pod?.message})`,
    );
  });

  it("a container that keeps failing its liveness probe: CrashLoopBackOff", () => {
    const s = scenario(
      base(
        `
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: app}
    spec:
      replicas: 1
      selector: {matchLabels: {app: app}}
      template:
        metadata: {labels: {app: app}}
        spec:
          containers:
            - name: app
              image: busybox
              livenessProbe: {httpGet: {path: /, port: 80}, periodSeconds: 1, failureThreshold: 1}`,
        "behaviour:\n  app: {bootSeconds: 100000}",
      ),
    );
    const r = run(s);
    const [pod] = r.initial.pods;
    expect(pod).toMatchObject({ ready: false, owner: "Deployment/default/app" });
    expect(pod?.reason).toBe("CrashLoopBackOff");
    expect(formatTimeline(r, s)).toMatch(
      /not Running and Ready at t=0: app-\S+ Running on worker-\d: CrashLoopBackOff/,
    );
  });

  it("a pod whose claim does not exist: Pending, turned away by the scheduler's VolumeBinding PreFilter with the API's NotFound", () => {
    const s = scenario(
      base(`
  - apiVersion: v1
    kind: Pod
    metadata: {name: db}
    spec:
      containers: [{name: app, image: "busybox"}]
      volumes: [{name: data, persistentVolumeClaim: {claimName: data}}]`),
    );
    const r = run(s);
    expect(r.initial.pods).toMatchObject([
      { pod: "default/db", node: null, phase: "Pending", ready: false, reason: "Unschedulable" },
    ]);
    expect(r.initial.pods[0]?.message).toMatch(
      /^0\/\d+ nodes are available: persistentvolumeclaim "data" not found\. preemption: /,
    );
  });
});
