// Errors that point where the fault is and say what it is: a JSON dump's syntax error at its column
// (not the end of the file), a duplicate key as a duplicate key, a byte order mark read past as
// kubectl does, a gap past the detectors' limit with that limit, a file's path said once.

import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { firstJsonProblem } from "../../src/load/cluster/json-scan.ts";
import { LoadError } from "../../src/load/index.ts";
import { cli, oneLine } from "../cli/helpers.ts";
import { load } from "./helpers.ts";

const SCENARIO = "duration: 5m\ncluster: dump.json\n";
const NODE = JSON.stringify({
  apiVersion: "v1",
  kind: "Node",
  metadata: { name: "n1" },
  status: {
    capacity: { cpu: "4", memory: "16Gi", pods: "110" },
    conditions: [{ type: "Ready", status: "True" }],
  },
});
const POD = JSON.stringify({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name: "web", namespace: "default" },
  spec: { nodeName: "n1", containers: [{ name: "app", image: "nginx:1.27" }] },
  status: { phase: "Running" },
});
const dump = (items: string) => `{"apiVersion":"v1","items":[${items}],"kind":"List","metadata":{}}`;

function loadError(files: Record<string, string>): LoadError {
  try {
    load(SCENARIO, files);
  } catch (e) {
    if (e instanceof LoadError) return e;
    throw e;
  }
  throw new Error("expected a LoadError");
}

describe("a JSON dump's error where it stands", () => {
  it("a NaN in a one-line dump: its own column, not the end of the file", () => {
    const text = dump(`${NODE},${POD.replace('"phase":"Running"', '"phase":NaN')}`);
    const e = loadError({ "dump.json": text });
    expect([e.code, e.line, e.col]).toEqual(["yaml-syntax", 1, text.indexOf("NaN") + 1]);
    expect(e.detail).toBe('invalid JSON: "NaN" cannot begin a JSON value');
    expect(e.col).toBeLessThan(text.length);
  });

  it.each([
    [
      "a missing comma",
      `${NODE} ${POD}`,
      (t: string) => t.indexOf(`${NODE} `) + NODE.length + 1,
      'where "," or "]" belongs',
    ],
    [
      "a raw tab inside a string",
      `${NODE},${POD.replace('"web"', '"w\teb"')}`,
      (t: string) => t.indexOf("\t"),
      "the control character U+0009 inside a string",
    ],
    [
      "a bad escape",
      `${NODE},${POD.replace('"web"', '"w\\xeb"')}`,
      (t: string) => t.indexOf("\\x"),
      "an escape JSON does not have",
    ],
    [
      "a key without quotes",
      NODE.replace('"kind"', "kind"),
      (t: string) => t.indexOf("kind:"),
      "where a key in double quotes belongs",
    ],
  ])("%s", (_name, items, offset, message) => {
    const text = dump(items);
    const e = loadError({ "dump.json": text });
    expect([e.line, e.col]).toEqual([1, offset(text) + 1]);
    expect(e.detail).toContain(message);
  });

  it("a file cut short: where the text ends", () => {
    const whole = dump(`${NODE},${POD}`);
    const text = whole.slice(0, whole.indexOf(POD));
    const e = loadError({ "dump.json": text });
    expect([e.line, e.col]).toEqual([1, text.length + 1]);
    expect(e.detail).toBe("invalid JSON: the JSON text ends here, unfinished");
    // Cut inside a string: where the string opens, which never ends.
    const inString = whole.slice(0, whole.indexOf('"nginx:1.27"') + 4);
    const s = loadError({ "dump.json": inString });
    expect([s.col, s.detail]).toEqual([
      inString.lastIndexOf('"') + 1,
      "invalid JSON: a string that never ends",
    ]);
  });

  it("a duplicate key: reported as one, at the second, where JSON.parse would silently keep the last", () => {
    const text = dump(
      `${NODE},${POD.replace('"namespace":"default"', '"namespace":"default","name":"other"')}`,
    );
    expect((JSON.parse(text) as { items: { metadata: { name: string } }[] }).items[1]!.metadata.name).toBe(
      "other",
    );
    const e = loadError({ "dump.json": text });
    expect([e.code, e.line, e.col]).toEqual(["duplicate-key", 1, text.indexOf('"name":"other"') + 1]);
    expect(e.detail).toBe('duplicate key "name" in one object');
    // The same key in two objects, or written with an escape in one object, is what it is.
    expect(firstJsonProblem('{"a":{"k":1},"b":{"k":2}}')).toBeUndefined();
    expect(firstJsonProblem('{"k":1,"\\u006b":2}')?.code).toBe("duplicate");
  });

  it("nested 100,000 levels deep: scanned without a stack overflow", () => {
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    expect(firstJsonProblem(deep)).toBeUndefined();
    expect(firstJsonProblem(`${"[".repeat(100_000)}}`)?.offset).toBe(100_000);
  });
});

describe("a UTF-8 byte order mark is read past, in dumps as in scenarios (kubectl's BOMOverride)", () => {
  it("a dump and a scenario that begin with U+FEFF load as without it", () => {
    const plain = load(SCENARIO, { "dump.json": dump(`${NODE},${POD}`) });
    const withBom = load(`\uFEFF${SCENARIO}`, { "dump.json": `\uFEFF${dump(`${NODE},${POD}`)}` });
    expect(withBom.nodes.map((n) => n.name)).toEqual(plain.nodes.map((n) => n.name));
    expect(withBom.manifests.map((m) => m.object.metadata.name)).toEqual(["web"]);
  });

  it("an error after the mark keeps its column (the mark is the first character)", () => {
    const text = `\uFEFF${dump(`${NODE},${POD.replace('"phase":"Running"', '"phase":NaN')}`)}`;
    const e = loadError({ "dump.json": text });
    expect(e.col).toBe(text.indexOf("NaN") + 1);
  });
});

describe("the command line's other inputs", () => {
  const dir = mkdtempSync(join(tmpdir(), "faultline-exact-"));

  it("a gaps file's 1e15 ms: refused with the detectors' limit (285 years), where it stands", async () => {
    const file = join(dir, "gaps.txt");
    writeFileSync(file, "# unit: ms\n1000 1010 1e15\n");
    const r = await cli(["detector", "compare", "--gaps-file", file, "--timeout", "5s"]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      `faultline: ${file}:2:11: "1e15" is longer than 285 years (9007199254740.99 ms), the longest gap the detectors take\n`,
    );
    writeFileSync(file, "# unit: ms\n1000 1010 9007199254740\n");
    expect((await cli(["detector", "compare", "--gaps-file", file, "--timeout", "5s"])).code).toBe(0);
  });

  it("an audit input that is not UTF-8: its path once, with the line and column", async () => {
    const file = join(dir, "bad.yaml");
    writeFileSync(file, Buffer.from("apiVersion: v1\nkind: Service\nmetadata: {name: \xff}\n", "latin1"));
    const r = await cli(["audit", file]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      `${file}:3:18: invalid UTF-8 at byte 46 (0xFF): faultline reads YAML and JSON as UTF-8\n`,
    );
    expect(oneLine(r.err)).toBe(true);
  });
});
