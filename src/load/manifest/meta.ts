// ObjectMeta and names: the name rules Kubernetes applies to objects (RFC 1123 labels and
// subdomains), labels, annotations and owner references.

import type { ObjectMeta, OwnerReference } from "../../kubernetes/objects.ts";
import {
  fail,
  knownFields,
  list,
  obj,
  optBool,
  optStr,
  optStringMap,
  required,
  show,
  str,
} from "../check.ts";
import type { Path, SourceDoc } from "../source.ts";
import * as F from "./fields.ts";

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

export function objectMeta(src: SourceDoc, path: Path, v: unknown): Meta {
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
  const namespace = o.namespace == null ? "default" : dnsLabel(src, [...path, "namespace"], o.namespace);
  const meta: Meta = { name, namespace };
  const labels = optStringMap(src, [...path, "labels"], o.labels);
  if (labels) meta.labels = labels;
  const annotations = optStringMap(src, [...path, "annotations"], o.annotations);
  if (annotations) meta.annotations = annotations;
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
