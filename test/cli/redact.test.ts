// --redact: a run of a real cluster's dump shared without its names. Every name of a
// namespace, node, workload, pod, Service, claim and volume of the fixture dump is looked for, as a
// whole word, in every output: the text, the JSON, the HTML report's data and page, and --dump-at.
// The pseudonyms are stable (the same run twice gives the same bytes) and consistent (the run from
// the redacted names is the run from the real ones, renamed).

import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { loadScenarioFile } from "../../src/load/index.ts";
import { BUILTIN_NAMESPACES } from "../../src/load/manifest/references.ts";
import { cli } from "./helpers.ts";

const DUMP = "test/fixtures/cluster/shop-dump.yaml";
const NAMED = new Set([
  "Deployment",
  "ReplicaSet",
  "StatefulSet",
  "DaemonSet",
  "Pod",
  "Service",
  "PersistentVolumeClaim",
  "PersistentVolume",
]);

let names: string[];
beforeAll(() => {
  const s = loadScenarioFile(undefined, { cluster: DUMP });
  const all = new Set<string>(s.nodes.map((n) => n.name));
  for (const { kind, object } of s.manifests) {
    const ns = object.metadata.namespace;
    if (ns && !BUILTIN_NAMESPACES.includes(ns)) all.add(ns);
    if (NAMED.has(kind)) all.add(object.metadata.name);
  }
  names = [...all];
}, 60_000);

/** The names that stand as a whole word in `text`. */
const survivors = (text: string) =>
  names.filter((n) => new RegExp(`(?<![A-Za-z0-9])${n.replace(/\./g, "\\.")}(?![A-Za-z0-9])`).test(text));

/** The page's data (plain or gzipped) and the page without its scripts and styles. */
function reportTexts(html: string): string[] {
  const data = [
    ...html.matchAll(/<script type="application\/(?:json|octet-stream)"[^>]*>([\s\S]*?)<\/script>/g),
  ].map((m) =>
    m[0].includes('data-encoding="gzip-base64"')
      ? gunzipSync(Buffer.from(m[1]!, "base64")).toString()
      : m[1]!,
  );
  const page = html.replace(/<script[\s\S]*?<\/script>/g, "").replace(/<style[\s\S]*?<\/style>/g, "");
  return [...data, page];
}

describe("--redact", () => {
  it("no name of the dump survives in the text, the JSON, the HTML report or --dump-at; without it they are all there", async () => {
    expect(names.length).toBeGreaterThan(150);
    const dir = mkdtempSync(join(tmpdir(), "faultline-redact-"));
    const report = join(dir, "report.html");
    const text = await cli(["simulate", "--cluster", DUMP, "--redact", "--report", report]);
    expect(text.code).toBe(0);
    const json = await cli(["simulate", "--cluster", DUMP, "--redact", "--json"]);
    const dump = await cli(["simulate", "--cluster", DUMP, "--redact", "--dump-at", "2m"]);
    expect([json.code, dump.code]).toEqual([0, 0]);
    for (const out of [text.out, json.out, dump.out, ...reportTexts(readFileSync(report, "utf8"))])
      expect(survivors(out)).toEqual([]);
    // The check can fail: the same outputs without --redact hold the names.
    const plain = await cli(["simulate", "--cluster", DUMP, "--dump-at", "2m"]);
    expect(survivors(plain.out).length).toBe(names.length);
  }, 180_000);

  it("stable and consistent: the same pseudonyms each time; a node's power-off plays out as without --redact", async () => {
    const dir = mkdtempSync(join(tmpdir(), "faultline-redact-"));
    const scenario = join(dir, "s.yaml");
    const node = names.find((n) => n.startsWith("ip-10-0-2-21"))!;
    writeFileSync(
      scenario,
      `duration: 8m\ncluster: ${join(process.cwd(), DUMP)}\ntimeline:\n  - {at: 10s, do: power-off, node: ${node}}\n`,
    );
    const a = await cli(["simulate", scenario, "--redact"]);
    const b = await cli(["simulate", scenario, "--redact"]);
    expect(a.code).toBe(0);
    expect(a.out).toBe(b.out);
    // Renamed, the same failure plays out: the node goes silent, is tainted, its pods are evicted and
    // replaced. (Instants may move a little: the seed's draws follow the nodes' and pods' name order.)
    const plain = await cli(["simulate", scenario]);
    const steps = (out: string, what: RegExp) =>
      out.split("\n").filter((l) => /^t\+/.test(l) && what.test(l)).length;
    for (const what of [/loses power/, /sets \S+ Ready=Unknown/, /taints \S+ with/, /evicts/])
      expect([what.source, steps(a.out, what)]).toEqual([what.source, steps(plain.out, what)]);
    expect(steps(a.out, /evicts/)).toBeGreaterThan(0);
    expect(a.out).toContain("node-5 loses power");
  }, 180_000);

  it("--vary on a workload by its real name: varied under its pseudonym, the real name nowhere", async () => {
    const plain = await cli(["simulate", "--cluster", DUMP, "--vary", "behaviour.cart.bootSeconds=5,10"]);
    expect(plain.code).toBe(0);
    expect(plain.out).toContain("behaviour.cart.bootSeconds=5");
    const r = await cli([
      "simulate",
      "--cluster",
      DUMP,
      "--redact",
      "--vary",
      "behaviour.cart.bootSeconds=5,10",
    ]);
    expect([r.code, r.err]).toEqual([0, ""]);
    expect(r.out).toMatch(/behaviour\.deploy-\d+\.bootSeconds=5 /);
    expect(survivors(r.out)).toEqual([]);
  }, 180_000);
});
