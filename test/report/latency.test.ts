// The report's latency chart in real headless Chromium, against the command line's --json: for every
// example with callers, the chart's p99 (read from its legend under the pointer) and its table equal
// the JSON's `traffic.perSecond` p99Ms in each second of the loss window; the loss window is shaded
// there and nowhere else; the dashed line is labelled with the callers' timeout (and SLO), and follows a
// what-if. Without callers there is no chart.

import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { main } from "../../src/cli/main.ts";
import { clock } from "../../src/report/text.ts";
import type { TrafficResult } from "../../src/traffic/index.ts";
import { launch, open } from "./browser.ts";

// A real browser and whole simulations (the command line's and the page's what-ifs) on a busy 2-core
// machine: generous limits for the hooks (launching Chromium, simulating every example) and tests.
vi.setConfig({ hookTimeout: 600_000, testTimeout: 600_000 });

const OUT = resolve("out/report");
const withCallers = (file: string) => /^traffic:/m.test(readFileSync(file, "utf8"));
const EXAMPLES = readdirSync("examples")
  .filter((f) => f.endsWith(".yaml"))
  .map((f) => `examples/${f}`)
  .sort();
const TRAFFIC = [...EXAMPLES.filter(withCallers), "test/report/fixtures/power-loss-traffic.yaml"];

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (s) => out.push(s), err: (s) => err.push(s) });
  return { code, out: out.join(""), err: err.join("") };
}

/** The scenario's report and its --json traffic. */
async function run(
  src: string,
  name: string,
): Promise<{ file: string; traffic: TrafficResult | undefined; end: number }> {
  const file = join(OUT, `latency-${name}.html`);
  const r = await cli(["simulate", src, "--report", file]);
  expect(r.code, r.err).toBe(0);
  const json = await cli(["simulate", src, "--json"]);
  expect(json.code, json.err).toBe(0);
  const result = JSON.parse(json.out);
  // The charts' shared time axis runs from 0 to the run's duration.
  return { file, traffic: result.traffic, end: result.summary.duration };
}

/** The seconds of send time the loss window covers (each perSecond row is [t, t+1)). */
function windowSeconds(t: TrafficResult): number[] {
  const out: number[] = [];
  for (let s = Math.floor(t.firstFailure!); s <= Math.floor(t.lastFailure!); s++) out.push(s);
  return out;
}

/** Puts the pointer on second `t` of the latency chart and reads its legend: label → value. */
async function hover(page: Page, t: number, duration: number): Promise<Map<string, string>> {
  const over = page.locator("#latency-chart .u-over");
  await over.scrollIntoViewIfNeeded();
  const box = (await over.boundingBox())!;
  await page.mouse.move(box.x + ((t + 0.25) / duration) * box.width, box.y + box.height / 2);
  const rows = await page
    .locator("#latency-chart .u-legend .u-series")
    .evaluateAll((els) =>
      els.map((e) => [
        e.querySelector(".u-label")?.textContent ?? "",
        e.querySelector(".u-value")?.textContent ?? "",
      ]),
    );
  return new Map(rows as [string, string][]);
}

const number = (text: string | undefined) => Number(text!.replace(/ ms$/, "").replace(/,/g, ""));

/** The table's row for second `t`: its p99 cell. */
function tableP99(page: Page, t: number): Promise<string> {
  return page
    .locator("#latency table.latency tbody tr")
    .evaluateAll(
      (rows, at) =>
        rows
          .filter((r) => Number(r.getAttribute("data-from")) <= at && at <= Number(r.getAttribute("data-to")))
          .map((r) => r.querySelector("[data-col='p99']")?.textContent ?? ""),
      t,
    )
    .then((cells) => {
      expect(cells, `one table row holds second ${t}`).toHaveLength(1);
      return cells[0]!;
    });
}

/** How many pixels of the plot's column at time `t` carry the loss window's shade. */
async function shaded(page: Page, t: number, duration: number): Promise<number> {
  return page.evaluate(
    ([at, d]) => {
      const canvas = document.querySelector<HTMLCanvasElement>("#latency-chart canvas")!;
      const over = document.querySelector("#latency-chart .u-over")!.getBoundingClientRect();
      const c = canvas.getBoundingClientRect();
      const ratio = canvas.width / c.width;
      const x = Math.round((over.left - c.left + (at / d) * over.width) * ratio);
      const top = Math.round((over.top - c.top) * ratio);
      const px = canvas.getContext("2d")!.getImageData(x, top, 1, Math.round(over.height * ratio)).data;
      let n = 0;
      // rgba(220, 38, 38, 0.1) on the canvas, which is transparent elsewhere (the page's white shows through)
      for (let i = 0; i < px.length; i += 4)
        if (px[i]! > 200 && px[i + 1]! < 60 && px[i + 2]! < 60 && Math.abs(px[i + 3]! - 26) <= 3) n++;
      return n;
    },
    [t, duration] as const,
  );
}

let browser: Browser;
beforeAll(async () => {
  mkdirSync(OUT, { recursive: true });
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe("the latency chart, against --json", () => {
  it("the examples with callers are found (the seed's power-off among them)", () => {
    expect(TRAFFIC).toContain("examples/traffic-doks-power-off.yaml");
  });

  it.each(TRAFFIC)(
    "%s: p99 in the loss window, as drawn and in the table, equals the JSON's",
    async (src) => {
      const name = src
        .split("/")
        .pop()!
        .replace(/\.yaml$/, "");
      const { file, traffic, end } = await run(src, name);
      expect(traffic?.firstFailure, "the run loses requests").not.toBeNull();
      const { page, errors } = await open(browser, file);
      try {
        expect(await page.locator("#latency-chart .uplot").count()).toBe(1);
        const seconds = windowSeconds(traffic!);
        expect(seconds.length).toBeGreaterThan(0);
        for (const t of seconds) {
          const row = traffic!.perSecond.find((p) => p.t === t)!;
          const legend = await hover(page, t, end);
          expect(legend.get("sent"), `the pointer is on second ${t}`).toBe(`t+${clock(t)}`);
          expect(number(legend.get("p99")), `p99 of second ${t}`).toBe(row.p99Ms);
          expect(number(legend.get("p50")), `p50 of second ${t}`).toBe(row.p50Ms);
          expect(number(legend.get("max")), `max of second ${t}`).toBe(row.maxMs);
          expect(number(await tableP99(page, t)), `the table's p99 of second ${t}`).toBe(row.p99Ms);
        }
        // The shade covers the loss window, and only it.
        const w = { first: traffic!.firstFailure!, last: traffic!.lastFailure! };
        expect(await shaded(page, (w.first + w.last) / 2, end)).toBeGreaterThan(50);
        expect(await shaded(page, Math.max(0, w.first - 5), end)).toBe(0);
        // A window still open at the end of the run (the liveness cascade) has no after.
        if (w.last + 5 < end) expect(await shaded(page, w.last + 5, end)).toBe(0);
        expect(errors).toEqual([]);
      } finally {
        await page.close();
      }
    },
  );
});

describe("the latency chart's lines", () => {
  const dir = mkdtempSync(join(tmpdir(), "faultline-latency-"));
  const labels = (page: Page) =>
    page.locator("#latency-chart .u-legend .u-series .u-label").allTextContents();

  it("are labelled with the caller's timeout, and follow a what-if that changes it", async () => {
    const src = "examples/traffic-doks-power-off.yaml";
    const { file } = await run(src, "doks-timeout");
    // The same scenario with the callers' timeout at 2s, for the command line's figures.
    cpSync("examples/manifests-traffic", join(dir, "manifests-traffic"), { recursive: true });
    const two = join(dir, "timeout-2s.yaml");
    const yaml = readFileSync(src, "utf8");
    expect(yaml).toContain("timeout: 10s");
    writeFileSync(two, yaml.replace("timeout: 10s", "timeout: 2s"));
    const json = await cli(["simulate", two, "--json"]);
    expect(json.code, json.err).toBe(0);
    const result = JSON.parse(json.out);
    const { page, errors } = await open(browser, file);
    try {
      const label = "caller's timeout 10 s (default/web)";
      expect(await labels(page)).toContain(label);
      expect(await page.locator("#latency-key").textContent()).toContain(label);
      expect(await page.locator("#latency-chart").getAttribute("aria-label")).toContain(label);
      expect(number((await hover(page, 60, result.summary.duration)).get(label))).toBe(10_000);

      await page.fill("#wi-timeout", "2");
      await page.locator("#wi-timeout").press("Enter");
      await page.waitForSelector("body[data-runs='1']", { timeout: 120_000 });
      await page.waitForSelector("#latency-chart .uplot");
      const after = "caller's timeout 2 s (default/web)";
      expect(await labels(page)).toContain(after);
      expect(await labels(page)).not.toContain(label);
      const traffic: TrafficResult = result.traffic;
      for (const t of windowSeconds(traffic)) {
        const legend = await hover(page, t, result.summary.duration);
        expect(legend.get("sent")).toBe(`t+${clock(t)}`);
        expect(number(legend.get("p99")), `p99 of second ${t}`).toBe(
          traffic.perSecond.find((p) => p.t === t)!.p99Ms,
        );
        expect(number(legend.get(after))).toBe(2_000);
      }
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("two callers: one line per timeout, and the SLO's, each naming its callers; the table counts lost or slow", async () => {
    const fixture = readFileSync("test/report/fixtures/power-loss-traffic.yaml", "utf8");
    const line = "  - {service: default/web, rate: 20, entry: load-balancer, timeout: 5}\n";
    expect(fixture).toContain(line);
    const src = join(dir, "two-callers.yaml");
    writeFileSync(
      src,
      fixture.replace(
        line,
        `${line}  - {service: default/web, rate: 10, entry: load-balancer, timeout: 2, slo: 500ms}\n`,
      ),
    );
    const { file, end } = await run(src, "two-callers");
    const { page, errors } = await open(browser, file);
    try {
      const shown = await labels(page);
      for (const l of [
        "caller's timeout 5 s (default/web)",
        "caller's timeout 2 s (default/web)",
        "SLO 0.5 s (default/web)",
      ])
        expect(shown).toContain(l);
      const legend = await hover(page, 10, end);
      expect(number(legend.get("SLO 0.5 s (default/web)"))).toBe(500);
      expect(await page.locator("#latency table.latency thead th").allTextContents()).toContain(
        "lost or slow",
      );
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
