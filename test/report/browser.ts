// Real headless Chromium for the report's tests: Debian's /usr/bin/chromium driven by playwright-core.
// Never downloads a browser; a missing one fails the tests with the command that installs it.
import { existsSync } from "node:fs";
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
): Promise<Opened> {
  const page = await browser.newPage({ viewport });
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
  await page.waitForSelector("body[data-ready='true']", { timeout: 30_000 });
  await page.waitForFunction(() => document.querySelectorAll(".uplot").length > 0, undefined, {
    timeout: 30_000,
  });
  return { page, errors, requests, loadMs: Date.now() - started };
}
