// Every kind of page the writers make (simulate, --vary, detector compare, audit) in real headless
// Chromium: the charts' y axis of a count starts at 0 and the x readout is a time (t+0:36), the
// what-if's probe inputs show at desktop width; every page, light and dark, at 1440×900 and 390×844,
// passes axe-core and never scrolls sideways.

import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { main } from "../../src/cli/main.ts";
import { axe, launch, open } from "./browser.ts";

vi.setConfig({ hookTimeout: 600_000, testTimeout: 600_000 });

const OUT = resolve("out/pages");

/** Runs the command line; `audit` exits 1 when it has findings, which the example shop has. */
async function cli(argv: string[], codes = [0]): Promise<void> {
  const err: string[] = [];
  const code = await main(argv, { out: () => {}, err: (s) => err.push(s) });
  expect(codes, err.join("")).toContain(code);
}

const pages = {
  simulate: join(OUT, "simulate.html"),
  probes: join(OUT, "probes.html"),
  vary: join(OUT, "vary.html"),
  detector: join(OUT, "detector.html"),
};

const AUDIT = join(OUT, "audit.html");
let browser: Browser;

beforeAll(async () => {
  mkdirSync(OUT, { recursive: true });
  await cli(["simulate", "examples/traffic-doks-power-off.yaml", "--report", pages.simulate]);
  await cli(["simulate", "examples/probes.yaml", "--report", pages.probes]);
  await cli([
    "simulate",
    "examples/traffic-doks-power-off.yaml",
    "--vary",
    "externalTrafficPolicy=Local,Cluster",
    "--report",
    pages.vary,
  ]);
  await cli(["detector", "compare", "--phi", "8,12", "--timeout", "5s", "--report", pages.detector]);
  await cli(["audit", "examples/audit/", "--jobs", "1", "--report", AUDIT], [0, 1]);
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
});

describe("the simulate page's charts", () => {
  it("a count's y axis starts at 0; the x readout on hover is a time", async () => {
    const { page } = await open(browser, pages.simulate, { width: 1440, height: 900 });
    try {
      await page.waitForSelector("#traffic-chart[data-y-min]");
      for (const id of ["traffic-chart", "cluster-chart"])
        expect(await page.getAttribute(`#${id}`, "data-y-min"), id).toBe("0");
      const over = page.locator("#traffic-chart .u-over");
      await over.scrollIntoViewIfNeeded();
      const box = (await over.boundingBox())!;
      await page.mouse.move(box.x + box.width * 0.4, box.y + box.height / 2);
      const readout = await page.locator("#traffic-chart .u-legend .u-series").first().textContent();
      expect(readout).toMatch(/^time\s*t\+\d+:\d\d(\.\d)?$/);
    } finally {
      await page.close();
    }
  });

  it("the what-if's probe inputs show at desktop width (the scroll box spans the form)", async () => {
    const { page } = await open(browser, pages.probes, { width: 1440, height: 900 });
    try {
      const wrapper = (await page.locator(".scroll-x.probe-settings").boundingBox())!;
      const form = (await page.locator("#whatif-form").boundingBox())!;
      expect(wrapper.width).toBeGreaterThan(form.width * 0.9);
      const input = page.locator(".probe-settings input").first();
      expect(await input.isVisible()).toBe(true);
      const r = (await input.boundingBox())!;
      expect(r.x + r.width).toBeLessThanOrEqual(wrapper.x + wrapper.width);
    } finally {
      await page.close();
    }
  });
});

const VIEWPORTS = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
] as const;
const SCHEMES = ["light", "dark"] as const;
const CASES = [...Object.keys(pages), "audit"].flatMap((kind) =>
  VIEWPORTS.flatMap((v) => SCHEMES.map((scheme) => [kind, `${v.width}×${v.height}`, scheme, v] as const)),
);

/** Opens a page; the audit page has no script (nor uPlot) to wait for, and a policy that refuses axe's. */
async function openKind(kind: string, viewport: { width: number; height: number }, scheme: "light" | "dark") {
  if (kind !== "audit")
    return (await open(browser, pages[kind as keyof typeof pages], viewport, scheme)).page;
  const page = await browser.newPage({ viewport, colorScheme: scheme, bypassCSP: true });
  await page.goto(`file://${AUDIT}`);
  return page;
}

describe("every page kind, light and dark, on a desktop and on a phone", () => {
  it.each(CASES)(
    "%s at %s, %s: axe-core finds nothing, no sideways page scroll",
    async (kind, _, scheme, v) => {
      const page = await openKind(kind, v, scheme);
      try {
        expect(await page.evaluate(() => matchMedia("(prefers-color-scheme: dark)").matches)).toBe(
          scheme === "dark",
        );
        // Everything folded open: the widest tables are inside.
        await page.evaluate(() => {
          for (const d of document.querySelectorAll("details")) d.open = true;
        });
        expect(await axe(page)).toEqual([]);
        // Wide tables scroll inside their own box, never the page.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(v.width);
        // The page's ground follows the scheme (white in light, dark in dark).
        const ground = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
        if (scheme === "dark") expect(ground).not.toBe("rgb(255, 255, 255)");
        else expect(ground).toBe("rgb(255, 255, 255)");
        if (kind === "audit") {
          // A run shown (its cell followed): its timeline fits too.
          await page.locator("table.heat a").first().click();
          expect(await axe(page), "with a run open").toEqual([]);
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
            v.width,
          );
        }
      } finally {
        await page.close();
      }
    },
  );
});
