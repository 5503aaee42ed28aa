// PodDisruptionBudget (policy/v1).

import type { PodDisruptionBudget } from "../../kubernetes/objects.ts";
import { fail, int, knownFields, type Obj, obj, optOneOf, show } from "../check.ts";
import type { Path, SourceDoc } from "../source.ts";
import * as F from "./fields.ts";
import type { Meta } from "./meta.ts";
import { labelSelector } from "./selector.ts";

export function podDisruptionBudget(
  src: SourceDoc,
  objectPath: Path,
  metadata: Meta,
  o: Obj,
): PodDisruptionBudget {
  const path = [...objectPath, "spec"];
  const s = o.spec == null ? {} : obj(src, path, o.spec);
  knownFields(src, path, s, F.POD_DISRUPTION_BUDGET_SPEC_FIELDS, "PodDisruptionBudgetSpec");
  const spec: PodDisruptionBudget["spec"] = {};
  if (s.selector != null) spec.selector = labelSelector(src, [...path, "selector"], s.selector);
  if (s.minAvailable != null && s.maxUnavailable != null) {
    fail(
      src,
      [...path, "maxUnavailable"],
      "invalid-value",
      "minAvailable and maxUnavailable cannot be both set",
      "key",
    );
  }
  for (const key of ["minAvailable", "maxUnavailable"] as const) {
    if (s[key] != null) spec[key] = intOrPercent(src, [...path, key], s[key]);
  }
  const policy = optOneOf(src, [...path, "unhealthyPodEvictionPolicy"], s.unhealthyPodEvictionPolicy, [
    "IfHealthyBudget",
    "AlwaysAllow",
  ] as const);
  if (policy) spec.unhealthyPodEvictionPolicy = policy;
  return { kind: "PodDisruptionBudget", metadata, spec };
}

function intOrPercent(src: SourceDoc, path: Path, v: unknown): number | string {
  if (typeof v === "string") {
    const m = /^(\d+)%$/.exec(v);
    if (!m || Number(m[1]) > 100) {
      fail(
        src,
        path,
        "invalid-value",
        `${show(v)} is not an integer or a percentage between "0%" and "100%"`,
      );
    }
    return v;
  }
  return int(src, path, v, { min: 0 });
}
