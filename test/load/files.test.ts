// loadScenarioFile: the file-system half. Paths in positions read relative to the current directory.

import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { formatLoadError, LoadError, loadScenarioFile } from "../../src/load/index.ts";
import { MAX_FILE_BYTES } from "../../src/load/source.ts";

function loadError(path: string): LoadError {
  try {
    loadScenarioFile(path);
  } catch (e) {
    if (e instanceof LoadError) return e;
    throw e;
  }
  throw new Error(`expected ${path} to fail`);
}

const tmp = mkdtempSync(join(tmpdir(), "faultline-load-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("loadScenarioFile", () => {
  it("reads a folder of manifests sorted by name, multi-document files and JSON", () => {
    const s = loadScenarioFile("test/load/fixtures/good/scenario.yaml");
    expect(s.name).toBe("scenario");
    expect(s.manifests.map((m) => `${m.pos.file}:${m.pos.line}:${m.kind}/${m.object.metadata.name}`)).toEqual(
      [
        "test/load/fixtures/good/k8s/10-db.yml:1:StatefulSet/db",
        "test/load/fixtures/good/k8s/20-web.yaml:1:Deployment/web",
        "test/load/fixtures/good/k8s/20-web.yaml:15:Service/web",
        "test/load/fixtures/good/extra.json:2:PodDisruptionBudget/db",
      ],
    );
    expect(s.ignored.map((i) => `${i.pos.file}:${i.pos.line}:${i.kind}/${i.name}`)).toEqual([
      "test/load/fixtures/good/k8s/10-db.yml:13:ConfigMap/db-config",
    ]);
    expect(s.timeline.map((t) => t.target ?? t.node)).toEqual([
      "worker-1",
      { namespace: "default", kind: "StatefulSet", workload: "db", index: 1 },
    ]);
  });

  it("points into the manifest file for an error inside it", () => {
    const e = loadError("test/fixtures/bad/manifest-error/scenario.yaml");
    expect(formatLoadError(e)).toBe(
      'test/fixtures/bad/manifest-error/web.yaml:6:13: spec.replicas: "three" is not an integer',
    );
    expect(e.code).toBe("invalid-type");
  });

  it("names the list entry of a manifest path that does not exist", () => {
    const e = loadError("test/fixtures/bad/missing-manifest.yaml");
    expect({ code: e.code, line: e.line, col: e.col, path: e.path }).toEqual({
      code: "file-not-found",
      line: 5,
      col: 5,
      path: "manifests[0]",
    });
    expect(e.message).toBe(
      'test/fixtures/bad/missing-manifest.yaml:5:5: manifests[0]: "nowhere/web.yaml": no such file or folder (paths are relative to the scenario file)',
    );
  });

  it("refuses a folder with no manifest files in it", () => {
    const e = loadError("test/fixtures/bad/empty-folder.yaml");
    expect(e).toMatchObject({ code: "file-not-found", line: 4, col: 13, path: "manifests[0]" });
    expect(e.message).toContain("the folder holds no .yaml, .yml or .json files");
  });

  it("reports a scenario file that does not exist, without a position", () => {
    const e = loadError("test/fixtures/bad/does-not-exist.yaml");
    expect(e).toMatchObject({ code: "file-not-found", line: 0, col: 0, path: "" });
    expect(formatLoadError(e)).toBe("test/fixtures/bad/does-not-exist.yaml: no such file");
  });

  it("refuses a folder given as the scenario file", () => {
    expect(loadError("test/fixtures/bad").code).toBe("unreadable-file");
  });

  it("refuses a scenario file larger than 16 MiB before reading it", () => {
    const big = join(tmp, "big.yaml");
    writeFileSync(big, "");
    truncateSync(big, MAX_FILE_BYTES + 1);
    const e = loadError(big);
    expect(e.code).toBe("file-too-large");
    expect(e.message).toContain("files larger than 16 MiB are refused");
  });

  it("refuses a manifest larger than 16 MiB, at its list entry", () => {
    const dir = join(tmp, "big-manifest");
    mkdirSync(dir);
    writeFileSync(join(dir, "s.yaml"), "duration: 1m\nnodes: {count: 1}\nmanifests:\n  - huge.yaml\n");
    writeFileSync(join(dir, "huge.yaml"), "");
    truncateSync(join(dir, "huge.yaml"), MAX_FILE_BYTES + 1);
    const e = loadError(join(dir, "s.yaml"));
    expect(e).toMatchObject({ code: "file-too-large", line: 4, col: 5, path: "manifests[0]" });
  });

  it("refuses a huge YAML text in the pure core too", async () => {
    const { parseScenario } = await import("../../src/load/index.ts");
    const text = `duration: 1m\n#${"x".repeat(MAX_FILE_BYTES)}\n`;
    expect(() => parseScenario(text, "s.yaml", () => undefined)).toThrow(/larger than 16 MiB/);
  });

  it("stops alias expansion bombs with a LoadError", async () => {
    const { parseScenario } = await import("../../src/load/index.ts");
    const lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"];
    for (let i = 0; i < 12; i++) {
      const prev = String.fromCharCode(97 + i);
      const next = String.fromCharCode(98 + i);
      lines.push(`${next}: &${next} [${Array(10).fill(`*${prev}`).join(", ")}]`);
    }
    const text = `${lines.join("\n")}\nduration: 1m\nnodes: {count: 1}\n`;
    expect(() => parseScenario(text, "bomb.yaml", () => undefined)).toThrow(LoadError);
  });
});
