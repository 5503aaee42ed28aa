// A StatefulSet's `updateStrategy.rollingUpdate.maxUnavailable` against the version's
// MaxUnavailableStatefulSet gate (KEP-961; kubernetes/defaults.ts maxUnavailableStatefulSet), and
// the patch release a scenario's kubernetesVersion names:
// - gate off (1.28–1.34, 1.35.4 and later 1.35 patches, 1.36): the API server drops the field
//   (pkg/registry/apps/statefulset/strategy.go dropStatefulSetDisabledFields): listed as not
//   modelled, and a rolling update goes one pod at a time;
// - gate on (1.35.0–1.35.3, 1.37): kept, and validated as ValidateStatefulSetUpdateStrategy does
//   (pkg/apis/apps/validation: a positive integer or percentage, "cannot be 0", at most 100%).

import { maxUnavailableStatefulSet } from "../../kubernetes/defaults.ts";
import type { KubernetesVersion } from "../../scenario/types.ts";
import { fail } from "../check.ts";
import type { Collected } from "../manifest/collect.ts";
import type { SourceDoc } from "../source.ts";

/** The patch release of a `kubernetesVersion` as written ("1.35.2" → 2), or undefined without one. */
export function patchOf(src: SourceDoc, v: unknown): number | undefined {
  const text =
    typeof v === "string" ? v : typeof v === "number" ? (src.sourceText(["kubernetesVersion"]) ?? "") : "";
  const m = /^v?\d+\.\d+\.(\d+)$/.exec(text.trim());
  return m ? Number(m[1]) : undefined;
}

export function checkStatefulSetMaxUnavailable(
  c: Collected,
  version: KubernetesVersion,
  patch: number | undefined,
): void {
  const on = maxUnavailableStatefulSet(version, patch);
  c.manifests.forEach((m, i) => {
    const { object } = m;
    if (object.kind !== "StatefulSet") return;
    const ru = object.spec.updateStrategy?.rollingUpdate;
    if (ru?.maxUnavailable === undefined) return;
    const { src, path } = c.where[i]!;
    const at = [...path, "spec", "updateStrategy", "rollingUpdate", "maxUnavailable"];
    if (!on) {
      // Dropped from a copy: a loaded object is shared by the loads of its document (manifest/kept.ts).
      const { maxUnavailable: _dropped, ...rollingUpdate } = ru;
      const updateStrategy = { ...object.spec.updateStrategy!, rollingUpdate };
      c.manifests[i] = { ...m, object: { ...object, spec: { ...object.spec, updateStrategy } } };
      const name = "StatefulSetSpec.updateStrategy.rollingUpdate.maxUnavailable";
      if (c.notModelled.has(name)) return;
      const { line } = src.locate(at, "key");
      c.notModelled.set(name, { where: `${src.file}:${line}`, object: i, line });
      return;
    }
    const v = ru.maxUnavailable;
    const percent = typeof v === "string" ? /^(\d+)%$/.exec(v) : null;
    if (typeof v === "string" && !percent)
      fail(
        src,
        at,
        "invalid-value",
        `Invalid value: "${v}": a valid percent string must be a numeric string followed by an ending '%'`,
      );
    const n = percent ? Number(percent[1]) : (v as number);
    if (!Number.isInteger(n) || n < 0)
      fail(
        src,
        at,
        "invalid-value",
        `Invalid value: ${JSON.stringify(v)}: must be greater than or equal to 0`,
      );
    if (n === 0) fail(src, at, "invalid-value", `Invalid value: ${JSON.stringify(v)}: cannot be 0`);
    if (percent && n > 100)
      fail(src, at, "invalid-value", `Invalid value: "${v}": must not be greater than 100%`);
  });
}
