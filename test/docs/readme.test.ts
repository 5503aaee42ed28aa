// The README is a page people navigate: at most 250 lines, set-up `npm ci` and `npm test`, the main job
// as its first example, a "More" section for further pages, and every page it links to present.

import { existsSync, readFileSync } from "node:fs";
import { expect, it } from "vitest";

it("is at most 250 lines, starts with the main job, and links only to pages that exist", () => {
  const text = readFileSync("README.md", "utf8");
  expect(text.split("\n").length).toBeLessThanOrEqual(250);
  const commands = [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!.trim());
  expect(commands[0]).toBe("npm ci\nnpm test");
  expect(commands[1]).toBe("npx faultline simulate examples/node-power-loss.yaml");
  expect(text).toMatch(/\n## More\n/);
  for (const [, link] of text.matchAll(/\]\(((?:docs\/|CONTRIBUTING)[^)#]*)/g))
    expect(existsSync(link!), link).toBe(true);
  expect(existsSync("CONTRIBUTING.md")).toBe(true);
});
