// `profile: ./my-cluster.yaml`: a profile read from a file, in the shape of the built-in
// ones (src/scenario/profiles.ts) and of what `faultline compare --fit` writes: `name`, `source`,
// `controlPlane`, `kubelet`, `network`, each section validated as a scenario's own is, a mistake
// pointing at the profile file's line and column. Its settings lie over the stock profile's; the
// scenario's own `controlPlane`, `kubelet` and `network` win over it.

import type { ControlPlaneOverrides, ProfileName } from "../../scenario/types.ts";
import { type KubernetesVersion, PROFILE_NAMES, type ProfileFile } from "../../scenario/types.ts";
import { fail, knownFields, obj, oneOf, optStr } from "../check.ts";
import { parseYamlFile, type SourceDoc } from "../source.ts";
import { type ReadManifest, readFiles } from "./manifests.ts";
import { parseNetwork } from "./network.ts";
import { CONTROL_PLANE_FIELDS, overrides, parseKubelet } from "./settings.ts";

const PROFILE_FIELDS = ["name", "source", "controlPlane", "kubelet", "network"] as const;

/** A path, not a name: what `profile:` reads from a file. */
export function isProfilePath(v: unknown): v is string {
  return typeof v === "string" && (/^\.{0,2}\//.test(v) || /\.(ya?ml|json)$/i.test(v));
}

/** The scenario's `profile:`: a built-in name, or a file read and validated. */
export function parseProfileEntry(
  src: SourceDoc,
  v: unknown,
  readManifest: ReadManifest,
  version: KubernetesVersion,
): { name?: ProfileName; file?: ProfileFile } {
  if (v == null) return {};
  if (!isProfilePath(v)) return { name: oneOf(src, ["profile"], v, PROFILE_NAMES) };
  const files = readFiles(src, ["profile"], v, readManifest);
  if (files.length !== 1)
    fail(src, ["profile"], "invalid-value", `${JSON.stringify(v)} is a folder: a profile is one file`);
  const docs = parseYamlFile(files[0]!.text, files[0]!.file);
  if (docs.length !== 1)
    fail(
      src,
      ["profile"],
      "invalid-value",
      `${JSON.stringify(v)} holds ${docs.length} YAML documents: a profile is one`,
    );
  const doc = docs[0]!;
  const root = obj(
    doc,
    [],
    doc.value,
    "a profile (a mapping of name, source, controlPlane, kubelet, network)",
  );
  knownFields(doc, [], root, PROFILE_FIELDS, "profile");
  const name = optStr(doc, ["name"], root.name) ?? files[0]!.file;
  const controlPlane = overrides(
    doc,
    ["controlPlane"],
    root.controlPlane,
    CONTROL_PLANE_FIELDS,
  ) as ControlPlaneOverrides;
  return {
    file: {
      file: v,
      name,
      source: optStr(doc, ["source"], root.source) ?? "a profile file",
      controlPlane,
      kubelet: parseKubelet(doc, root.kubelet, version),
      network: parseNetwork(doc, root.network) ?? {},
    },
  };
}
