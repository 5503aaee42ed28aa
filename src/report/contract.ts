// What every JSON output of faultline starts with: the version of its format and the version of
// faultline that wrote it. The formats' JSON Schemas (schemas/*.schema.json) are generated from the
// output types by scripts/schemas.ts; a change that breaks a reader of an output raises its format
// version, and docs/json.md says what changed.

/** The version of the JSON output formats (simulate, audit, probes). */
export const FORMAT_VERSION = 1;

export interface Versioned {
  /** the version of this output's format (schemas/<output>.schema.json) */
  formatVersion: typeof FORMAT_VERSION;
  /** the version of faultline that wrote it */
  faultlineVersion: string;
}

export function versioned(version: string): Versioned {
  return { formatVersion: FORMAT_VERSION, faultlineVersion: version };
}
