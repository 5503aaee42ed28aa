// Real headless Chromium for the report's tests: Debian's /usr/bin/chromium driven by playwright-core.
// Never downloads a browser; a missing one fails the tests with the command that installs it.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { type Browser, chromium, type Page } from "playwright-core";

export const CHROMIUM = process.env.FAULTLINE_CHROMIUM ?? "/usr/bin/chromium";

export async function launch(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `the report's browser tests need Chromium at ${CHROMIUM}: install it with \`apt-get update && apt-get install -y chromium\` (CI does this in .ci/run)`,
    );
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
    ],
  });
}

export interface Opened {
  page: Page;
  errors: string[];
  requests: string[];
  loadMs: number;
}

/** Opens a report file and waits until it has drawn itself; records console errors and every request. */
export async function open(
  browser: Browser,
  file: string,
  viewport = { width: 1280, height: 900 },
  colorScheme: "light" | "dark" = "light",
): Promise<Opened> {
  const page = await browser.newPage({ viewport, colorScheme });
  const errors: string[] = [];
  const requests: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("request", (r) => {
    const url = r.url();
    if (!url.startsWith("file:") && !url.startsWith("data:")) requests.push(url);
  });
  const started = Date.now();
  await page.goto(`file://${file}`);
  await page.waitForSelector("body[data-ready='true']", { timeout: 120_000 });
  await page.waitForFunction(() => document.querySelectorAll(".uplot").length > 0, undefined, {
    timeout: 120_000,
  });
  return { page, errors, requests, loadMs: Date.now() - started };
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** axe-core's WCAG 2.1 A/AA and best-practice violations on the page (it must have checked something). */
export async function axe(page: Page): Promise<{ id: string; help: string; nodes: string[] }[]> {
  await page.addScriptTag({ content: axeSource });
  return page.evaluate(async () => {
    const w = window as unknown as {
      axe: {
        run(
          ctx: Document,
          o: unknown,
        ): Promise<{
          passes: unknown[];
          violations: { id: string; help: string; nodes: { target: string[] }[] }[];
        }>;
      };
    };
    const r = await w.axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] },
    });
    // A check that ran nothing would pass: make sure it looked at the controls.
    if (r.passes.length === 0) throw new Error("axe-core checked nothing");
    return r.violations.map((v) => ({
      id: v.id,
      help: v.help,
      nodes: v.nodes.map((n) => n.target.join(" ")),
    }));
  });
}
