// Whether a caller's pool can carry its rate, said once at t=0. By Little's law a pool of N
// connections, each holding a request for W seconds, carries at most N / W requests a second
// (L = λW); more waits in the caller. W is the pods' service time while they answer, and the
// caller's timeout when they stop answering (a lost node, a hang): then every connection is held
// a whole timeout. A pool without a limit opens another connection instead, and is never short.

import type { Trace } from "../trace/events.ts";
import type { CallerGroup } from "./callers.ts";

/** The t=0 note of a group whose pool cannot carry its rate, at its pods' service time or at its timeout. */
export function notePoolLimit(trace: Trace, g: CallerGroup, serviceTime: number): void {
  if (g.unlimited) return;
  const spec = g.spec;
  const connections = g.clients * g.poolSize;
  const healthy = connections / serviceTime;
  const hung = connections / g.longest;
  const short = spec.rate > healthy ? "service-time" : spec.rate > hung ? "timeout" : undefined;
  if (!short) return;
  trace.emit({
    type: "CallerPoolShort",
    lane: "app",
    object: `Service/${g.service}`,
    service: g.service,
    client: spec.client,
    clients: g.clients,
    connections: g.poolSize,
    multiplexed: spec.multiplexed,
    closedLoop: spec.closedLoop,
    rate: spec.rate,
    short,
    serviceTimeSeconds: serviceTime,
    carriesAtServiceTime: round(healthy),
    timeoutSeconds: g.longest,
    carriesAtTimeout: round(hung),
  });
}

const round = (n: number) => Math.round(n * 10) / 10;
