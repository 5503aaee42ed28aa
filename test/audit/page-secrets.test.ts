// The audit page keeps the secrets simulate's report keeps: no exec probe or hook command and no
// annotation value of the audited objects in its DOM unless `--report-include annotations,commands`,
// and a Content-Security-Policy of default-src 'none' that real Chromium enforces.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LEFT_OUT, redactTextPage } from "../../src/report/privacy.ts";
import { cli } from "../cli/helpers.ts";
import { launch } from "../report/browser.ts";

const FIXTURE = "test/audit/fixtures/secrets/app.yaml";
/** The fixture's secrets: in its exec probes' and preStop hook's commands. */
const COMMAND_SECRETS = ["PROBE-TOKEN-9f3c", "PRESTOP-TOKEN-abcd"];

const dir = mkdtempSync(join(tmpdir(), "faultline-audit-secrets-"));
let browser: Browser;

beforeAll(async () => {
  const args = ["audit", FIXTURE, "--faults", "drain", "--jobs", "1", "--report"];
  const plain = await cli([...args, join(dir, "plain.html")]);
  const kept = await cli([...args, join(dir, "kept.html"), "--report-include", "annotations,commands"]);
  expect([plain.code, plain.err, kept.code, kept.err]).toEqual([0, "", 0, ""]);
  browser = await launch();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function opened(name: string): Promise<{ page: Page; dom: string; text: string }> {
  const page = await browser.newPage();
  await page.goto(`file://${join(dir, name)}`);
  // Every run's section, shown or not: the DOM holds them all (CSS :target shows one).
  const dom = await page.evaluate(() => document.documentElement.outerHTML);
  const text = await page.evaluate(() => document.body.textContent ?? "");
  return { page, dom, text };
}

describe("audit --report keeps secrets", () => {
  it("by default: no command in the DOM, each quoted command left out as simulate's report leaves it", async () => {
    const { page, dom, text } = await opened("plain.html");
    for (const secret of COMMAND_SECRETS) expect(dom).not.toContain(secret);
    expect(text).toContain(`readiness probe passes (exec ${LEFT_OUT}`);
    expect(text).toContain(`preStop hook (exec ${LEFT_OUT}`);
    await page.close();
  }, 120_000);

  it("with --report-include annotations,commands: the commands are there (the fixture does reach the page)", async () => {
    const { page, dom } = await opened("kept.html");
    for (const secret of COMMAND_SECRETS) expect(dom).toContain(secret);
    await page.close();
  }, 120_000);

  it("carries default-src 'none', and Chromium runs no script put into the page", async () => {
    const { page } = await opened("plain.html");
    const csp = await page.$eval('meta[http-equiv="Content-Security-Policy"]', (m) =>
      m.getAttribute("content"),
    );
    expect(csp?.split(";")[0]).toBe("default-src 'none'");
    expect(csp).not.toContain("script-src");
    const ran = await page.evaluate(async () => {
      const w = window as unknown as { injected?: boolean };
      const s = document.createElement("script");
      s.textContent = "window.injected = true";
      document.body.append(s);
      const img = document.createElement("img");
      img.src = "https://example.com/x.png";
      document.body.append(img);
      await new Promise((r) => setTimeout(r, 200));
      return w.injected === true;
    });
    expect(ran).toBe(false);
    await page.close();
  }, 120_000);
});

describe("redactTextPage: one implementation with simulate's report", () => {
  const objects = [
    {
      metadata: { annotations: { "example.com/token": "s3cr3t-value-42", "example.com/flag": "true" } },
      spec: { containers: [{ readinessProbe: { exec: { command: ["cat", "/tmp/healthy"] } } }] },
    },
  ];
  const page = { notes: ["annotation s3cr3t-value-42 seen", "probe (exec cat /tmp/healthy) passes", "true"] };

  it("replaces annotation values and quoted commands in every string; keeps plain words", () => {
    expect(redactTextPage(page, objects, new Set())).toEqual({
      notes: [`annotation ${LEFT_OUT} seen`, `probe (exec ${LEFT_OUT}) passes`, "true"],
    });
  });

  it("keeps what --report-include names", () => {
    expect(redactTextPage(page, objects, new Set(["annotations", "commands"]))).toEqual(page);
    expect(redactTextPage(page, objects, new Set(["commands"])).notes[1]).toBe(
      "probe (exec cat /tmp/healthy) passes",
    );
  });

  it("--report-include without --report is a usage error, as for simulate", async () => {
    const r = await cli(["audit", FIXTURE, "--report-include", "commands"]);
    expect([r.code, r.err]).toEqual([2, "faultline: --report-include goes with --report\n"]);
  });
});
