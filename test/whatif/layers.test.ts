// whatif/ sits above the run: the run never imports it, and it runs in the browser (no node:).

import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const files = (dir: string) =>
  readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts"))
    .map((f) => `${dir}/${f}`);

describe("whatif/", () => {
  it.each(files("src/whatif"))("%s imports no node: module", (file) => {
    expect(readFileSync(file, "utf8")).not.toMatch(/from\s+["']node:/);
  });
  const below = [
    ...[
      "src/run",
      "src/cluster",
      "src/controllers",
      "src/kubelet",
      "src/network",
      "src/traffic",
      "src/faults",
      "src/load",
      "src/scenario",
      "src/kubernetes",
    ].flatMap(files),
  ];
  it.each(below)("%s does not import whatif/", (file) => {
    expect(readFileSync(file, "utf8")).not.toMatch(/from\s+["'][./]*whatif\//);
  });
});
