// FL011: probe settings that make recovery slower than the Service's peers. After a drain or an
// eviction the replacement is in the Service only once its probes let it be Ready: a startupProbe
// gates the other probes until it passes, and neither it nor readiness runs before its
// initialDelaySeconds, then at its period (pkg/kubelet/prober/worker.go; readiness starts as Failure).
// A workload whose probes wait much longer than those of the other Services' backends in the same
// namespace comes back last, and the sweep's drains show by how much. The fix sets the slow values to
// the peers' middle ones and drains the same node again. (The grace period does not delay a
// replacement: the ReplicaSet creates it as soon as the old pod is Terminating.)

import type { Probe } from "../../kubernetes/objects.ts";
import type { Workload } from "../state.ts";
import type { Patch } from "../types.ts";
import {
  brokenWithoutFault,
  consequenceOf,
  containerPath,
  type Draft,
  faultRuns,
  type Rule,
  refault,
  servicesOf,
} from "./rule.ts";

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s[Math.floor((s.length - 1) / 2)]!;
};

type Setting = { probe: "startupProbe" | "readinessProbe"; field: "initialDelaySeconds" | "periodSeconds" };
const SETTINGS: Setting[] = [
  { probe: "startupProbe", field: "initialDelaySeconds" },
  { probe: "startupProbe", field: "periodSeconds" },
  { probe: "readinessProbe", field: "initialDelaySeconds" },
  { probe: "readinessProbe", field: "periodSeconds" },
];

/** A setting's value (API defaults: initialDelaySeconds 0, periodSeconds 10); 0 when the probe is absent. */
function settingOf(w: Workload, s: Setting): number {
  const p: Probe | undefined = w.spec.containers.find((c) => c[s.probe])?.[s.probe];
  if (!p) return 0;
  return p[s.field] ?? (s.field === "periodSeconds" ? 10 : 0);
}

export const FL011: Rule = {
  id: "FL011",
  name: "slower-than-peers",
  title: "Probe settings that make recovery slower than the Service's peers",
  severity: "note",
  // At most one fix per workload that is not a DaemonSet: check's second loop.
  fixes: (input) => input.objects.workloads.filter((w) => w.kind !== "DaemonSet").length,
  check(input, runs) {
    const out: Draft[] = [];
    const drains = faultRuns(runs).filter((r) => r.fault.class === "drain");
    const recovery = new Map<string, number>();
    for (const w of input.objects.workloads) {
      if (w.kind === "DaemonSet" || !servicesOf(input.objects, w.id)[0]) continue;
      if (brokenWithoutFault(runs, "workload", w.id)) continue;
      const times = drains
        .map((r) => r.workloads[w.id])
        .filter((f) => f && f.degraded > 0 && f.recovered !== null);
      if (times.length > 0) recovery.set(w.id, Math.max(...times.map((f) => f!.recovered!)));
    }
    for (const w of input.objects.workloads) {
      const mine = recovery.get(w.id);
      if (mine === undefined) continue;
      const peers = input.objects.workloads.filter(
        (p) => p.id !== w.id && p.namespace === w.namespace && recovery.has(p.id),
      );
      if (peers.length < 2) continue;
      const m = median(peers.map((p) => recovery.get(p.id)!));
      if (mine <= Math.max(2 * m, m + 30)) continue;
      // A period is compared with the peers that have that probe; a delay with all (none waits 0s).
      const has = (p: Workload, s: Setting) => p.spec.containers.some((c) => c[s.probe]);
      const slow = SETTINGS.flatMap((s) => {
        const others = s.field === "periodSeconds" ? peers.filter((p) => has(p, s)) : peers;
        if (others.length === 0 || !has(w, s)) return [];
        const x = { s, mine: settingOf(w, s), peers: median(others.map((p) => settingOf(p, s))) };
        return x.mine > x.peers ? [x] : [];
      });
      const c = w.spec.containers.find((x) => slow.some((y) => x[y.s.probe]));
      if (slow.length === 0 || !c) continue;
      const worst = drains
        .filter((x) => x.workloads[w.id]?.recovered === mine)
        .sort((a, b) => (b.workloads[w.id]?.degraded ?? 0) - (a.workloads[w.id]?.degraded ?? 0))[0]!;
      const _f = worst.workloads[w.id]!;
      const said = slow.map((x) => `${x.s.probe}.${x.s.field} ${x.mine} (peers: ${x.peers})`);
      const patches: Patch[] = slow.map((x) => ({
        object: w.id,
        path: `${containerPath(w, c)}.${x.s.probe}.${x.s.field}`,
        value: x.peers,
      }));
      out.push({
        object: w.id,
        field: `${containerPath(w, c)}.${slow[0]!.s.probe}.${slow[0]!.s.field}`,
        severity: "note",
        message: `${w.kind} ${w.namespace}/${w.name} comes back after ${Math.round(mine)}s where its ${peers.length} peers in ${w.namespace} take ${Math.round(m)}s: ${said.join(", ")}`,
        consequence: consequenceOf(worst, "workload", w.id, `${w.kind} ${w.namespace}/${w.name}`),
        fix: refault(
          "FL011",
          w.id,
          worst,
          input.faultAt,
          `${slow.map((x) => `${x.s.probe}.${x.s.field}: ${x.peers}`).join(", ")} (the peers' middle values)`,
          patches,
          { kind: "workload", id: w.id },
        ),
      });
    }
    return out;
  },
};
