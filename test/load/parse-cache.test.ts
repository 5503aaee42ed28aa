// parseYamlFile keeps a file's parsed documents for the next parse of the same text: each parse
// still gets values of its own, a clone's edits do not reach the kept documents, and a position is
// found as in the first parse.
import { describe, expect, it } from "vitest";
import { parseYamlFile } from "../../src/load/source.ts";

const TEXT =
  "kind: ConfigMap\nmetadata:\n  name: a\ndata: {x: '1'}\n---\nkind: Service\nmetadata: {name: b}\n";

describe("parseYamlFile's kept documents", () => {
  it("gives each parse values of its own", () => {
    const first = parseYamlFile(TEXT, "cache-a.yaml");
    (first[0]!.value as { data: { x: string } }).data.x = "changed";
    const second = parseYamlFile(TEXT, "cache-a.yaml");
    expect(second.map((d) => d.value)).toEqual([
      { kind: "ConfigMap", metadata: { name: "a" }, data: { x: "1" } },
      { kind: "Service", metadata: { name: "b" } },
    ]);
    expect(second[0]!.value).not.toBe(first[0]!.value);
  });

  it("keeps the documents as parsed when a copy is edited", () => {
    const [doc] = parseYamlFile(TEXT, "cache-b.yaml");
    const edited = doc!.withEdits([{ path: ["data", "x"], value: "2" }]);
    expect((edited.value as { data: unknown }).data).toEqual({ x: "2" });
    const [again] = parseYamlFile(TEXT, "cache-b.yaml");
    expect((again!.value as { data: unknown }).data).toEqual({ x: "1" });
    expect(again!.locate(["metadata", "name"])).toEqual({ line: 3, col: 9 });
  });

  it("parses another file of the same text as its own (messages name their file)", () => {
    parseYamlFile(TEXT, "cache-c.yaml");
    const [other] = parseYamlFile(TEXT, "cache-d.yaml");
    expect(other!.file).toBe("cache-d.yaml");
    expect(() => parseYamlFile("a: [", "cache-e.yaml")).toThrow(/invalid YAML/);
  });
});
