// The source a shared report may carry, so that the page's what-if can load its variants through
// load/ without the page holding more than the loaded scenario ever did: every document read and
// written again (no comments), the objects of kinds faultline ignores dropped (a Secret's data, a
// ConfigMap's), and the free text the loader checks but never keeps emptied (a container's env,
// args and command, volume and PersistentVolume source details, a StorageClass's parameters,
// managedFields, status). `redact` runs on each document's value last: the report's own policy
// (annotation values, exec commands; src/report/privacy.ts). Browser-safe.

import { parseAllDocuments, stringify } from "yaml";
import { MODELLED_MANIFEST_KINDS } from "../kubernetes/objects.ts";
import type { ManifestFile, ScenarioSource } from "../scenario/types.ts";

type Value = unknown;
type Obj = Record<string, Value>;

const isObj = (v: Value): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** Container fields the loader never keeps whose values are free text (secrets, tokens, paths). */
const CONTAINER_TEXT = ["args", "command", "env", "envFrom", "workingDir"];
/** Pod fields likewise. */
const POD_TEXT = ["dnsConfig", "hostAliases", "imagePullSecrets"];
/** Volume sources whose details the loader keeps (a claim's name); any other's details are emptied. */
const KEPT_VOLUME_SOURCES = new Set(["name", "persistentVolumeClaim", "emptyDir"]);

export function shareableSource(
  source: ScenarioSource,
  redact: (value: Value) => Value = (v) => v,
): ScenarioSource {
  const manifests: Record<string, ManifestFile[]> = {};
  for (const [entry, files] of Object.entries(source.manifests)) {
    manifests[entry] = files.map((f) => ({
      file: f.file,
      text: rewrite(f.text, (v) => redact(shareObject(v))),
    }));
  }
  return {
    file: source.file,
    text: rewrite(source.text, (v) => redact(shareScenario(v))),
    manifests,
  };
}

/** Each document's value through `f` (undefined drops it), written again as YAML. */
function rewrite(text: string, f: (value: Value) => Value): string {
  const out: string[] = [];
  for (const doc of parseAllDocuments(text)) {
    if (doc.errors.length > 0) return text; // not loadable anyway: nothing to share but the error
    const value = f(doc.toJS({ maxAliasCount: 100 }));
    if (value !== undefined && value !== null) out.push(stringify(value));
  }
  return out.join("---\n");
}

function shareScenario(v: Value): Value {
  if (!isObj(v) || !Array.isArray(v.manifests)) return v;
  return {
    ...v,
    manifests: v.manifests.map((m) => (isObj(m) ? shareObject(m) : m)).filter((m) => m !== undefined),
  };
}

/** A manifest value: a List's items one by one, an ignored kind dropped, a loaded kind's free text emptied. */
function shareObject(v: Value): Value {
  if (!isObj(v)) return v;
  if (Array.isArray(v.items)) return { ...v, items: v.items.map(shareObject).filter((i) => i !== undefined) };
  if (!(MODELLED_MANIFEST_KINDS as readonly string[]).includes(String(v.kind))) return undefined;
  const { status: _, ...o } = v;
  if (isObj(o.metadata)) {
    const { managedFields: _m, ...metadata } = o.metadata;
    o.metadata = metadata;
  }
  if (o.kind === "StorageClass") delete o.parameters;
  const spec = o.spec;
  if (isObj(spec)) {
    if (o.kind === "PersistentVolume")
      o.spec = emptySources(
        spec,
        new Set([
          "accessModes",
          "capacity",
          "claimRef",
          "mountOptions",
          "nodeAffinity",
          "persistentVolumeReclaimPolicy",
          "storageClassName",
          "volumeAttributesClassName",
          "volumeMode",
        ]),
      );
    else if (o.kind === "Pod") o.spec = sharePodSpec(spec);
    else if (isObj(spec.template) && isObj(spec.template.spec))
      o.spec = { ...spec, template: { ...spec.template, spec: sharePodSpec(spec.template.spec) } };
  }
  return o;
}

function sharePodSpec(spec: Obj): Obj {
  const out: Obj = { ...spec };
  for (const k of POD_TEXT) delete out[k];
  for (const list of ["containers", "initContainers", "ephemeralContainers"]) {
    const cs = out[list];
    if (Array.isArray(cs)) {
      out[list] = cs.map((c) => {
        if (!isObj(c)) return c;
        const copy = { ...c };
        for (const k of CONTAINER_TEXT) delete copy[k];
        return copy;
      });
    }
  }
  if (Array.isArray(out.volumes))
    out.volumes = out.volumes.map((v) => (isObj(v) ? emptySources(v, KEPT_VOLUME_SOURCES) : v));
  return out;
}

/** Every key not in `keep` keeps its name (the loader needs to see which source it is) with an empty value. */
function emptySources(o: Obj, keep: ReadonlySet<string>): Obj {
  const out: Obj = {};
  for (const [k, v] of Object.entries(o)) out[k] = keep.has(k) ? v : {};
  return out;
}
