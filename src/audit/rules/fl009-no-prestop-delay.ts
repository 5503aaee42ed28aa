// FL009: no preStop delay while endpoint removal lags SIGTERM. A deleted pod's containers get SIGTERM
// at once (after a preStop hook, if any: kuberuntime_container.go killContainer), while each node's
// kube-proxy drops the endpoint only when it sees the EndpointSlice change and syncs its rules: for
// that lag, callers are still sent to a process that has stopped listening (refused). A preStop sleep
// of a few seconds keeps the process serving until the rules have caught up (the sleep action,
// KEP-3960, beta and on by default in 1.30). Measured on the sweep's drains, which need callers:
// --traffic rate=100, or a scenario with a traffic section.

import {
  DEFAULT_TERMINATION_GRACE_PERIOD,
  minor,
  POD_LIFECYCLE_SLEEP_ACTION_SINCE_MINOR,
} from "../../kubernetes/defaults.ts";
import {
  brokenWithoutFault,
  consequenceOf,
  type Draft,
  faultRuns,
  type Rule,
  refault,
  servicesOf,
} from "./rule.ts";

const PRESTOP_SECONDS = 5;

export const FL009: Rule = {
  id: "FL009",
  name: "no-prestop-delay",
  title: "No preStop delay while endpoint removal lags SIGTERM",
  severity: "warning",
  // With callers only, at most one fix per workload of two or more replicas without preStop everywhere.
  fixes: (input) =>
    input.traffic
      ? input.objects.workloads.filter(
          (w) =>
            w.kind !== "DaemonSet" &&
            w.kind !== "Pod" &&
            w.replicas >= 2 &&
            !w.spec.containers.every((c) => c.lifecycle?.preStop),
        ).length
      : 0,
  check(input, runs) {
    const out: Draft[] = [];
    if (!input.traffic) return out;
    const drains = faultRuns(runs).filter((r) => r.fault.class === "drain");
    const sleepAction = minor(input.scenario.kubernetesVersion) >= POD_LIFECYCLE_SLEEP_ACTION_SINCE_MINOR;
    for (const w of input.objects.workloads) {
      if (w.kind === "DaemonSet" || w.kind === "Pod" || w.replicas < 2) continue;
      if (w.spec.containers.every((c) => c.lifecycle?.preStop)) continue;
      for (const svc of servicesOf(input.objects, w.id)) {
        if (brokenWithoutFault(runs, "service", svc.id)) continue;
        const worst = drains
          .filter((r) => (r.services[svc.id]?.lost ?? 0) > 0 && (r.services[svc.id]?.outage ?? 0) === 0)
          .sort((a, b) => (b.services[svc.id]!.lost ?? 0) - (a.services[svc.id]!.lost ?? 0))[0];
        if (!worst) continue;
        const _f = worst.services[svc.id]!;
        // A sleep action may not be longer than the grace period (validateSleepAction).
        const grace = w.spec.terminationGracePeriodSeconds ?? DEFAULT_TERMINATION_GRACE_PERIOD;
        const pause = Math.min(PRESTOP_SECONDS, grace);
        const hook = sleepAction
          ? { sleep: { seconds: pause } }
          : { exec: { command: ["sleep", String(pause)] } };
        const patches = w.spec.containers
          .filter((c) => !c.lifecycle?.preStop)
          .map((c) => ({
            object: w.id,
            path: `${w.specPath}.containers[name=${c.name}].lifecycle.preStop`,
            value: hook,
          }));
        const c = w.spec.containers.find((x) => !x.lifecycle?.preStop)!;
        out.push({
          object: w.id,
          field: `${w.specPath}.containers[name=${c.name}]`,
          severity: "warning",
          message: `${w.kind} ${w.namespace}/${w.name} stops serving at SIGTERM while Service ${svc.id} still routes to it`,
          consequence: consequenceOf(worst, "service", svc.id),
          fix: refault(
            "FL009",
            w.id,
            worst,
            input.faultAt,
            `lifecycle.preStop ${sleepAction ? `sleep: {seconds: ${pause}}` : `exec: sleep ${pause}`} on each container (inside the ${grace}s grace period)`,
            patches,
            { kind: "service", id: svc.id },
          ),
        });
        break;
      }
    }
    return out;
  },
};
