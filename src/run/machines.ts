// The machines as the timeline acts on them (faults/faults.ts's Machine): a kubelet and its
// instance as the cloud sees it, telling the run after each step which kubelets it cut off.

import type { InstanceState } from "../controllers/cloud-node-lifecycle-controller.ts";
import type { Machine } from "../faults/faults.ts";
import type { Kubelet } from "../kubelet/kubelet.ts";

/**
 * A kubelet as the timeline acts on it, telling `moved` after each step; `instances` is the cloud's
 * view of its machine (a stopped instance is "shutdown"; a terminated one is never found again).
 */
export function timelineMachine(
  k: Kubelet,
  instances: Map<string, InstanceState>,
  moved: () => void,
): Machine {
  const step = (fn: () => void) => () => {
    fn();
    moved();
  };
  const terminated = () => instances.get(k.name) === "not-found";
  return {
    powerOff: step(() => {
      k.powerOff();
      if (!terminated()) instances.set(k.name, "shutdown");
    }),
    // A deleted instance cannot be started again.
    powerOn: step(() => {
      if (terminated()) return;
      instances.set(k.name, "running");
      k.powerOn();
    }),
    terminate: step(() => {
      k.powerOff();
      instances.set(k.name, "not-found");
    }),
    partition: step(() => k.partition()),
    heal: step(() => k.heal()),
    kubeletStop: step(() => k.kubeletStop()),
    kubeletStart: step(() => k.kubeletStart()),
    gracefulShutdown: (config, done) => k.gracefulShutdown(config, done),
    runtimeDown: () => k.runtimeDown(),
    runtimeUp: () => k.runtimeUp(),
    podWorker: (uid) => k.podWorker(uid),
  };
}
