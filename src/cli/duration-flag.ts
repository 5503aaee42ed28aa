// The one rule for a duration on the command line, every command alike: Go's time.ParseDuration, as
// Kubernetes' own flags read theirs (kubectl --timeout, kubelet --node-status-update-frequency):
// a unit is required, and a bare number other than 0 is refused (Go: "missing unit in duration",
// src/time/format.go ParseDuration). Scenario files read a bare number as seconds (load/units.ts
// parseDuration); a flag does not, so that no command line guesses between seconds and milliseconds
// (the detector commands once read bare numbers as milliseconds).

import { parseDuration, UnitError } from "../load/units.ts";
import { UsageError } from "./io.ts";

const BARE_NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/** Seconds of a duration flag's value; a UsageError naming the flag when it is not a duration with a unit. */
export function durationFlag(flag: string, text: string): number {
  const s = text.trim();
  if (BARE_NUMBER.test(s) && Number(s) !== 0)
    throw new UsageError(`${flag}: "${text}" needs a unit (e.g. 1s, 500ms)`);
  try {
    return parseDuration(s);
  } catch (e) {
    if (e instanceof UnitError) throw new UsageError(`${flag}: "${text}" is not a duration: ${e.message}`);
    throw e;
  }
}
