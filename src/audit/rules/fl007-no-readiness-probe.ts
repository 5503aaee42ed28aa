// FL007: no readiness probe on a Service backend. Without one the kubelet reports the container
// ready as soon as it starts (pkg/kubelet/prober/prober_manager.go: no readiness worker, so
// UpdatePodStatus sets ready once the container is running), and the EndpointSlice controller puts
// the pod in the Service at once: a replacement after a drain or an eviction takes requests before
// the application answers. The experiment: a caller on the Service (100 requests/s from inside the
// cluster, a new connection for each, so that requests reach a new endpoint), the application booting in the scenario's `behaviour.bootSeconds` or, when it has none,
// an assumed 10s, and a drain of the node with most of its pods.

import type { Workload } from "../state.ts";
import type { Patch } from "../types.ts";
import {
  type Draft,
  effectOf,
  type Rule,
  type RuleInput,
  type RunSpec,
  servicesOf,
  shortEffect,
  when,
} from "./rule.ts";

/** The boot the experiment assumes when the scenario's behaviour gives none. */
export const ASSUMED_BOOT_SECONDS = 10;

/** A caller on `service` at 100 requests/s from inside the cluster, and a boot if none is known. */
export function callerPatches(
  input: RuleInput,
  w: Workload,
  service: string,
): { patches: Patch[]; assumed: boolean } {
  const patches: Patch[] = [
    { path: "traffic", value: [{ service, rate: 100, entry: "cluster-ip", keepAlive: false }] },
  ];
  const known = input.scenario.behaviour[w.name]?.bootSeconds !== undefined;
  if (!known) patches.push({ path: `behaviour["${w.name}"].bootSeconds`, value: ASSUMED_BOOT_SECONDS });
  return { patches, assumed: !known };
}

function candidates(input: RuleInput): { w: Workload; service: string }[] {
  const out: { w: Workload; service: string }[] = [];
  for (const w of input.objects.workloads) {
    if (w.kind === "DaemonSet" || w.kind === "Pod" || w.replicas < 2) continue;
    if (w.spec.containers.some((c) => c.readinessProbe)) continue;
    const svc = servicesOf(input.objects, w.id).find((s) => !s.headless);
    if (svc) out.push({ w, service: svc.id });
  }
  return out;
}

function experiment(input: RuleInput, w: Workload, patches: Patch[]): RunSpec {
  return {
    id: `x/boot/${w.id}`,
    fault: { class: "drain", target: "", nodes: [], at: input.faultAt },
    patches,
    retarget: { workload: w.id, class: "drain" },
  };
}

export const FL007: Rule = {
  id: "FL007",
  name: "no-readiness-probe",
  title: "No readiness probe on a Service backend",
  severity: "warning",
  // At most one fix per candidate (a workload without readiness probe behind a Service).
  fixes: (input) => candidates(input).length,
  experiments(input) {
    return candidates(input).map(({ w, service }) =>
      experiment(input, w, callerPatches(input, w, service).patches),
    );
  },
  check(input, runs) {
    const out: Draft[] = [];
    for (const { w, service } of candidates(input)) {
      const run = runs.get(`x/boot/${w.id}`);
      const f = run?.services[service];
      if (!run || !f?.lost) continue;
      const { patches, assumed } = callerPatches(input, w, service);
      const boot = assumed ? ASSUMED_BOOT_SECONDS : input.scenario.behaviour[w.name]!.bootSeconds!;
      const c = w.spec.containers[0]!;
      const port = c.ports?.[0]?.containerPort;
      const probe =
        port !== undefined
          ? { tcpSocket: { port }, periodSeconds: 2 }
          : (c.livenessProbe ?? { tcpSocket: { port: 80 }, periodSeconds: 2 });
      const {
        terminationGracePeriodSeconds: _t,
        initialDelaySeconds: _i,
        ...handler
      } = probe as Record<string, unknown>;
      out.push({
        object: w.id,
        field: `${w.specPath}.containers[name=${c.name}]`,
        severity: "warning",
        message: `${w.kind} ${w.namespace}/${w.name} backs Service ${service} with no readiness probe: a new pod takes requests as soon as its container starts`,
        consequence: {
          run: run.id,
          text: `with a caller at 100 requests/s and a boot of ${boot}s${assumed ? " (assumed: give yours as behaviour.bootSeconds in a --scenario)" : ""}, ${when(run.fault)}, ${effectOf("service", service, f)}`,
          figures: f,
        },
        fix: {
          text: `a readinessProbe on container ${c.name} (${port !== undefined ? `tcpSocket :${port}` : "its liveness check"}, periodSeconds 2)`,
          spec: {
            ...experiment(input, w, [
              ...patches,
              {
                object: w.id,
                path: `${w.specPath}.containers[name=${c.name}].readinessProbe`,
                value: handler,
              },
            ]),
            id: `fix/FL007/${w.id}`,
          },
          subject: { kind: "service", id: service },
          effect: (g, r) => `${when(r.fault)}: ${shortEffect("service", g)}`,
        },
      });
    }
    return out;
  },
};
