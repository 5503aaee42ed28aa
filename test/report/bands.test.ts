// The state bands in real headless Chromium, checked against `simulate --json` for two examples: every
// node's NotReady interval and every pod's Terminating interval on the page are the ones the JSON's
// events give, worked out here from the JSON alone; hover and keyboard focus show what, why now and
// what kubectl would show.

import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { main } from "../../src/cli/main.ts";
import { launch, open } from "./browser.ts";

vi.setConfig({ hookTimeout: 600_000, testTimeout: 600_000 });

const OUT = resolve("out/bands");
const EXAMPLES = ["node-power-loss", "node-drain", "kubelet-stop"];

interface JsonEvent {
  t: number;
  type: string;
  object: string;
  podRow?: { status: string };
}
interface Json {
  events: JsonEvent[];
  summary: { duration: number };
}
type Spans = Record<string, [number, number][]>;

async function cli(argv: string[]): Promise<string> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (s) => out.push(s), err: (s) => err.push(s) });
  expect(code, err.join("")).toBe(0);
  return out.join("");
}

/** Intervals of a state per object, from the JSON's events: `starts` opens one, `ends` closes it. */
function spans(
  json: Json,
  kind: string,
  starts: (e: JsonEvent) => boolean,
  ends: (e: JsonEvent) => boolean,
): Spans {
  const open = new Map<string, number>();
  const out: Spans = {};
  const close = (object: string, t: number) => {
    const from = open.get(object);
    if (from === undefined) return;
    open.delete(object);
    const list = out[object] ?? [];
    list.push([from, t]);
    out[object] = list;
  };
  for (const e of json.events) {
    if (!e.object.startsWith(`${kind}/`)) continue;
    if (ends(e)) close(e.object, e.t);
    else if (starts(e) && !open.has(e.object)) open.set(e.object, e.t);
  }
  for (const o of [...open.keys()]) close(o, json.summary.duration);
  return out;
}

const notReady = (json: Json) =>
  spans(
    json,
    "Node",
    (e) => e.type === "NodeNotReady" || e.type === "KubeletNodeNotReady",
    (e) => e.type === "NodeReady" || e.type === "ScaledNodeReady" || e.type === "NodeDeleted",
  );
const terminating = (json: Json) =>
  spans(
    json,
    "Pod",
    (e) => e.type === "PodEvicted" || e.podRow?.status === "Terminating",
    (e) => e.type === "PodDeleted",
  );

/** The page's intervals of states matching `state`, per row key, adjacent ones joined (Unknown then False). */
async function pageSpans(page: Page, kind: string, state: string): Promise<Spans> {
  return page.evaluate(
    ({ kind, state }) => {
      const out: Record<string, [number, number][]> = {};
      for (const row of document.querySelectorAll<HTMLElement>(`.band-row[data-kind='${kind}']`)) {
        const list: [number, number][] = [];
        for (const b of row.querySelectorAll<HTMLElement>(".band")) {
          if (!b.dataset.state!.startsWith(state)) continue;
          const from = Number(b.dataset.from);
          const to = Number(b.dataset.to);
          const last = list[list.length - 1];
          if (last && last[1] === from) last[1] = to;
          else list.push([from, to]);
        }
        if (list.length) out[row.dataset.key!] = list;
      }
      return out;
    },
    { kind, state },
  );
}

let browser: Browser;
const files: Record<string, { html: string; json: Json }> = {};

beforeAll(async () => {
  mkdirSync(OUT, { recursive: true });
  for (const ex of EXAMPLES) {
    const html = join(OUT, `${ex}.html`);
    const json = JSON.parse(await cli(["simulate", `examples/${ex}.yaml`, "--json"])) as Json;
    await cli(["simulate", `examples/${ex}.yaml`, "--report", html]);
    files[ex] = { html, json };
  }
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
});

describe("the state bands match --json", () => {
  for (const ex of EXAMPLES)
    it(`${ex}: every node's NotReady and every pod's Terminating interval`, async () => {
      const { html, json } = files[ex]!;
      const { page, errors } = await open(browser, html, { width: 1440, height: 900 });
      try {
        if (await page.isVisible("#bands-all")) await page.click("#bands-all");
        const nodes = notReady(json);
        const pods = terminating(json);
        expect(await pageSpans(page, "node", "NotReady")).toEqual(nodes);
        expect(await pageSpans(page, "pod", "Terminating")).toEqual(pods);
        // Each example has something to check: a node lost or a pod deleted.
        expect(Object.keys(nodes).length + Object.keys(pods).length).toBeGreaterThan(0);
        expect(errors).toEqual([]);
      } finally {
        await page.close();
      }
    });
});

describe("the bands explain themselves", () => {
  it("focus on an interval shows what, why now and what kubectl would show; the bands are on the first screen", async () => {
    const { page } = await open(browser, files["node-power-loss"]!.html, { width: 1440, height: 900 });
    try {
      // As it opens at 1440×900, the headline and the bands' box (its rows scroll inside) are on screen.
      const box = (await page.locator(".bands-scroll").boundingBox())!;
      expect(box.y + box.height).toBeLessThanOrEqual(900);
      expect((await page.locator("#headline").boundingBox())!.y).toBeGreaterThanOrEqual(0);
      const band = page.locator(".band[data-state='NotReady (Unknown)']").first();
      await band.focus();
      const tip = page.locator("#band-tip");
      await tip.waitFor({ state: "visible", timeout: 120_000 }); // generous: a busy machine
      const text = (await tip.textContent()) ?? "";
      expect(text).toMatch(/^NotReady \(Unknown\) · node worker-2 · t\+\d+:\d\d/);
      expect(text).toContain("What: ");
      expect(text).toContain("Why now: ");
      expect(text).toContain("What kubectl would show:");
      expect(await band.getAttribute("aria-describedby")).toBe("band-tip");
      // One tab stop: the arrows move along a row and between rows.
      expect(await page.locator(".band[tabindex='0']").count()).toBe(1);
      await page.keyboard.press("ArrowLeft");
      expect(await page.evaluate(() => (document.activeElement as HTMLElement).dataset.state)).toBe("Ready");
      await page.keyboard.press("ArrowDown");
      expect(
        await page.evaluate(() => document.activeElement?.closest<HTMLElement>(".band-row")?.dataset.key),
      ).toBe("Node/worker-3");
      // Hover on a mark tells its event (marks at one moment overlap: the pointer finds one of them).
      await page.locator(".band-row[data-key='Node/worker-2'] .band-mark").first().hover({ force: true });
      expect(await tip.textContent()).toMatch(/^t\+\d+:\d\d(\.\d)? · node worker-2What: /);
    } finally {
      await page.close();
    }
  });
});
