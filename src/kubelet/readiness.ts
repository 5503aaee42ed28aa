// When a freshly started container first passes readiness: a placeholder until the prober models
// each probe worker (issue: probes). A container without a readiness probe is ready as soon as it
// runs (prober_manager.go UpdatePodStatus); with one, at the first check that finds the process
// answering: initialDelaySeconds, then every periodSeconds, once bootSeconds / readyAfterSeconds
// have passed.

import type { Container } from "../kubernetes/objects.ts";
import type { Behaviour } from "../scenario/types.ts";

export function secondsUntilReady(container: Container, behaviour: Behaviour): number {
  const probe = container.readinessProbe;
  if (!probe) return 0;
  const delay = probe.initialDelaySeconds ?? 0;
  const period = probe.periodSeconds ?? 10;
  const answersAt = Math.max(behaviour.readyAfterSeconds ?? 0, behaviour.bootSeconds ?? 0);
  if (answersAt <= delay) return delay;
  return delay + Math.ceil((answersAt - delay) / period) * period;
}
