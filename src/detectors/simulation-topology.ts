// Who watches whom in a heartbeat-system simulation, for each topology: the monitor→target pairs, and a
// target's place among a monitor's targets computed rather than stored, so that the simulation's memory grows
// with the monitored pairs and not with nodes².

import type { SimulationSettings } from "./simulation-config.ts";

/**
 * Who watches whom. all-to-all: monitor m judges every other node, in index order; watchers:K: node i is
 * judged by the K nodes after it on the ring, so monitor m judges m − 1, …, m − K; lease: the store (entity
 * `nodes`) judges every node. `index(m, from)` is `from`'s place among m's targets (−1 if m does not judge
 * it).
 */
export function topologyOf(s: SimulationSettings): {
  watch: (add: (monitor: number, target: number) => void) => void;
  index: (m: number, from: number) => number;
} {
  const n = s.nodes;
  const t = s.topology;
  if (t.kind === "all-to-all") {
    return {
      watch: (add) => {
        for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (j !== i) add(j, i);
      },
      index: (m, from) => (from === m ? -1 : from < m ? from : from - 1),
    };
  }
  if (t.kind === "lease") {
    return {
      watch: (add) => {
        for (let i = 0; i < n; i++) add(n, i);
      },
      index: (m, from) => (m === n ? from : -1),
    };
  }
  const k = Math.min(t.k, n - 1);
  return {
    watch: (add) => {
      for (let m = 0; m < n; m++) for (let d = 1; d <= k; d++) add(m, (m - d + n) % n);
    },
    index: (m, from) => {
      const d = (m - from + n) % n;
      return d >= 1 && d <= k ? d - 1 : -1;
    },
  };
}
