// /openapi/v2 and /openapi/v3 (issue 29 item 4): the v3 index points at one document per served
// group-version, each kind found by its x-kubernetes-group-version-kind through its paths (as
// kubectl explain finds it); every field the served objects carry is described (the schema is held
// to the objects), and JSON is refused only to a client that does not accept it.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openApiV2, openApiV3, openApiV3Paths } from "../../src/serve/openapi.ts";
import { RESOURCES } from "../../src/serve/resources.ts";
import { request, type Served, serveExample } from "./helpers.ts";

// biome-ignore lint/suspicious/noExplicitAny: parsed JSON schemas, read freely by tests
type Schema = Record<string, any>;

let s: Served;
let url: string;
beforeAll(async () => {
  s = await serveExample("node-power-loss.yaml", 70);
  url = s.serving.url;
}, 120_000);
afterAll(() => s?.stop());

/** Follow $ref and single allOf to the schema itself. */
function resolve(doc: Schema, schema: Schema): Schema {
  let x = schema;
  for (;;) {
    if (x.$ref) x = doc.components.schemas[String(x.$ref).replace("#/components/schemas/", "")];
    else if (x.allOf?.length === 1 && !x.properties) x = x.allOf[0];
    else return x;
  }
}

/** The paths of `value`'s fields that `schema` does not describe. */
function undescribed(doc: Schema, schema: Schema, value: unknown, path: string): string[] {
  const s = resolve(doc, schema);
  if (Array.isArray(value)) {
    if (s.type !== "array") return [`${path} (an array, described as ${s.type})`];
    return value.flatMap((v, i) => undescribed(doc, s.items, v, `${path}[${i}]`));
  }
  if (value === null || typeof value !== "object") return [];
  if (s.additionalProperties) return [];
  return Object.entries(value).flatMap(([k, v]) =>
    s.properties?.[k] ? undescribed(doc, s.properties[k], v, `${path}.${k}`) : [`${path}.${k}`],
  );
}

function kindSchema(doc: Schema, kind: string): Schema {
  const found = Object.values(doc.components.schemas as Record<string, Schema>).find((d) =>
    d["x-kubernetes-group-version-kind"]?.some((g: Schema) => g.kind === kind),
  );
  expect(found, kind).toBeDefined();
  return found!;
}

describe("/openapi/v3", () => {
  it("lists a document per described group-version, each at its serverRelativeURL", async () => {
    const index = (await request(`${url}/openapi/v3`)).json();
    expect(Object.keys(index.paths)).toEqual([
      "api/v1",
      "apis/apps/v1",
      "apis/policy/v1",
      "apis/coordination.k8s.io/v1",
      "apis/discovery.k8s.io/v1",
      "apis/events.k8s.io/v1",
      "apis/storage.k8s.io/v1",
    ]);
    const apps = await request(`${url}${index.paths["apis/apps/v1"].serverRelativeURL}`, {
      headers: { accept: "application/json" },
    });
    expect(apps.status).toBe(200);
    const doc = apps.json();
    expect(doc.openapi).toBe("3.0.0");
    // kubectl explain maps the resource to its kind through the path's operation.
    const op = doc.paths["/apis/apps/v1/namespaces/{namespace}/deployments"].get;
    expect(op["x-kubernetes-group-version-kind"]).toEqual({
      group: "apps",
      kind: "Deployment",
      version: "v1",
    });
    expect(op.operationId).toBe("listAppsV1NamespacedDeployment");
    const replicas = resolve(doc, kindSchema(doc, "Deployment").properties.spec).properties.replicas;
    expect(replicas.type).toBe("integer");
    expect(replicas.description).toMatch(/^Number of desired pods/);
  });

  it.each([
    ["node-power-loss.yaml", 70],
    ["probes.yaml", 60],
    ["statefulset-recovery.yaml", 60],
    ["node-drain.yaml", 60],
    ["traffic-doks-power-off.yaml", 60],
    ["../test/fixtures/serve-config/scenario.yaml", 60],
  ] as const)(
    "describes every field of every served object of every described kind (%s at %ds)",
    async (file, at) => {
      const served = file === "node-power-loss.yaml" ? s : await serveExample(file, at);
      const base = served.serving.url;
      const seen = new Set<string>();
      for (const r of RESOURCES) {
        const gv = r.group === "" ? `api/${r.version}` : `apis/${r.group}/${r.version}`;
        if (!openApiV3Paths().includes(gv)) continue;
        const doc = openApiV3(gv, "v1.32.0")!;
        if (
          !Object.values(doc.paths as Schema).some(
            (p) => p.get["x-kubernetes-group-version-kind"].kind === r.kind,
          )
        )
          continue;
        const items = (await request(`/${gv}/${r.resource}`.replace(/^/, base))).json().items as unknown[];
        if (items.length > 0) seen.add(r.kind);
        const schema = kindSchema(doc, r.kind);
        expect(items.flatMap((o, i) => undescribed(doc, schema, o, `${r.kind}[${i}]`))).toEqual([]);
      }
      expect(seen.has("Pod") && seen.has("Node")).toBe(true);
      if (served !== s) await served.stop();
    },
    120_000,
  );

  it("each described kind is served: a kind with a schema has a path", () => {
    const described = openApiV3Paths().flatMap((gv) =>
      Object.values(openApiV3(gv, "v1.32.0")!.paths as Schema).map(
        (p) => p.get["x-kubernetes-group-version-kind"].kind as string,
      ),
    );
    for (const kind of [
      "StatefulSet",
      "DaemonSet",
      "PersistentVolumeClaim",
      "PersistentVolume",
      "Event",
      "ConfigMap",
      "Secret",
      "ServiceAccount",
      "Lease",
      "EndpointSlice",
      "PodDisruptionBudget",
      "StorageClass",
      "VolumeAttachment",
    ])
      expect(described, kind).toContain(kind);
  });

  it("an unserved group-version is 404; a protobuf-only Accept is 406 NotAcceptable", async () => {
    expect(openApiV3Paths()).not.toContain("apis/batch/v1");
    expect((await request(`${url}/openapi/v3/apis/batch/v1`)).status).toBe(404);
    const pb = await request(`${url}/openapi/v3/api/v1`, {
      headers: { accept: "application/com.github.proto-openapi.spec.v3@v1.0+protobuf" },
    });
    expect(pb.status).toBe(406);
    expect(pb.json().reason).toBe("NotAcceptable");
  });
});

describe("/openapi/v2", () => {
  it("is Swagger 2.0 JSON with $ref into definitions, and the same document every time", async () => {
    const r = await request(`${url}/openapi/v2`, { headers: { accept: "application/json" } });
    expect(r.status).toBe(200);
    const doc = r.json();
    expect(doc.swagger).toBe("2.0");
    const pod = doc.definitions["io.k8s.api.core.v1.Pod"];
    expect(pod["x-kubernetes-group-version-kind"]).toEqual([{ group: "", kind: "Pod", version: "v1" }]);
    expect(pod.properties.spec.$ref).toBe("#/definitions/io.k8s.api.core.v1.PodSpec");
    for (const value of Object.values(doc.definitions as Record<string, Schema>))
      for (const p of Object.values((value.properties ?? {}) as Record<string, Schema>)) {
        const target = p.$ref ?? p.items?.$ref ?? p.additionalProperties?.$ref;
        if (target) expect(doc.definitions[target.replace("#/definitions/", "")], target).toBeDefined();
      }
    expect(JSON.stringify(openApiV2("v1.32.0"))).toBe(JSON.stringify(openApiV2("v1.32.0")));
  });
});
