// The core of load/ runs in the browser (the HTML report): only files.ts may touch node: modules.

import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { reportLoadError } from "../../src/cli/errors.ts";
import { LoadError } from "../../src/load/index.ts";

describe("load/ core", () => {
  const pure = readdirSync("src/load", { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts") && f !== "files.ts" && f !== "index.ts")
    .map((f) => `src/load/${f}`);
  it.each(pure)("%s imports no node: module", (file) => {
    expect(readFileSync(file, "utf8")).not.toMatch(/from\s+["']node:/);
  });
});

describe("reportLoadError", () => {
  it("prints a LoadError on one line and returns exit code 2", () => {
    let err = "";
    const io = { out: () => {}, err: (t: string) => (err += t) };
    const code = reportLoadError(
      new LoadError("unknown-node", "s.yaml", 7, 14, "timeline[2].node", 'no node named "x"'),
      io,
    );
    expect(code).toBe(2);
    expect(err).toBe('s.yaml:7:14: timeline[2].node: no node named "x"\n');
    expect(reportLoadError(new Error("boom"), io)).toBeUndefined();
  });
});
