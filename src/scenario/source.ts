// What a scenario was loaded from: its files' texts and the patches applied to them (whatif/ makes
// variants by patching the source and loading it again).

/** A manifest file as read: its text, and its name as it should appear in messages. */
export interface ManifestFile {
  text: string;
  file: string;
}

/**
 * A scenario's source: the scenario file's text and the manifest files it names, as read. Plain data
 * (the HTML report can hold it), loaded by load/'s pure core (loadScenarioSource).
 */
export interface ScenarioSource {
  /** The scenario file's name, as messages show it. */
  file: string;
  text: string;
  /** The files each `manifests:` path entry read, keyed by the entry as written. */
  manifests: Record<string, ManifestFile[]>;
}

/**
 * One change to a scenario's source, set in the parsed YAML before validation, so that a variant gets
 * exactly the rules, defaults and messages of the file. `path` is dotted, with `[i]` for a list index,
 * `[name=x]` for the list element whose name is x and `["a/b"]` for a key that is not a plain word:
 * `controlPlane.nodeMonitorGracePeriod`, `traffic[0].timeout`, and in a manifest object
 * `spec.externalTrafficPolicy` or `spec.template.spec.containers[name=web].livenessProbe.periodSeconds`.
 */
export interface Patch {
  path: string;
  /** A manifest object, `Kind/namespace/name` (or `Kind/name` in namespace default); absent: the scenario file. */
  object?: string;
  /** The value as the file would hold it ("25s", 25, true, {}); undefined (absent in JSON) removes the field. */
  value?: unknown;
  /** The value's text as typed (a command line), kept as its YAML source: "1.30" stays 1.30. */
  text?: string;
  /** How messages name the patch, e.g. `--vary controlPlane.nodeMonitorPeriod=-1s`; default `path=value`. */
  label?: string;
}

export interface ScenarioOrigin {
  source: ScenarioSource;
  /** The patches applied to `source`, in order: none for the file as it is. */
  patches: Patch[];
}
