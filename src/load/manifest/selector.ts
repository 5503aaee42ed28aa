// LabelSelector (metav1): matchLabels and matchExpressions, validated as ValidateLabelSelector does
// (apimachinery/pkg/apis/meta/v1/validation: keys qualified names, values label values).
// Matching lives in kubernetes/labels.ts.

import type { LabelSelector, LabelSelectorRequirement } from "../../kubernetes/objects.ts";
import { fail, knownFields, list, obj, oneOf, required, str } from "../check.ts";
import type { Path, SourceDoc } from "../source.ts";
import * as F from "./fields.ts";
import { check, optLabelMap } from "./meta.ts";
import { isLabelKey, isLabelValue } from "./names.ts";

export function labelSelector(src: SourceDoc, path: Path, v: unknown): LabelSelector {
  const o = obj(src, path, v);
  knownFields(src, path, o, F.LABEL_SELECTOR_FIELDS, "LabelSelector");
  const out: LabelSelector = {};
  const ml = optLabelMap(src, [...path, "matchLabels"], o.matchLabels);
  if (ml && Object.keys(ml).length > 0) out.matchLabels = ml;
  if (o.matchExpressions != null) {
    const p = [...path, "matchExpressions"];
    const exprs = list(src, p, o.matchExpressions).map((e, i): LabelSelectorRequirement => {
      const ep = [...p, i];
      const eo = obj(src, ep, e);
      knownFields(src, ep, eo, F.LABEL_SELECTOR_REQUIREMENT_FIELDS, "LabelSelectorRequirement");
      const key = str(src, [...ep, "key"], required(src, ep, eo, "key", "LabelSelectorRequirement"));
      check(src, [...ep, "key"], key, isLabelKey, "label key");
      const operator = oneOf(src, [...ep, "operator"], required(src, ep, eo, "operator"), [
        "In",
        "NotIn",
        "Exists",
        "DoesNotExist",
      ] as const);
      const values =
        eo.values == null
          ? []
          : list(src, [...ep, "values"], eo.values).map((x, j) => {
              const value = str(src, [...ep, "values", j], x);
              check(src, [...ep, "values", j], value, isLabelValue, "label value");
              return value;
            });
      if ((operator === "In" || operator === "NotIn") && values.length === 0) {
        fail(src, [...ep, "values"], "invalid-value", `must be specified when operator is ${operator}`);
      }
      if ((operator === "Exists" || operator === "DoesNotExist") && values.length > 0) {
        fail(src, [...ep, "values"], "invalid-value", `may not be specified when operator is ${operator}`);
      }
      return values.length > 0 ? { key, operator, values } : { key, operator };
    });
    if (exprs.length > 0) out.matchExpressions = exprs;
  }
  return out;
}
