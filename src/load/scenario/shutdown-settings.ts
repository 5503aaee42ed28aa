// The kubelet's graceful node shutdown settings (KEP-2000, KEP-2712), as KubeletConfiguration has
// them: shutdownGracePeriod and shutdownGracePeriodCriticalPods (durations), or
// shutdownGracePeriodByPodPriority (a list of {priority, shutdownGracePeriodSeconds}). The checks are
// pkg/kubelet/apis/config/validation/validation.go ValidateKubeletConfiguration's, plus the one
// configuration the kubelet accepts but turns into no graceful shutdown at all (migrateConfig,
// pkg/kubelet/nodeshutdown/nodeshutdown_manager_linux.go): more for critical pods than in all.

import type { KubeletOverrides } from "../../scenario/types.ts";
import { duration, fail, int, knownFields, list, obj } from "../check.ts";
import type { Path, SourceDoc } from "../source.ts";

export const SHUTDOWN_FIELDS = [
  "shutdownGracePeriod",
  "shutdownGracePeriodCriticalPods",
  "shutdownGracePeriodByPodPriority",
] as const;

type ShutdownOverrides = Pick<KubeletOverrides, (typeof SHUTDOWN_FIELDS)[number]>;

/** validation.go: each period "must be either zero or otherwise >= 1 sec". */
function period(src: SourceDoc, path: Path, v: unknown): number {
  const s = duration(src, path, v);
  if (s > 0 && s < 1)
    fail(src, path, "invalid-duration", `${s}s must be either zero or otherwise >= 1 sec (validation.go)`);
  return s;
}

export function parseShutdown(src: SourceDoc, path: Path, o: Record<string, unknown>): ShutdownOverrides {
  const out: ShutdownOverrides = {};
  const { shutdownGracePeriod: all, shutdownGracePeriodCriticalPods: critical } = o;
  if (all != null) out.shutdownGracePeriod = period(src, [...path, "shutdownGracePeriod"], all);
  if (critical != null)
    out.shutdownGracePeriodCriticalPods = period(src, [...path, "shutdownGracePeriodCriticalPods"], critical);
  const byPriority = o.shutdownGracePeriodByPodPriority;
  if (byPriority != null) {
    const p = [...path, "shutdownGracePeriodByPodPriority"];
    out.shutdownGracePeriodByPodPriority = list(src, p, byPriority).map((entry, i) => {
      const e = obj(src, [...p, i], entry, "a mapping {priority, shutdownGracePeriodSeconds}");
      knownFields(src, [...p, i], e, ["priority", "shutdownGracePeriodSeconds"]);
      if (e.priority == null) fail(src, [...p, i], "missing-field", 'missing required field "priority"');
      return {
        priority: int(src, [...p, i, "priority"], e.priority),
        shutdownGracePeriodSeconds: int(
          src,
          [...p, i, "shutdownGracePeriodSeconds"],
          e.shutdownGracePeriodSeconds ?? 0,
          {
            min: 0,
          },
        ),
      };
    });
    if (
      out.shutdownGracePeriodByPodPriority.length > 0 &&
      ((out.shutdownGracePeriod ?? 0) > 0 || (out.shutdownGracePeriodCriticalPods ?? 0) > 0)
    )
      fail(
        src,
        p,
        "invalid-value",
        "Cannot specify both shutdownGracePeriodByPodPriority and shutdownGracePeriod at the same time (validation.go): give the priority groups alone",
      );
  }
  const whole = out.shutdownGracePeriod ?? 0;
  const crit = out.shutdownGracePeriodCriticalPods ?? 0;
  if (crit > whole)
    fail(
      src,
      [...path, "shutdownGracePeriodCriticalPods"],
      "invalid-value",
      `${crit}s is more than shutdownGracePeriod (${whole}s): the kubelet would accept it and turn graceful node shutdown off (nodeshutdown_manager_linux.go migrateConfig); critical pods get their part of shutdownGracePeriod`,
    );
  return out;
}
