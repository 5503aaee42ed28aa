// How Kubernetes names the objects controllers create, so pods read as they would in a cluster.

import type { Rng } from "../engine/rng.ts";

/** utilrand's alphabet: no vowels (no words) and no confusable characters (k8s.io/apimachinery/pkg/util/rand). */
const ALPHANUMS = "bcdfghjklmnpqrstvwxz2456789";

/** utilrand.String(n), from the scenario's seeded generator: the suffix of generateName. */
export function randomSuffix(rng: Rng, n = 5): string {
  let s = "";
  for (let i = 0; i < n; i++) s += ALPHANUMS[rng.int(ALPHANUMS.length)];
  return s;
}

/**
 * pod-template-hash: ComputeHash (pkg/controller/controller_utils.go) is FNV-32a over the template,
 * rendered with rand.SafeEncodeString. faultline hashes the template's JSON, so the value is stable
 * for a given manifest though not byte-equal to the cluster's.
 */
export function podTemplateHash(template: unknown): string {
  const text = JSON.stringify(template);
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return safeEncode(String(h));
}

/** rand.SafeEncodeString: each byte mapped onto the alphabet. */
function safeEncode(s: string): string {
  let out = "";
  for (let i = 0; i < s.length; i++) out += ALPHANUMS[s.charCodeAt(i) % ALPHANUMS.length];
  return out;
}
