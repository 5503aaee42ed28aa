// A manifest document no patch touches is collected once and added again to each load of its file
// (src/load/manifest/kept.ts): each load must get what collectObjects would have given it, from the
// same objects, and nothing a load does to its objects may reach another load's.
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { LoadError } from "../../src/load/errors.ts";
import { type Collected, collectObjects, emptyCollected } from "../../src/load/manifest/collect.ts";
import { collectDocument } from "../../src/load/manifest/kept.ts";
import { parseScenario } from "../../src/load/scenario/parse.ts";
import { parseYamlFile } from "../../src/load/source.ts";
import type { Scenario } from "../../src/scenario/types.ts";
import { variantOf } from "../../src/whatif/variant.ts";
import { dbStatefulSet } from "../helpers/objects.ts";

function deployment(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name },
    spec: {
      replicas: 2,
      ...extra,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          containers: [{ name: "app", image: "example/app:1" }],
          volumes: [{ name: "config", configMap: { name: `${name}-config` } }],
        },
      },
    },
  };
}

const docs = (...objects: Record<string, unknown>[]) => objects.map((o) => stringify(o)).join("---\n");
// Two not-modelled Deployment fields (minReadySeconds, strategy), each first in a different
// document, and a ConfigMap reference each that no object answers.
const FIRST = docs(deployment("a", { minReadySeconds: 5 }), {
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name: "c" },
});
const SECOND = docs(deployment("b", { minReadySeconds: 5, strategy: { type: "Recreate" } }));

/** The parts of a Collected a load reads, with each reference's lazily found position read. */
function view(c: Collected) {
  return {
    manifests: c.manifests.map((m) => ({ kind: m.kind, object: m.object, line: m.pos.line })),
    ignored: c.ignored.map((i) => ({ kind: i.kind, name: i.name, line: i.pos.line })),
    seen: [...c.seen.keys()],
    present: [...c.present],
    notModelled: [...c.notModelled],
    references: c.references.map((r) => ({ ...r, line: r.line, where: r.where })),
    where: c.where.map((w) => ({ file: w.src.file, path: w.path })),
  };
}

function direct(files: [string, string][]): Collected {
  const out = emptyCollected();
  for (const [file, text] of files)
    for (const doc of parseYamlFile(text, file)) collectObjects(doc, [], doc.value, out);
  return out;
}

function kept(files: [string, string][]): Collected {
  const out = emptyCollected();
  for (const [file, text] of files)
    for (const doc of parseYamlFile(text, file, undefined, true)) collectDocument(doc, out);
  return out;
}

describe("a manifest document collected once", () => {
  it("adds to a load what collectObjects would: its objects after the others, their indices and first fields shifted", () => {
    // The second file's documents are first kept at indices 0…, then added after the first file's.
    kept([["kept-second.yaml", SECOND]]);
    const files: [string, string][] = [
      ["kept-first.yaml", FIRST],
      ["kept-second.yaml", SECOND],
    ];
    const once = kept(files);
    expect(view(once)).toEqual(view(direct(files)));
    expect(view(kept(files))).toEqual(view(once));
    // minReadySeconds first appears in the first file's Deployment (object 0), strategy in the
    // second file's (object 1: the ConfigMap is not a modelled kind, so not among the manifests).
    expect(once.notModelled.get("DeploymentSpec.minReadySeconds")?.object).toBe(0);
    expect(once.notModelled.get("DeploymentSpec.strategy")).toEqual({
      where: "kept-second.yaml:8",
      object: 1,
      line: 8,
    });
    expect(once.references.map((r) => [r.target, r.object])).toEqual([
      ["ConfigMap/default/a-config", 0],
      ["ConfigMap/default/b-config", 1],
    ]);
  });

  it("refuses a duplicate with collectObjects' own message and position", () => {
    const twice: [string, string][] = [
      ["kept-dup-1.yaml", SECOND],
      ["kept-dup-2.yaml", SECOND],
    ];
    const message = (collect: () => unknown) => {
      try {
        collect();
      } catch (e) {
        if (e instanceof LoadError) return e.message;
        throw e;
      }
      return "no error";
    };
    kept([["kept-dup-2.yaml", SECOND]]);
    expect(message(() => kept(twice))).toBe(message(() => direct(twice)));
    expect(message(() => kept(twice))).toMatch(
      /kept-dup-2\.yaml:.*duplicate object: Deployment "default\/b"/,
    );
  });
});

describe("a variant's load", () => {
  const files: Record<string, string> = { "apps.yaml": docs(deployment("a"), deployment("b")) };
  const read = (entry: string) => (files[entry] ? [{ file: entry, text: files[entry] }] : undefined);
  const base = parseScenario(
    stringify({ duration: "1m", nodes: [{ name: "n1" }], manifests: ["apps.yaml"] }),
    "kept-variant.yaml",
    read,
  );
  const objectOf = (s: Scenario, name: string) =>
    s.manifests.find((m) => m.object.metadata.name === name)!.object;

  it("shares the base's objects where no patch reaches, and has its own where one does", () => {
    const variant = variantOf(base, [{ object: "Deployment/default/b", path: "spec.replicas", value: 5 }]);
    expect(objectOf(variant, "a")).toBe(objectOf(base, "a"));
    expect(objectOf(variant, "b")).not.toBe(objectOf(base, "b"));
    expect(objectOf(variant, "b")).toMatchObject({ spec: { replicas: 5 } });
    expect(objectOf(base, "b")).toMatchObject({ spec: { replicas: 2 } });
  });

  it("keeps the fields an older version's load dropped (the drop replaces the object, never changes it)", () => {
    const service = {
      apiVersion: "v1",
      kind: "Service",
      metadata: { name: "web" },
      spec: { selector: { app: "a" }, ports: [{ port: 80 }], trafficDistribution: "PreferClose" },
    };
    const db = dbStatefulSet(2);
    const text = docs(service, db);
    const load = (version: string) =>
      parseScenario(
        stringify({
          kubernetesVersion: version,
          duration: "1m",
          nodes: [{ name: "n1" }],
          manifests: ["svc.yaml"],
        }),
        "kept-version.yaml",
        (entry) => (entry === "svc.yaml" ? [{ file: entry, text }] : undefined),
      );
    const spec = (s: Scenario) => (objectOf(s, "web") as { spec: Record<string, unknown> }).spec;
    // MaxUnavailableStatefulSet is off before 1.35 and on in 1.35.0–1.35.3 (kubernetes/defaults.ts).
    const maxUnavailable = (s: Scenario) =>
      (objectOf(s, "db") as { spec: { updateStrategy: { rollingUpdate: Record<string, unknown> } } }).spec
        .updateStrategy.rollingUpdate.maxUnavailable;
    const old = load("1.30");
    expect([spec(old).trafficDistribution, maxUnavailable(old)]).toEqual([undefined, undefined]);
    const current = load("1.35.1");
    expect([spec(current).trafficDistribution, maxUnavailable(current)]).toEqual(["PreferClose", 2]);
    expect(spec(load("1.30")).trafficDistribution).toBeUndefined();
  });
});
