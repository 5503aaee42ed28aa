// Patches on a scenario's source (load/patch.ts): set in the parsed YAML of the scenario file or of a
// manifest object, then loaded as a file is.

import { describe, expect, it } from "vitest";
import type { Deployment } from "../../src/kubernetes/objects.ts";
import { loadScenarioSource, PatchSyntaxError, parsePatchPath } from "../../src/load/index.ts";
import { variantOf } from "../../src/whatif/index.ts";
import { load } from "../load/helpers.ts";
import { errorLine, WEB, withTraffic } from "./helpers.ts";

const web = (s: ReturnType<typeof withTraffic>) =>
  s.manifests.find((m) => m.object.kind === "Deployment")!.object as Deployment;

describe("parsePatchPath", () => {
  it.each([
    ["controlPlane.nodeMonitorGracePeriod", ["controlPlane", "nodeMonitorGracePeriod"]],
    ["traffic[1].timeout", ["traffic", 1, "timeout"]],
    [
      "spec.containers[name=web].livenessProbe",
      ["spec", "containers", { field: "name", equals: "web" }, "livenessProbe"],
    ],
    ['metadata.labels["app.kubernetes.io/name"]', ["metadata", "labels", "app.kubernetes.io/name"]],
  ])("%s", (text, segments) => {
    expect(parsePatchPath(text)).toEqual(segments);
  });
  it.each([
    ["", '"" is not a field path (it is empty)'],
    ["a.", '"a." is not a field path (it ends with a dot)'],
    ["a[x]", '"a[x]" is not a field path ([x] is neither an index nor [field=value])'],
    ["a[0", '"a[0" is not a field path (an unclosed [ at 1)'],
  ])("%s is refused", (text, message) => {
    expect(() => parsePatchPath(text)).toThrow(new PatchSyntaxError(message));
  });
});

describe("patches of manifest objects", () => {
  it("set a probe field through [name=…], with the API's rules", () => {
    const s = withTraffic();
    const v = variantOf(s, [
      {
        object: "Deployment/default/web",
        path: "spec.template.spec.containers[name=web].livenessProbe.periodSeconds",
        value: 20,
      },
    ]);
    expect(web(v).spec.template.spec.containers[0]!.livenessProbe?.periodSeconds).toBe(20);
    expect(web(s).spec.template.spec.containers[0]!.livenessProbe?.periodSeconds).toBe(5);
    expect(
      errorLine(() =>
        variantOf(s, [
          {
            object: "Deployment/web",
            path: "spec.template.spec.containers[name=web].livenessProbe.periodSeconds",
            value: -1,
            label: "probe period -1",
          },
        ]),
      ),
    ).toBe("probe period -1: -1 is too small: must be at least 0");
  });

  it("a missing object or list element is an error naming the patch", () => {
    const s = withTraffic();
    expect(
      errorLine(() =>
        variantOf(s, [{ object: "Service/default/nope", path: "spec.type", value: "NodePort" }]),
      ),
    ).toBe('Service/default/nope spec.type=NodePort: no Service "default/nope" in the manifests');
    expect(
      errorLine(() =>
        variantOf(s, [
          { object: "Deployment/web", path: "spec.template.spec.containers[name=api].image", value: "x" },
        ]),
      ),
    ).toBe(
      'Deployment/web spec.template.spec.containers[name=api].image=x: spec.template.spec.containers has no element with name "api"',
    );
  });

  it("reach inline manifests in the scenario file and objects in a List", () => {
    const list = `apiVersion: v1\nkind: List\nitems:\n${WEB.split("---\n")
      .map((o) => `  - ${o.trim().replace(/\n/g, "\n    ")}`)
      .join("\n")}\n`;
    const s = load("duration: 1m\nnodes: [{name: worker-1}]\nmanifests: [list.yaml]\n", {
      "list.yaml": list,
    });
    const v = variantOf(s, [{ object: "Service/web", path: "spec.externalTrafficPolicy", value: "Local" }]);
    expect(
      v.manifests.find((m) => m.object.metadata.name === "web" && m.kind === "Service")?.object,
    ).toMatchObject({
      spec: { externalTrafficPolicy: "Local" },
    });
    const inline = load(
      "duration: 1m\nnodes: [{name: worker-1}]\nmanifests:\n  - {apiVersion: v1, kind: Service, metadata: {name: a}, spec: {selector: {x: y}}}\n",
    );
    const w = variantOf(inline, [{ object: "Service/a", path: "spec.type", value: "NodePort" }]);
    expect(w.manifests[0]?.object).toMatchObject({ spec: { type: "NodePort" } });
  });

  it("undefined removes a field; later patches win", () => {
    const s = withTraffic("controlPlane: {nodeMonitorGracePeriod: 30s}\n");
    expect(
      variantOf(s, [{ path: "controlPlane.nodeMonitorGracePeriod", value: undefined }]).controlPlane,
    ).toEqual({});
    expect(
      variantOf(s, [
        { path: "controlPlane.nodeMonitorGracePeriod", value: "10s" },
        { path: "controlPlane.nodeMonitorGracePeriod", value: "20s" },
      ]).controlPlane.nodeMonitorGracePeriod,
    ).toBe(20);
  });
});

describe("a scenario's source", () => {
  it("is everything load/ read, and loads to the same scenario", () => {
    const s = withTraffic();
    expect(Object.keys(s.origin!.source.manifests)).toEqual(["web.yaml"]);
    const again = loadScenarioSource(s.origin!.source);
    const strip = ({ origin: _, ...rest }: typeof s) => rest;
    expect(strip(again)).toEqual(strip(s));
    // Plain data: it survives JSON, as the HTML report holds it.
    expect(strip(loadScenarioSource(JSON.parse(JSON.stringify(s.origin!.source))))).toEqual(strip(s));
  });

  it("a scenario built by hand has none, and variantOf says so", () => {
    const { origin: _, ...bare } = withTraffic();
    expect(() => variantOf(bare, [])).toThrow(
      /built by hand, not loaded through load\/: it has no source to patch/,
    );
  });
});
