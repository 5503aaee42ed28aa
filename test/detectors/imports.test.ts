// The detectors library imports only itself and src/engine/, and
// never a node: module: it runs in the browser for the report's detector page.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "../../src/detectors");

describe("src/detectors imports", () => {
  it.each(readdirSync(root).filter((f) => f.endsWith(".ts")))("%s imports only ./ and ../engine/", (file) => {
    const text = readFileSync(join(root, file), "utf8");
    const specifiers = [...text.matchAll(/^\s*(?:import|export)[^;]*?from\s+"([^"]+)"/gms)].map((m) => m[1]!);
    for (const s of specifiers) expect(s).toMatch(/^\.\/[a-z-]+\.ts$|^\.\.\/engine\/[a-z-]+\.ts$/);
  });
});
