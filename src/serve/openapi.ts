// /openapi/v2 and /openapi/v3 as kube-apiserver publishes them (k8s.io/kube-openapi: the v2 spec's
// `definitions`, the v3 discovery index `{"paths": {"api/v1": {"serverRelativeURL": …}}}` and one
// v3 document per group-version with its `components.schemas`), generated from the compact field
// lists of openapi-core.ts, openapi-pod.ts and openapi-apps.ts. Each kind's schema carries
// `x-kubernetes-group-version-kind`, by which `kubectl explain` (v3, pkg/explain/v2) and client-go's
// openapi3 resolver find it. References and wrappers are kube-openapi's: a field of a named type is
// `allOf: [{$ref}]` in v3 and `$ref` in v2; Time, Quantity and IntOrString are string schemas with
// their formats. Only the served kinds' fields are described: none the served objects lack.

import { AFFINITY_DEFS } from "./openapi-affinity.ts";
import { APPS_DEFS, STATUS_DEFS } from "./openapi-apps.ts";
import { CORE_DEFS, type DefSpec, type FieldSpec, META_DEFS } from "./openapi-core.ts";
import { EVENTS_DEFS } from "./openapi-events.ts";
import { GROUP_DEFS, WORKLOAD_DEFS } from "./openapi-groups.ts";
import { POD_DEFS } from "./openapi-pod.ts";
import { CONFIG_DEFS, STORAGE_DEFS, VOLUME_DEFS } from "./openapi-storage.ts";
import { apiVersionOf, RESOURCES, type ResourceInfo } from "./resources.ts";
import { ok, type Reply } from "./responses.ts";
import { ApiError, notFoundPath } from "./status.ts";

type Schema = Record<string, unknown>;

const PREFIX: Record<string, string> = {
  core: "io.k8s.api.core.v1",
  apps: "io.k8s.api.apps.v1",
  policy: "io.k8s.api.policy.v1",
  coordination: "io.k8s.api.coordination.v1",
  discovery: "io.k8s.api.discovery.v1",
  events: "io.k8s.api.events.v1",
  storage: "io.k8s.api.storage.v1",
  meta: "io.k8s.apimachinery.pkg.apis.meta.v1",
};

const ITEMS: Record<string, DefSpec> = {
  ...META_DEFS,
  ...CORE_DEFS,
  ...POD_DEFS,
  ...STATUS_DEFS,
  ...APPS_DEFS,
  ...CONFIG_DEFS,
  ...VOLUME_DEFS,
  ...WORKLOAD_DEFS,
  ...GROUP_DEFS,
  ...STORAGE_DEFS,
  ...EVENTS_DEFS,
  ...AFFINITY_DEFS,
};

/** Each kind's list, as the list types of types.go declare it: "PodList is a list of Pods." */
function listSpec(short: string, spec: DefSpec): DefSpec {
  const [group, version, kind] = spec.gvk!;
  return {
    description: `${kind}List is a list of ${kind} objects.`,
    gvk: [group, version, `${kind}List`],
    required: ["items"],
    fields: {
      apiVersion: spec.fields.apiVersion!,
      kind: spec.fields.kind!,
      metadata: ["meta.ListMeta", "Standard list metadata."],
      items: [`[]${short}`, `List of ${kind} objects.`],
    },
  };
}

const SPECS: Record<string, DefSpec> = Object.fromEntries(
  Object.entries(ITEMS).flatMap(([k, s]) =>
    s.gvk
      ? [
          [k, s],
          [`${k}List`, listSpec(k, s)],
        ]
      : [[k, s]],
  ),
);

/** The string-typed wrappers, as k8s.io/apimachinery's OpenAPIDefinition of each declares itself. */
const WRAPPERS: Record<string, Schema> = {
  "io.k8s.apimachinery.pkg.apis.meta.v1.Time": {
    description:
      "Time is a wrapper around time.Time which supports correct marshaling to YAML and JSON.  Wrappers are provided for many of the factory methods that the time package offers.",
    type: "string",
    format: "date-time",
  },
  "io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime": {
    description: "MicroTime is version of Time with microsecond level precision.",
    type: "string",
    format: "date-time",
  },
  "io.k8s.apimachinery.pkg.api.resource.Quantity": {
    description:
      "Quantity is a fixed-point representation of a number. It provides convenient marshaling/unmarshaling in JSON and YAML, in addition to String() and AsInt64() accessors.",
    type: "string",
  },
  "io.k8s.apimachinery.pkg.util.intstr.IntOrString": {
    description:
      "IntOrString is a type that can hold an int32 or a string.  When used in JSON or YAML marshalling and unmarshalling, it produces or consumes the inner type.  This allows you to have, for example, a JSON field that can accept a name or number.",
    type: "string",
    format: "int-or-string",
  },
};

const TIME = "io.k8s.apimachinery.pkg.apis.meta.v1.Time";
const MICROTIME = "io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime";
const QUANTITY = "io.k8s.apimachinery.pkg.api.resource.Quantity";
const INTSTR = "io.k8s.apimachinery.pkg.util.intstr.IntOrString";

/** "core.Pod" → "io.k8s.api.core.v1.Pod". */
function fullName(short: string): string {
  const [group = "", name = ""] = short.split(".");
  const prefix = PREFIX[group];
  if (!prefix || !name) throw new Error(`openapi: unknown definition ${short}`);
  return `${prefix}.${name}`;
}

type Version = "v2" | "v3";

function ref(name: string, v: Version): Schema {
  return v === "v3" ? { $ref: `#/components/schemas/${name}` } : { $ref: `#/definitions/${name}` };
}

/** A named type in a field: v3 wraps the $ref in allOf so that a description may stand beside it. */
function named(name: string, v: Version, description?: string): Schema {
  const d = description !== undefined ? { description } : {};
  return v === "v3" ? { ...d, allOf: [ref(name, v)], default: {} } : { ...d, ...ref(name, v) };
}

/** The schema of one field, and the definitions it refers to. */
function fieldSchema([type, description]: FieldSpec, v: Version, refs: Set<string>): Schema {
  const use = (name: string) => {
    refs.add(name);
    return name;
  };
  if (type === "string" || type === "boolean")
    return { description, type, default: type === "string" ? "" : false };
  if (type === "integer") return { description, type, format: "int32" };
  if (type === "time") return named(use(TIME), v, description);
  if (type === "microtime") return named(use(MICROTIME), v, description);
  if (type === "intstr") return named(use(INTSTR), v, description);
  if (type === "quantities")
    return { description, type: "object", additionalProperties: named(use(QUANTITY), v) };
  if (type === "map")
    return { description, type: "object", additionalProperties: { type: "string", default: "" } };
  if (type === "[]string") return { description, type: "array", items: { type: "string", default: "" } };
  if (type.startsWith("[]"))
    return { description, type: "array", items: named(use(fullName(type.slice(2))), v) };
  return named(use(fullName(type)), v, description);
}

function defSchema(spec: DefSpec, v: Version, refs: Set<string>): Schema {
  const properties: Record<string, Schema> = {};
  for (const [name, f] of Object.entries(spec.fields)) properties[name] = fieldSchema(f, v, refs);
  return {
    description: spec.description,
    type: "object",
    ...(spec.required ? { required: [...spec.required] } : {}),
    properties,
    ...(spec.gvk
      ? {
          "x-kubernetes-group-version-kind": [
            { group: spec.gvk[0], kind: spec.gvk[2], version: spec.gvk[1] },
          ],
        }
      : {}),
  };
}

/** The definitions reachable from `roots`, by full name, sorted by name (as kube-openapi writes them). */
function definitions(roots: string[], v: Version): Record<string, Schema> {
  const out = new Map<string, Schema>();
  const todo = [...roots];
  while (todo.length > 0) {
    const name = todo.pop()!;
    if (out.has(name)) continue;
    const wrapper = WRAPPERS[name];
    if (wrapper) {
      out.set(name, wrapper);
      continue;
    }
    const short = Object.keys(SPECS).find((k) => fullName(k) === name);
    if (!short) throw new Error(`openapi: no definition for ${name}`);
    const refs = new Set<string>();
    out.set(name, defSchema(SPECS[short]!, v, refs));
    todo.push(...refs);
  }
  return Object.fromEntries([...out].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The served resources of one group-version whose kind has a schema here. */
function describedOf(apiVersion: string): ResourceInfo[] {
  return RESOURCES.filter((r) => apiVersionOf(r) === apiVersion && shortOf(r) !== undefined);
}

/** A served resource's definition ("core.Pod"), when its kind is described. */
function shortOf(r: ResourceInfo): string | undefined {
  return Object.keys(ITEMS).find((k) => {
    const gvk = ITEMS[k]!.gvk;
    return gvk !== undefined && gvk[0] === r.group && gvk[1] === r.version && gvk[2] === r.kind;
  });
}

/** The kinds of one group-version that have a schema here, and their lists, by full definition name. */
function kindsOf(apiVersion: string): string[] {
  return describedOf(apiVersion).flatMap((r) => [fullName(shortOf(r)!), fullName(`${shortOf(r)!}List`)]);
}

/** "CoreV1", "AppsV1": the group-version part of kube-apiserver's operation IDs. */
function opGroup(r: ResourceInfo): string {
  const g = r.group === "" ? "core" : r.group.split(".")[0]!;
  const cap = (x: string) => x.charAt(0).toUpperCase() + x.slice(1);
  return `${cap(g)}${cap(r.version)}`;
}

/**
 * The read operations of one group-version's described resources, as kube-apiserver's installer
 * names them (operationId "listCoreV1NamespacedPod", "readAppsV1NamespacedDeployment"), each with
 * `x-kubernetes-action` and the `x-kubernetes-group-version-kind` by which `kubectl explain` maps a
 * resource to its kind (its pkg/explain/v2/templates/plaintext.tmpl searches these paths).
 */
function pathsOf(apiVersion: string, v: Version): Record<string, Schema> {
  const out: Record<string, Schema> = {};
  for (const r of describedOf(apiVersion)) {
    const short = shortOf(r)!;
    const prefix = r.group === "" ? `/api/${r.version}` : `/apis/${r.group}/${r.version}`;
    const base = r.namespaced ? `${prefix}/namespaces/{namespace}/${r.resource}` : `${prefix}/${r.resource}`;
    const op = (verb: "list" | "read", def: string): Schema => {
      const schema = ref(fullName(def), v);
      return {
        get: {
          description: `${verb === "list" ? "list or watch objects of kind" : "read the specified"} ${r.kind}`,
          operationId: `${verb}${opGroup(r)}${r.namespaced ? "Namespaced" : ""}${r.kind}`,
          responses: {
            "200":
              v === "v3"
                ? { description: "OK", content: { "application/json": { schema } } }
                : { description: "OK", schema },
          },
          "x-kubernetes-action": verb === "list" ? "list" : "get",
          "x-kubernetes-group-version-kind": { group: r.group, kind: r.kind, version: r.version },
        },
      };
    };
    out[base] = op("list", `${short}List`);
    out[`${base}/{name}`] = op("read", short);
  }
  return out;
}

/** The served group-versions with at least one described kind, as v3 discovery names them: "api/v1", "apis/apps/v1". */
export function openApiV3Paths(): string[] {
  const seen: string[] = [];
  for (const r of RESOURCES) {
    const gv = apiVersionOf(r);
    const path = r.group === "" ? `api/${gv}` : `apis/${gv}`;
    if (!seen.includes(path) && kindsOf(gv).length > 0) seen.push(path);
  }
  return seen;
}

/** One group-version's OpenAPI v3 document; undefined for a path not served. */
export function openApiV3(path: string, gitVersion: string): Schema | undefined {
  if (!openApiV3Paths().includes(path)) return undefined;
  const gv = path.replace(/^apis?\//, "");
  return {
    openapi: "3.0.0",
    info: { title: "Kubernetes", version: gitVersion },
    paths: pathsOf(gv, "v3"),
    components: { schemas: definitions(kindsOf(gv), "v3") },
  };
}

/** FNV-1a over the document, 128 bits in hex: the index's `hash`, the same for the same document. */
function hashOf(text: string): string {
  let out = "";
  for (let round = 0; round < 4; round++) {
    let h = (0x811c9dc5 ^ Math.imul(round + 1, 0x9e3779b1)) >>> 0;
    for (let i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    out += h.toString(16).padStart(8, "0");
  }
  return out.toUpperCase();
}

/** The v3 discovery index (k8s.io/client-go/openapi: `OpenAPIV3Discovery`). */
export function openApiV3Index(gitVersion: string): Schema {
  const paths: Record<string, { serverRelativeURL: string }> = {};
  for (const p of openApiV3Paths()) {
    const doc = JSON.stringify(openApiV3(p, gitVersion));
    paths[p] = { serverRelativeURL: `/openapi/v3/${p}?hash=${hashOf(doc)}` };
  }
  return { paths };
}

/** The OpenAPI v2 (Swagger 2.0) document of every described kind. */
export function openApiV2(gitVersion: string): Schema {
  const gvs = [...new Set(RESOURCES.map((r) => apiVersionOf(r)))];
  return {
    swagger: "2.0",
    info: { title: "Kubernetes", version: gitVersion },
    paths: Object.assign({}, ...gvs.map((gv) => pathsOf(gv, "v2"))),
    definitions: definitions(gvs.flatMap(kindsOf), "v2"),
  };
}

/** JSON is served when the client accepts it (kube-openapi's handler also serves protobuf, which this server does not). */
function acceptsJson(accept: string | undefined): boolean {
  if (!accept) return true;
  return accept
    .split(",")
    .map((p) => p.split(";")[0]!.trim())
    .some((t) => t === "application/json" || t === "*/*" || t === "application/*");
}

/** GET /openapi/v2, /openapi/v3 and /openapi/v3/<path>: the document, or the Status why not. */
export function openApiReply(parts: string[], accept: string | undefined, gitVersion: string): Reply {
  const [, version, ...rest] = parts;
  let body: Schema | undefined;
  if (version === "v2" && rest.length === 0) body = openApiV2(gitVersion);
  else if (version === "v3" && rest.length === 0) body = openApiV3Index(gitVersion);
  else if (version === "v3") body = openApiV3(rest.join("/"), gitVersion);
  if (!body) throw notFoundPath();
  if (!acceptsJson(accept))
    throw new ApiError(
      406,
      "NotAcceptable",
      `faultline serves the OpenAPI documents as application/json only (Accept: ${accept})`,
    );
  return ok(200, body);
}
