// ObjectMeta and names: the name rules Kubernetes applies to objects (RFC 1123 labels and
// subdomains), labels, annotations and owner references.

import type { ObjectMeta, OwnerReference } from "../../kubernetes/objects.ts";
import { fail, knownFields, list, obj, optBool, optStr, required, show, str, stringMap } from "../check.ts";
import type { Path, SourceDoc } from "../source.ts";
import * as F from "./fields.ts";
import {
  annotationsSize,
  isDNS1035Label,
  isLabelKey,
  isLabelValue,
  TOTAL_ANNOTATION_SIZE_LIMIT,
} from "./names.ts";

/** The metadata of a namespaced object once loaded: the namespace defaulted to "default". */
export type Meta = ObjectMeta & { namespace: string };

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

export function dnsLabel(src: SourceDoc, path: Path, v: unknown): string {
  const s = str(src, path, v);
  if (s.length > 63 || !DNS_LABEL.test(s)) {
    fail(
      src,
      path,
      "invalid-value",
      `${show(s)} is not a valid name: use at most 63 lower-case letters, digits and '-', starting and ending with a letter or digit`,
    );
  }
  return s;
}

/** A DNS subdomain (RFC 1123), as Kubernetes requires of most object names, node names included. */
export function dnsSubdomain(src: SourceDoc, path: Path, v: unknown, what = "name"): string {
  const s = str(src, path, v);
  if (s.length > 253 || !DNS_SUBDOMAIN.test(s)) {
    fail(
      src,
      path,
      "invalid-value",
      `${show(s)} is not a valid ${what}: use lower-case letters, digits, '-' and '.', starting and ending with a letter or digit`,
    );
  }
  return s;
}

/** Fails at `path` with Kubernetes' messages if `rule` finds any. */
export function check(
  src: SourceDoc,
  path: Path,
  value: string,
  rule: (v: string) => string[],
  what: string,
  target: "key" | "value" = "value",
): void {
  const errs = rule(value);
  if (errs.length > 0)
    fail(src, path, "invalid-value", `${show(value)} is not a valid ${what}: ${errs.join("; ")}`, target);
}

/**
 * Labels, a nodeSelector, a Service's selector, a selector's matchLabels: ValidateLabels
 * (apimachinery/pkg/apis/meta/v1/validation), keys IsQualifiedName, values IsValidLabelValue.
 */
export function labelMap(src: SourceDoc, path: Path, v: unknown): Record<string, string> {
  const labels = stringMap(src, path, v);
  for (const [key, value] of Object.entries(labels)) {
    check(src, [...path, key], key, isLabelKey, "label key", "key");
    check(src, [...path, key], value, isLabelValue, "label value");
  }
  return labels;
}

export function optLabelMap(src: SourceDoc, path: Path, v: unknown): Record<string, string> | undefined {
  return v == null ? undefined : labelMap(src, path, v);
}

/**
 * ValidateAnnotations (apimachinery/pkg/api/validation/objectmeta.go): keys are qualified names, case
 * aside ("the rule is QualifiedName except that case doesn't matter"); all of them at most 256 KiB.
 */
export function annotationMap(src: SourceDoc, path: Path, v: unknown): Record<string, string> {
  const annotations = stringMap(src, path, v);
  for (const key of Object.keys(annotations))
    check(src, [...path, key], key.toLowerCase(), isLabelKey, "annotation key", "key");
  const size = annotationsSize(annotations);
  if (size > TOTAL_ANNOTATION_SIZE_LIMIT) {
    fail(
      src,
      path,
      "invalid-value",
      `Too long: must have at most ${TOTAL_ANNOTATION_SIZE_LIMIT} bytes (the annotations hold ${size})`,
      "key",
    );
  }
  return annotations;
}

/**
 * ObjectMeta. `kind` picks the name rule: a Service's name is a DNS-1035 label (ValidateServiceName,
 * pkg/apis/core/validation), every other object's a DNS subdomain.
 */
export function objectMeta(src: SourceDoc, path: Path, v: unknown, kind?: string): Meta {
  const o = obj(src, path, v);
  knownFields(src, path, o, F.OBJECT_META_FIELDS, "ObjectMeta");
  if (o.name == null && o.generateName != null) {
    fail(
      src,
      [...path, "generateName"],
      "missing-field",
      "faultline needs a fixed metadata.name, not generateName",
    );
  }
  const name = dnsSubdomain(src, [...path, "name"], required(src, path, o, "name", "ObjectMeta"));
  if (kind === "Service") check(src, [...path, "name"], name, isDNS1035Label, "Service name");
  const namespace = o.namespace == null ? "default" : dnsLabel(src, [...path, "namespace"], o.namespace);
  const meta: Meta = { name, namespace };
  const labels = optLabelMap(src, [...path, "labels"], o.labels);
  if (labels) meta.labels = labels;
  if (o.annotations != null) meta.annotations = annotationMap(src, [...path, "annotations"], o.annotations);
  const uid = optStr(src, [...path, "uid"], o.uid);
  if (uid !== undefined) meta.uid = uid;
  if (o.ownerReferences != null) {
    const p = [...path, "ownerReferences"];
    meta.ownerReferences = list(src, p, o.ownerReferences).map((r, i): OwnerReference => {
      const rp = [...p, i];
      const ro = obj(src, rp, r);
      knownFields(src, rp, ro, F.OWNER_REFERENCE_FIELDS, "OwnerReference");
      const ref: OwnerReference = {
        kind: str(src, [...rp, "kind"], required(src, rp, ro, "kind", "OwnerReference")),
        name: str(src, [...rp, "name"], required(src, rp, ro, "name", "OwnerReference")),
      };
      const controller = optBool(src, [...rp, "controller"], ro.controller);
      if (controller !== undefined) ref.controller = controller;
      return ref;
    });
  }
  return meta;
}
