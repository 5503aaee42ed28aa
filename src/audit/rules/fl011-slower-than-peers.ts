// FL011: probe settings that make recovery slower than the Service's peers. After a drain the
// replacement is in the Service only once its readiness probe has passed: not before
// initialDelaySeconds, then at its period (pkg/kubelet/prober/worker.go; readiness starts as failure).
// A workload whose readiness waits much longer than the other Services' backends in the same
// namespace comes back last, and the sweep shows by how much. The fix sets its readiness timing to
// the peers' middle values and drains the same node again.

import type { Workload } from "../state.ts";
import {
  containerPath,
  type Draft,
  effectOf,
  faultRuns,
  fixRun,
  type Rule,
  servicesOf,
  shortEffect,
  when,
} from "./rule.ts";

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s[Math.floor((s.length - 1) / 2)]!;
};

function readinessDelay(w: Workload): { delay: number; period: number } | undefined {
  const r = w.spec.containers.find((c) => c.readinessProbe)?.readinessProbe;
  return r ? { delay: r.initialDelaySeconds ?? 0, period: r.periodSeconds ?? 10 } : undefined;
}

export const FL011: Rule = {
  id: "FL011",
  name: "slower-than-peers",
  title: "Probe settings that make recovery slower than the Service's peers",
  severity: "note",
  check(input, runs) {
    const out: Draft[] = [];
    const drains = faultRuns(runs).filter((r) => r.fault.class === "drain");
    const recovery = new Map<string, number>();
    for (const w of input.objects.workloads) {
      const svc = servicesOf(input.objects, w.id)[0];
      if (!svc || w.kind === "DaemonSet") continue;
      const times = drains
        .map((r) => r.workloads[w.id])
        .filter((f) => f && f.degraded > 0 && f.recovered !== null);
      if (times.length > 0) recovery.set(w.id, Math.max(...times.map((f) => f!.recovered!)));
    }
    for (const w of input.objects.workloads) {
      const mine = recovery.get(w.id);
      const r = readinessDelay(w);
      if (mine === undefined || !r) continue;
      const peers = input.objects.workloads.filter(
        (p) => p.id !== w.id && p.namespace === w.namespace && recovery.has(p.id),
      );
      if (peers.length < 2) continue;
      const m = median(peers.map((p) => recovery.get(p.id)!));
      const settings = peers.map(readinessDelay).filter((x) => x !== undefined);
      const delay = median(settings.map((s) => s!.delay));
      const period = median(settings.map((s) => s!.period));
      if (mine <= Math.max(2 * m, m + 30) || (r.delay <= delay && r.period <= period)) continue;
      const c = w.spec.containers.find((x) => x.readinessProbe)!;
      const worst = drains
        .filter((x) => x.workloads[w.id]?.recovered === mine)
        .sort((a, b) => (b.workloads[w.id]?.degraded ?? 0) - (a.workloads[w.id]?.degraded ?? 0))[0]!;
      const f = worst.workloads[w.id]!;
      const path = `${containerPath(w, c)}.readinessProbe`;
      out.push({
        object: w.id,
        field: path,
        severity: "note",
        message: `${w.kind} ${w.namespace}/${w.name} comes back after ${Math.round(mine)}s where its ${peers.length} peers in ${w.namespace} take ${Math.round(m)}s: readiness waits initialDelaySeconds ${r.delay}, periodSeconds ${r.period} (peers: ${delay}, ${period})`,
        consequence: {
          run: worst.id,
          text: `${when(worst.fault)}, ${effectOf("workload", `${w.kind} ${w.namespace}/${w.name}`, f)}`,
          figures: f,
        },
        fix: {
          text: `readinessProbe initialDelaySeconds: ${delay}, periodSeconds: ${period} (the peers' middle values)`,
          spec: fixRun("FL011", w.id, "drain", input.faultAt, [
            { object: w.id, path: `${path}.initialDelaySeconds`, value: delay },
            { object: w.id, path: `${path}.periodSeconds`, value: period },
          ]),
          subject: { kind: "workload", id: w.id },
          effect: (g, run) => `${when(run.fault)}: ${shortEffect("workload", g)}`,
        },
      });
    }
    return out;
  },
};
