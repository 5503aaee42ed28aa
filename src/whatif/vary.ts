// `faultline simulate FILE --vary KEY=V1,V2`: the same scenario once per value, each a variant made by
// patching its source (variant.ts), so that every value is checked exactly as the file's own would be,
// with the same located one-line message (exit 2). A value is read as YAML reads a scalar in the file
// ("25s" a string, 25 a number, true a boolean, 1.30 the text 1.30). Keys:
// - any field path of the scenario file: controlPlane.nodeMonitorGracePeriod, kubelet.…, network.…,
//   seed, profile, kubernetesVersion, behaviour.web.bootSeconds…;
// - traffic.<field>: that field of every `traffic:` entry (traffic.outlierDetection=true gives Envoy's
//   defaults, false none);
// - externalTrafficPolicy: the Services the callers use (every Service when there are no callers).

import { parse } from "yaml";
import { LoadError } from "../load/errors.ts";
import { PatchSyntaxError, parsePatchPath } from "../load/patch.ts";
import type { Patch, Scenario } from "../scenario/types.ts";
import { everyCaller, servicePolicy, variantOf } from "./variant.ts";

/** The option itself is malformed (not KEY=V1,V2): a usage error. */
export class VaryError extends Error {}

export interface Variation {
  key: string;
  values: string[];
}

export function parseVary(text: string): Variation {
  const t = text.trim();
  const eq = firstEqualsOutsideBrackets(t);
  if (eq <= 0 || eq === t.length - 1)
    throw new VaryError(`--vary: "${text}" is not KEY=V1,V2 (e.g. externalTrafficPolicy=Local,Cluster)`);
  const key = t.slice(0, eq).trim();
  try {
    parsePatchPath(key);
  } catch (e) {
    if (e instanceof PatchSyntaxError) throw new VaryError(`--vary: ${e.message}`);
    throw e;
  }
  const values = t
    .slice(eq + 1)
    .split(",")
    .map((v) => v.trim());
  if (values.some((v) => v === "")) throw new VaryError(`--vary: "${text}" has an empty value`);
  // A value written twice is one variant: each distinct text runs once, in the order first given.
  return { key, values: [...new Set(values)] };
}

function firstEqualsOutsideBrackets(s: string): number {
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === "[") depth++;
    else if (s[i] === "]") depth--;
    else if (s[i] === "=" && depth === 0) return i;
  }
  return -1;
}

/** A command-line value as the same text would be read in the scenario file (a flow mapping too: {}). */
export function scalarValue(text: string): unknown {
  try {
    return parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The patches one `--vary KEY=value` stands for. */
export function varyPatches(scenario: Scenario, key: string, text: string): Patch[] {
  const label = `--vary ${key}=${text}`;
  const value = scalarValue(text);
  if (key === "externalTrafficPolicy") {
    const patches = servicePolicy(scenario, typeof value === "string" ? value : text, label);
    if (patches.length === 0)
      throw new LoadError("invalid-value", label, 0, 0, "", "the manifests define no Service");
    return patches;
  }
  if (key.startsWith("traffic.")) {
    const field = key.slice("traffic.".length);
    if (!scenario.traffic?.length)
      throw new LoadError("invalid-value", label, 0, 0, "", "the scenario has no traffic section");
    if (field === "outlierDetection" && typeof value === "boolean") {
      // On: Envoy's defaults, as `outlierDetection: {}` in the file gives them; off: none.
      return everyCaller(scenario, field, value ? {} : undefined, label);
    }
    return everyCaller(scenario, field, value, label, text);
  }
  return [{ path: key, value, text, label }];
}

/** The scenario with `key` set to `text`: a LoadError naming `--vary key=text` if the value is invalid. */
export function applyVariation(scenario: Scenario, key: string, text: string): Scenario {
  return variantOf(scenario, varyPatches(scenario, key, text));
}
