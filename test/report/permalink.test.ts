// The page's permalink in real headless Chromium: zoom, step and a what-if go into the URL's fragment;
// opening that URL (a reload, or a new tab) shows the same view; a what-if runs in a Web Worker and
// exports the scenario YAML it ran; without Worker the page still runs it, on its own thread.

import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { main } from "../../src/cli/main.ts";
import { readView, writeView } from "../../src/report/html/model/permalink.ts";
import { launch, open } from "./browser.ts";

vi.setConfig({ hookTimeout: 600_000, testTimeout: 600_000 });

const OUT = resolve("out/permalink");
const FILE = join(OUT, "traffic.html");
let browser: Browser;

beforeAll(async () => {
  mkdirSync(OUT, { recursive: true });
  const err: string[] = [];
  const code = await main(["simulate", "examples/traffic-doks-power-off.yaml", "--report", FILE], {
    out: () => {},
    err: (s) => err.push(s),
  });
  expect(code, err.join("")).toBe(0);
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
});

/** What the view on show is: the time range, the player's step and the what-if's inputs. */
async function viewOf(page: Page) {
  return page.evaluate(() => ({
    step: document.getElementById("player-step")?.dataset.step,
    grace: (document.getElementById("wi-grace") as HTMLInputElement).value,
    etp: (document.getElementById("wi-etp") as HTMLSelectElement).value,
    whatIf: document.querySelector(".whatif-flag") !== null,
    bands: [...document.querySelectorAll<HTMLElement>(".band-row[data-kind='node'] .band")].map(
      (b) => `${b.dataset.state} ${b.style.left} ${b.style.width} ${b.hidden}`,
    ),
    figures: document.getElementById("headline")?.textContent,
  }));
}

describe("the fragment", () => {
  it("writes and reads the same view; refuses what it cannot read, by name", () => {
    const v = { range: [30, 90] as [number, number], step: 7, whatIf: { nodeMonitorGracePeriod: 20 } };
    expect(readView(writeView(v))).toEqual({ view: v, problems: [] });
    expect(readView("#from=x&to=3&step=2&whatif=%7B%22nodeMonitorGracePeriod%22%3A-1%7D&zoom=2")).toEqual({
      view: { step: 2, whatIf: {} },
      problems: [
        'from: "x" is not a number of 0 or more',
        "whatif.nodeMonitorGracePeriod: -1 is not a value the what-if takes",
        "zoom: not a part of the view",
      ],
    });
  });
});

describe("a permalink round trip", () => {
  it("zoom, step and a what-if survive a reload; the what-if runs in a worker and exports its YAML", async () => {
    const { page, errors } = await open(browser, FILE, { width: 1440, height: 900 });
    try {
      await page.fill("#wi-grace", "20");
      await page.locator("#wi-grace").dispatchEvent("change");
      await page.waitForFunction(() => document.body.dataset.runs === "1", undefined, { timeout: 300_000 });
      await page.selectOption("#wi-etp", "Local");
      await page.waitForFunction(() => document.body.dataset.runs === "2", undefined, { timeout: 300_000 });
      expect(await page.evaluate(() => document.body.dataset.whatifWhere)).toBe("worker");
      // After the what-if (a new run starts at its first fault): zoom in and step on.
      await page.click("#zoom-in");
      await page.click("#player-next");
      const before = await viewOf(page);
      expect(before.grace).toBe("20");
      expect(before.etp).toBe("Local");
      expect(before.whatIf).toBe(true);
      const url = page.url();
      const { view } = readView(new URL(url).hash);
      expect(view.whatIf).toEqual({ nodeMonitorGracePeriod: 20, externalTrafficPolicy: "Local" });
      expect(view.range).toBeDefined();
      expect(view.step).toBe(Number(before.step));
      // The what-if's scenario file, with its fields set.
      const yaml = (await page.locator("#whatif-yaml-text").textContent()) ?? "";
      expect(yaml).toMatch(/nodeMonitorGracePeriod: 20\b/);
      expect(await page.getAttribute("#whatif-yaml", "download")).toBe("traffic-doks-power-off.yaml");

      await page.reload();
      await page.waitForSelector("body[data-ready='true']", { timeout: 300_000 });
      expect(await viewOf(page)).toEqual(before);
      expect(page.url()).toBe(url);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("without Worker the what-if runs on the page's thread", async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    try {
      await page.addInitScript(() => {
        (window as unknown as { Worker: undefined }).Worker = undefined;
      });
      await page.goto(`file://${FILE}#whatif=${encodeURIComponent('{"nodeMonitorGracePeriod":20}')}`);
      await page.waitForSelector("body[data-ready='true']", { timeout: 300_000 });
      expect(await page.evaluate(() => document.body.dataset.whatifWhere)).toBe("page");
      expect(await page.inputValue("#wi-grace")).toBe("20");
    } finally {
      await page.close();
    }
  });
});
