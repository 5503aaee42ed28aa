// Notes a user can act on: objects referred to but absent from the input (a ConfigMap, a Secret, a
// ServiceAccount, a Namespace: the models assume they exist) are one short line by kind, apart from
// "fields not modelled (they may change the answer)", which then lists only the other fields.
import { describe, expect, it } from "vitest";
import { REFERENCE_FIELDS } from "../../src/load/manifest/references.ts";
import { REFERENCE_KINDS, splitReferences } from "../../src/scenario/references.ts";
import { cli } from "../cli/helpers.ts";

describe("notes on what is not in the input", () => {
  it("every reference field the loader lists has its kind", () => {
    expect(Object.keys(REFERENCE_KINDS).sort()).toEqual([...REFERENCE_FIELDS].sort());
  });

  it("splits references (by kind, first where) from the other fields", () => {
    const { missing, fields } = splitReferences([
      { field: "Volume.configMap", where: "a.yaml:3" },
      { field: "Container.resources.limits", where: "a.yaml:9" },
      { field: "EnvVarSource.configMapKeyRef", where: "b.yaml:4" },
      { field: "Volume.secret", where: "b.yaml:7" },
    ]);
    expect(missing).toEqual([
      { kind: "ConfigMap", where: "a.yaml:3" },
      { kind: "Secret", where: "b.yaml:7" },
    ]);
    expect(fields.map((f) => f.field)).toEqual(["Container.resources.limits"]);
  });

  it("ingress-nginx's cloud install: the admission Secret is a missing object, the strategy a field not modelled", async () => {
    const r = await cli(["audit", "test/fixtures/real/ingress-nginx/", "--faults", "drain", "--jobs", "1"]);
    const notes = r.out.split("\n").filter((l) => l.startsWith("note: "));
    expect(notes).toContain(
      "note: refers to objects not in the input (assumed to exist): Secret (test/fixtures/real/ingress-nginx/deploy.yaml:512)",
    );
    expect(notes).toContain(
      "note: fields not modelled (they may change the answer): DeploymentSpec.strategy (test/fixtures/real/ingress-nginx/deploy.yaml:410)",
    );
  }, 60_000);
});
