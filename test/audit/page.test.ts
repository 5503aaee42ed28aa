// `faultline audit --report audit.html` on the example shop: the heat map's cells are the figures of
// the runs `--json` prints, each cell opens its run's timeline, the JSON is the same with or without
// the page, and the page passes axe-core on a desktop and a phone viewport, in real Chromium.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cellClass } from "../../src/audit/page.ts";
import type { AuditResult } from "../../src/audit/types.ts";
import { formatDuration } from "../../src/load/units.ts";
import { cli } from "../cli/helpers.ts";
import { axe, launch } from "../report/browser.ts";

const dir = mkdtempSync(join(tmpdir(), "faultline-audit-page-"));
const file = join(dir, "audit.html");
let json: AuditResult;
let jsonWithPage: string;
let jsonAlone: string;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  const withPage = await cli(["audit", "examples/audit/", "--jobs", "1", "--json", "--report", file]);
  const alone = await cli(["audit", "examples/audit/", "--jobs", "1", "--json"]);
  jsonWithPage = withPage.out;
  jsonAlone = alone.out;
  json = JSON.parse(alone.out) as AuditResult;
  browser = await launch();
  // bypassCSP: axe-core is put into the page as a script, which the page's policy (no script at
  // all) refuses; test/audit/page-secrets.test.ts checks that policy.
  page = await browser.newPage({ viewport: { width: 1440, height: 900 }, bypassCSP: true });
  await page.goto(`file://${file}`);
}, 600_000);

afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("audit --report", () => {
  it("leaves the JSON as it is without the page (the timelines are the page's only)", () => {
    expect(jsonWithPage).toBe(jsonAlone);
    expect(jsonAlone).not.toContain('"timeline"');
  });

  it("has a cell per Service and sweep run, showing that run's figures, linked to its timeline", async () => {
    const sweep = json.runs.filter((r) => !r.id.startsWith("x/"));
    const cells = await page.$$eval("#services + .scroll table tbody tr", (rows) =>
      rows.map((r) => ({
        service: r.querySelector("th")!.textContent,
        cells: [...r.querySelectorAll("td")].map((td) => ({
          cls: td.className,
          label: td.querySelector("a")?.getAttribute("aria-label") ?? "",
          href: td.querySelector("a")?.getAttribute("href") ?? "",
        })),
      })),
    );
    expect(cells.map((r) => r.service)).toEqual(json.audit.services);
    for (const row of cells) {
      expect(row.cells).toHaveLength(sweep.length);
      row.cells.forEach((c, i) => {
        const f = sweep[i]!.services[row.service!]!;
        expect(c.cls, `${row.service} in ${sweep[i]!.id}`).toBe(cellClass(f));
        // The label names the run's own outage, not just its kind.
        if (f.outage > 0)
          expect(c.label).toContain(`: ${formatDuration(Math.round(f.outage))} without a ready endpoint`);
        else expect(c.label).toContain("never without a ready endpoint");
      });
    }
    // Every link leads to a section of the page.
    const hrefs = new Set(cells.flatMap((r) => r.cells.map((c) => c.href)));
    for (const h of hrefs) expect(await page.$(h), h).not.toBeNull();
  });

  it("a run is hidden until its cell is followed; then it shows its timeline in Kubernetes' words", async () => {
    const stuck = page.locator("#services + .scroll td.stuck a").first();
    const target = (await stuck.getAttribute("href"))!;
    expect(await page.locator(target).isVisible()).toBe(false);
    await stuck.click();
    await expect.poll(() => page.locator(target).isVisible()).toBe(true);
    const text = await page.locator(target).textContent();
    expect(text).toMatch(/Ready=Unknown: "Kubelet stopped posting node status\."/);
    expect(text).toMatch(/not whole by itself/);
  });

  it("the finding's links lead to the run that measured it and to its fix's run", async () => {
    const links = await page.$$eval(".findings a", (as) => as.map((a) => a.getAttribute("href")!));
    expect(links.length).toBe(json.findings.length * 2);
    for (const h of links) expect(await page.$(h), h).not.toBeNull();
  });

  it("passes axe-core on a desktop and on a phone, with a run open", async () => {
    expect((await axe(page)).map((v) => `${v.id}: ${v.nodes.join(", ")}`)).toEqual([]);
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, bypassCSP: true });
    await phone.goto(`file://${file}`);
    expect((await axe(phone)).map((v) => `${v.id}: ${v.nodes.join(", ")}`)).toEqual([]);
    await phone.close();
  }, 120_000);
});
