// The request bodies kubectl sends as `application/vnd.kubernetes.protobuf` (its typed clients do,
// for `kubectl auth can-i`), read into the JSON form of the review: the envelope of
// k8s.io/apimachinery runtime/serializer/protobuf (the magic "k8s\0", then a runtime.Unknown with
// typeMeta = 1 {apiVersion = 1, kind = 2} and raw = 2), and the field numbers of k8s.io/api
// authorization/v1 generated.proto. Only the protobuf wire format's varint and length-delimited
// fields are read; the answer goes back as JSON, which kubectl accepts (Accept:
// application/vnd.kubernetes.protobuf,application/json).

import { badRequest } from "./status.ts";

export const PROTOBUF_TYPE = "application/vnd.kubernetes.protobuf";

type Fields = Map<number, (Uint8Array | number)[]>;

/** One message's fields by number: length-delimited ones as bytes, varints as numbers. */
function fields(buf: Uint8Array): Fields {
  const out: Fields = new Map();
  let i = 0;
  const varint = (): number => {
    let v = 0;
    let mul = 1;
    for (;;) {
      if (i >= buf.length) throw badRequest("the protobuf body ends inside a field");
      const b = buf[i++]!;
      v += (b & 0x7f) * mul;
      if (b < 0x80) return v;
      mul *= 128;
    }
  };
  while (i < buf.length) {
    const key = varint();
    const [num, wire] = [Math.floor(key / 8), key % 8];
    let value: Uint8Array | number;
    if (wire === 0) value = varint();
    else if (wire === 2) {
      const len = varint();
      if (i + len > buf.length) throw badRequest("the protobuf body ends inside a field");
      value = buf.subarray(i, i + len);
      i += len;
    } else if (wire === 1 || wire === 5) {
      i += wire === 1 ? 8 : 4;
      continue;
    } else throw badRequest(`the protobuf body has a field of wire type ${wire}, which no review has`);
    const list = out.get(num) ?? [];
    list.push(value);
    out.set(num, list);
  }
  return out;
}

const text = (f: Fields, n: number) => {
  const v = f.get(n)?.at(-1);
  return v instanceof Uint8Array ? new TextDecoder().decode(v) : undefined;
};
const sub = (f: Fields, n: number) => {
  const v = f.get(n)?.at(-1);
  return v instanceof Uint8Array ? fields(v) : undefined;
};

/** The strings of a message by field number → JSON name, those set only. */
function strings(f: Fields, names: Record<number, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [n, name] of Object.entries(names)) {
    const v = text(f, Number(n));
    if (v !== undefined) out[name] = v;
  }
  return out;
}

/** ResourceAttributes (1 namespace … 7 name) and NonResourceAttributes (1 path, 2 verb). */
const RESOURCE_ATTRIBUTES = {
  1: "namespace",
  2: "verb",
  3: "group",
  4: "version",
  5: "resource",
  6: "subresource",
  7: "name",
};
const NON_RESOURCE_ATTRIBUTES = { 1: "path", 2: "verb" };

/** A SelfSubjectAccessReview or SelfSubjectRulesReview in protobuf, as the JSON the handler reads. */
export function reviewFromProtobuf(body: Uint8Array): Record<string, unknown> {
  const magic = [0x6b, 0x38, 0x73, 0x00];
  if (body.length < 4 || magic.some((b, i) => body[i] !== b))
    throw badRequest(`a ${PROTOBUF_TYPE} body starts with "k8s\\0"`);
  const unknown = fields(body.subarray(4));
  const typeMeta = sub(unknown, 1);
  const kind = typeMeta ? text(typeMeta, 2) : undefined;
  const apiVersion = typeMeta ? text(typeMeta, 1) : undefined;
  const raw = sub(unknown, 2);
  const spec = raw ? sub(raw, 2) : undefined;
  if (!spec) return { kind, apiVersion, spec: {} };
  if (kind === "SelfSubjectRulesReview") return { kind, apiVersion, spec: strings(spec, { 1: "namespace" }) };
  const ra = sub(spec, 1);
  const na = sub(spec, 2);
  return {
    kind,
    apiVersion,
    spec: {
      ...(ra ? { resourceAttributes: strings(ra, RESOURCE_ATTRIBUTES) } : {}),
      ...(na ? { nonResourceAttributes: strings(na, NON_RESOURCE_ATTRIBUTES) } : {}),
    },
  };
}
