// docs/cli.md is the commands' own help as this version prints it (scripts/cli-docs.ts).

import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { cliPage } from "../../scripts/cli-docs.ts";

it("docs/cli.md is up to date with every command's --help (npm run docs:cli)", async () => {
  const page = await cliPage();
  expect(readFileSync("docs/cli.md", "utf8")).toBe(page);
  for (const c of ["simulate", "audit", "audit merge", "audit diff", "probes", "serve", "detector"])
    expect(page).toContain(`\n## faultline ${c}\n`);
  expect(page).toContain("--brief");
  expect(page).toContain("--stdin-filename");
}, 60_000);
