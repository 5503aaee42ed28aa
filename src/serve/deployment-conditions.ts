// A Deployment's Available and Progressing conditions, as the deployment controller writes them
// (k8s.io/kubernetes pkg/controller/deployment/progress.go syncRolloutStatus, util/deployment_util.go
// NewDeploymentCondition / SetDeploymentCondition, v1.32), worked out from the counts each time the
// served Deployment is converted, remembering the conditions from one conversion to the next so
// that their lastUpdateTime and lastTransitionTime move only when the controller would move them:
// - Available: True, MinimumReplicasAvailable, "Deployment has minimum availability." when the
//   available pods are at least replicas − maxUnavailable (25% rounded down, MaxUnavailable);
//   else False, MinimumReplicasUnavailable, "Deployment does not have minimum availability.".
// - Progressing: True, NewReplicaSetAvailable, `ReplicaSet "X" has successfully progressed.` when
//   the rollout is complete (DeploymentComplete: updated and available equal replicas); True,
//   ReplicaSetUpdated, `ReplicaSet "X" is progressing.` when a count rose (DeploymentProgressing),
//   which moves only its lastUpdateTime; False, ProgressDeadlineExceeded, `ReplicaSet "X" has timed
//   out progressing.` when progressDeadlineSeconds (600) passed since its lastUpdateTime without
//   completing (DeploymentTimedOut).
// The first time a Deployment is seen the conditions' times are those the run already knows: the
// moment its last pod needed for availability became Ready (else the Deployment's creation).

import type { Json } from "./api-types.ts";
import { timeString } from "./time.ts";

export interface DeploymentCounts {
  replicas: number;
  updated: number;
  ready: number;
  available: number;
}

interface Cond {
  type: "Available" | "Progressing";
  status: "True" | "False";
  reason: string;
  message: string;
  lastUpdateTime: number;
  lastTransitionTime: number;
}

interface Seen {
  counts: DeploymentCounts;
  conditions: Cond[];
}

/** The conditions last written per Deployment (`namespace/name`), kept across conversions of one run. */
export class DeploymentConditionMemory {
  private readonly byKey = new Map<string, Seen>();

  /**
   * The conditions at `now` for a Deployment of `desired` replicas whose ReplicaSet is `rsName`;
   * `since` dates conditions first seen already holding.
   */
  conditions(
    key: string,
    desired: number,
    rsName: string,
    c: DeploymentCounts,
    now: number,
    since: number,
  ): Json[] {
    const seen = this.byKey.get(key);
    const first = seen === undefined;
    const at = first ? since : now;
    const conds = seen ? seen.conditions.map((x) => ({ ...x })) : [];
    const set = (type: Cond["type"], status: Cond["status"], reason: string, message: string) => {
      const i = conds.findIndex((x) => x.type === type);
      const cur = conds[i];
      if (cur && cur.status === status && cur.reason === reason) return;
      const next: Cond = { type, status, reason, message, lastUpdateTime: at, lastTransitionTime: at };
      if (cur && cur.status === status) next.lastTransitionTime = cur.lastTransitionTime;
      if (i >= 0) conds[i] = next;
      else conds.push(next);
    };
    // MaxUnavailable: 25% of the desired replicas, rounded down, at most the replicas.
    const maxUnavailable = Math.min(Math.floor(desired * 0.25), desired);
    if (c.available >= desired - maxUnavailable)
      set("Available", "True", "MinimumReplicasAvailable", "Deployment has minimum availability.");
    else
      set(
        "Available",
        "False",
        "MinimumReplicasUnavailable",
        "Deployment does not have minimum availability.",
      );
    const complete = c.updated === desired && c.replicas === desired && c.available === desired;
    const old = seen?.counts;
    const progressed =
      old !== undefined && (c.updated > old.updated || c.ready > old.ready || c.available > old.available);
    const progressing = conds.find((x) => x.type === "Progressing");
    if (complete)
      set(
        "Progressing",
        "True",
        "NewReplicaSetAvailable",
        `ReplicaSet "${rsName}" has successfully progressed.`,
      );
    else if (progressed) {
      const msg = `ReplicaSet "${rsName}" is progressing.`;
      if (progressing?.status === "True") {
        Object.assign(progressing, { reason: "ReplicaSetUpdated", message: msg, lastUpdateTime: now });
      } else set("Progressing", "True", "ReplicaSetUpdated", msg);
    } else if (first)
      set("Progressing", "True", "ReplicaSetUpdated", `ReplicaSet "${rsName}" is progressing.`);
    // DeploymentTimedOut: never after a completed rollout (reason NewReplicaSetAvailable).
    else if (
      progressing?.status === "True" &&
      progressing.reason !== "NewReplicaSetAvailable" &&
      now - progressing.lastUpdateTime > 600
    )
      set(
        "Progressing",
        "False",
        "ProgressDeadlineExceeded",
        `ReplicaSet "${rsName}" has timed out progressing.`,
      );
    this.byKey.set(key, { counts: { ...c }, conditions: conds });
    return conds.map((x) => ({
      type: x.type,
      status: x.status,
      lastUpdateTime: timeString(x.lastUpdateTime),
      lastTransitionTime: timeString(x.lastTransitionTime),
      reason: x.reason,
      message: x.message,
    }));
  }
}
