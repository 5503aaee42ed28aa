// KEP-5307 container restart rules (ContainerRestartRules: alpha and off in 1.34, beta and on in
// 1.35): an app container's own restartPolicy overrides the pod's, and the first of its
// restartPolicyRules whose exit codes match restarts it (pkg/api/v1/pod ContainerShouldRestart).
// Before 1.35 the API server drops both fields: the pod's restartPolicy decides, and faultline lists
// them as not modelled.

import { describe, expect, it } from "vitest";
import { eventsOf, run, scenario } from "../helpers/sim.ts";

function pod(version: string, podPolicy: string, container: string, exitCode: number) {
  return scenario(`kubernetesVersion: "${version}"
duration: 2m
start: created
nodes: [{name: worker-1}]
manifests:
  - apiVersion: v1
    kind: Pod
    metadata: {name: job}
    spec:
      restartPolicy: ${podPolicy}
      containers:
        - name: work
          image: example/work:1
${container}
behaviour:
  job: {exitAfterSeconds: 5, exitCode: ${exitCode}}
`);
}

const RULES = `          restartPolicy: Never
          restartPolicyRules:
            - action: Restart
              exitCodes: {operator: In, values: [42]}`;

describe("restartPolicyRules", () => {
  it("1.35: exit code 42 matches the rule: restarted in place although the pod and container say Never", () => {
    const r = run(pod("1.35", "Never", RULES, 42));
    const starts = eventsOf(r, "ContainerStarted");
    expect(starts.length).toBeGreaterThan(1);
    expect(starts[1]).toMatchObject({
      start: "restart",
      restartPolicy: "Never, restartPolicyRules: Restart on exit code 42",
    });
  });

  it("1.35: exit code 1 matches no rule: the container's Never holds and the pod fails", () => {
    const r = run(pod("1.35", "Never", RULES, 1));
    expect(eventsOf(r, "ContainerStarted")).toHaveLength(1);
    expect(r.summary.pods[0]).toMatchObject({ status: "Error" });
  });

  it("1.34: the fields are dropped (listed as not modelled); the pod's Never decides", () => {
    const s = pod("1.34", "Never", RULES, 42);
    expect(s.notModelled.map((n) => n.field)).toEqual([
      "Container.restartPolicy",
      "Container.restartPolicyRules",
    ]);
    expect(eventsOf(run(s), "ContainerStarted")).toHaveLength(1);
  });
});

describe("a container's own restartPolicy", () => {
  it.each([
    ["1.34", 2],
    ["1.35", 1],
  ])("%s: container OnFailure in a pod Always, exit 0: started %i time(s) in 12s", (version, times) => {
    const r = run({ ...pod(version, "Always", "          restartPolicy: OnFailure", 0), duration: 12 });
    expect(eventsOf(r, "ContainerStarted")).toHaveLength(times);
  });
});
