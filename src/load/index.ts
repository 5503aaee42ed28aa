// load/: a scenario file (+ the manifests it references) → a validated Scenario, or one LoadError.
// `core.ts` is the same without the file system, for the browser.

export * from "./core.ts";
export { loadManifestFiles, loadScenarioFile, readManifestEntry, readManifestFiles } from "./files.ts";
