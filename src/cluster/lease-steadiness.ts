// Which node Leases are renewed on a computed schedule (kubelet/node-lease.ts), and a word when one
// stops being: the one thing the node lifecycle controller needs to skip a healthy node's pass
// (controllers/node-lifecycle-controller.ts). While a kubelet that nothing disturbs renews its Lease
// every renewInterval × U[1, 1.04) (staging/src/k8s.io/component-helpers/apimachinery/lease/
// controller.go, wait.JitterUntil with jitterFactor 0.04), no two renewals are further apart than
// `steadyGap`, so a reader knows the Lease is fresh without reading it. It lives beside the store so
// that neither the kubelet nor the controllers import the other.

import type { Store } from "./store.ts";

/** One Lease's schedule as its renewer knows it. */
export interface LeaseSteadiness {
  /**
   * While the renewals are computed: the longest gap two renewals can have (seconds, the engine's
   * grid included); NaN while they are passes of their own (a disturbance, a stopped kubelet).
   */
  readonly steadyGap: number;
  /**
   * Called once, at the instant the schedule stops being computed, after the renewals before that
   * instant are drawn (spec.renewTime then reads without drawing); cleared before the call.
   */
  onUnsteady: (() => void) | undefined;
}

const byStore = new WeakMap<Store, Map<string, LeaseSteadiness>>();

/** Each Lease's renewer by key (`kube-node-lease/<node>`), for one store. */
export function leaseSteadiness(store: Store): Map<string, LeaseSteadiness> {
  let m = byStore.get(store);
  if (!m) {
    m = new Map();
    byStore.set(store, m);
  }
  return m;
}
