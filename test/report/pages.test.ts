// Every kind of page the writers make (simulate, --vary, detector compare, audit) in real headless
// Chromium: the charts' y axis of a count starts at 0 and the x readout is a time (t+0:36), the
// what-if's probe inputs show at desktop width, and axe-core finds nothing.

import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { main } from "../../src/cli/main.ts";
import { axe, launch, open } from "./browser.ts";

vi.setConfig({ hookTimeout: 600_000, testTimeout: 600_000 });

const OUT = resolve("out/pages");

async function cli(argv: string[]): Promise<void> {
  const err: string[] = [];
  const code = await main(argv, { out: () => {}, err: (s) => err.push(s) });
  expect(code, err.join("")).toBe(0);
}

const pages = {
  simulate: join(OUT, "simulate.html"),
  probes: join(OUT, "probes.html"),
  vary: join(OUT, "vary.html"),
  detector: join(OUT, "detector.html"),
};

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

describe("axe-core on every page kind", () => {
  it.each(Object.keys(pages))("%s: no violation at 1440×900", async (kind) => {
    const { page } = await open(browser, pages[kind as keyof typeof pages], { width: 1440, height: 900 });
    try {
      expect(await axe(page)).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
