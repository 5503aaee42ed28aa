// The source a shared report carries: no more than the loaded scenario held, and still loadable, so
// the page's what-if runs through load/.

import { describe, expect, it } from "vitest";
import { loadScenarioSource } from "../../src/load/index.ts";
import { REFERENCE_FIELDS } from "../../src/load/manifest/references.ts";
import { LEFT_OUT, redactForReport } from "../../src/report/privacy.ts";
import type { Scenario } from "../../src/scenario/types.ts";
import { applyWhatIf } from "../../src/whatif/index.ts";
import { shareableSource } from "../../src/whatif/share.ts";
import { load } from "../load/helpers.ts";

const APP = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: app
  annotations: {note: annotation-secret}
  managedFields: [{manager: kubectl}]
spec:
  selector: {matchLabels: {app: app}}
  template:
    metadata: {labels: {app: app}}
    spec:
      imagePullSecrets: [{name: registry-secret}]
      containers:
        - name: app
          image: app:1
          command: [run, --token=command-secret]
          env: [{name: PASSWORD, value: env-secret}]
          livenessProbe: {exec: {command: [check, --token=probe-secret]}, periodSeconds: 5}
      volumes:
        - {name: creds, secret: {secretName: volume-secret}}
        - {name: data, persistentVolumeClaim: {claimName: data}}
status: {replicas: 1}
---
apiVersion: v1
kind: Secret
metadata: {name: db}
stringData: {password: secret-data}
`;

const scenario = () =>
  load(
    "duration: 2m\nnodes: {count: 1}\nmanifests: [app.yaml] # a comment-secret\ntimeline: [{at: 10s, do: deadlock, pod: Deployment/app}]\n",
    { "app.yaml": APP },
  );
const texts = (s: Scenario["origin"]) =>
  [s!.source.text, ...Object.values(s!.source.manifests).flatMap((f) => f.map((x) => x.text))].join("\n");
// The share drops the objects of ignored kinds and the names a pod gives its Secrets and ConfigMaps
// (free text), so references to objects not among the manifests are no longer listed once shared.
const strip = ({ origin: _o, ignored: _i, timeline, traffic: _t, notModelled, ...rest }: Scenario) => ({
  ...rest,
  notModelled: notModelled.filter((n) => !REFERENCE_FIELDS.includes(n.field)),
  timeline: timeline.map(({ pos: _p, ...step }) => step),
});

describe("shareableSource", () => {
  it("keeps no free text the loaded scenario did not hold, and loads to the same scenario", () => {
    const s = scenario();
    const shared = shareableSource(s.origin!.source);
    const all = texts({ source: shared, patches: [] });
    for (const secret of [
      "command-secret",
      "env-secret",
      "registry-secret",
      "volume-secret",
      "secret-data",
      "comment-secret",
      "kubectl",
    ])
      expect(all).not.toContain(secret);
    const again = loadScenarioSource(shared);
    // Positions move (the documents are written again) and ignored kinds are gone.
    expect(strip(again)).toEqual(
      strip({ ...s, manifests: s.manifests.map((m) => ({ ...m, pos: again.manifests[0]!.pos })) }),
    );
  });

  it("the report's redaction reaches the source, and the page's what-if loads it", () => {
    const s = scenario();
    const safe = redactForReport(s, [], new Set()).scenario;
    const all = texts(safe.origin);
    expect(all).not.toContain("annotation-secret");
    expect(all).not.toContain("probe-secret");
    expect(all).toContain(LEFT_OUT);
    const whatIf = applyWhatIf(JSON.parse(JSON.stringify(safe)) as Scenario, { nodeMonitorGracePeriod: 20 });
    expect(whatIf.controlPlane.nodeMonitorGracePeriod).toBe(20);
  });
});
