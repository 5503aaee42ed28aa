// The browser-safe part of load/ (no node: imports): for the HTML report and other pure callers.

export { formatLoadError, LoadError, type LoadErrorCode } from "./errors.ts";
export { loadScenarioSource, PatchSyntaxError, parsePatchPath, patchLabel } from "./patch.ts";
export {
  type ManifestFile,
  ManifestReadError,
  parseManifests,
  type ReadManifest,
} from "./scenario/manifests.ts";
export { parseScenario } from "./scenario/parse.ts";
export { formatDuration, parseDuration, parseQuantity, UnitError } from "./units.ts";
