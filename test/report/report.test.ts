// The HTML report in real headless Chromium: every example's report loads with no console error and no
// network request, shows the lanes, the traffic part (or says it is not in the run), the latency chart
// only with callers, the cluster chart and the probe rows; the player steps with the keyboard; the
// what-if panel's figures equal the command line's for the same settings; the controls pass axe-core.
// Screenshots go to out/report/.

import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { main } from "../../src/cli/main.ts";
import { loadScenarioFile } from "../../src/load/index.ts";
import { headline, type ReportResult } from "../../src/report/html/model/index.ts";
import { axe, launch, open } from "./browser.ts";

// A real browser and whole simulations (the command line's and the page's what-ifs) on a busy 2-core
// machine: generous limits for the hooks (launching Chromium, simulating every example) and tests.
vi.setConfig({ hookTimeout: 600_000, testTimeout: 600_000 });

const OUT = resolve("out/report");
const EXAMPLES = readdirSync("examples")
  .filter((f) => f.endsWith(".yaml"))
  .sort();

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (s) => out.push(s), err: (s) => err.push(s) });
  return { code, out: out.join(""), err: err.join("") };
}

/** The headline figures the page shows, as numbers (null where the page says there is none). */
async function figures(page: Page): Promise<Record<string, number | null>> {
  return page.evaluate(() => {
    const out: Record<string, number | null> = {};
    for (const el of document.querySelectorAll<HTMLElement>("[data-figure]")) {
      const v = el.dataset.value!;
      out[el.dataset.figure!] = v === "none" ? null : Number(v);
    }
    return out;
  });
}

/** The run's figures, from the command line's --json: those the page must show, and their values. */
function cliFigures(result: ReportResult, file: string): Record<string, number | null> {
  const hl = headline(result, loadScenarioFile(file));
  const out: Record<string, number | null> = {
    failed: hl.failed,
    noticed: hl.noticed,
    trafficStopped: hl.trafficStopped,
    replaced: hl.replaced,
    requestsLost: hl.requestsLost,
  };
  return out;
}

/** Every figure the headline may show, computed in Node from the --json output. */
function allFigures(result: ReportResult, file: string): Record<string, number | null> {
  const hl = headline(result, loadScenarioFile(file));
  const out: Record<string, number | null> = {
    ...cliFigures(result, file),
    podsReady: hl.podsReady,
    podsLost: hl.podsLost,
    nodesLost: hl.nodesLost,
    endpointsLost: hl.endpointsLost,
  };
  hl.faults.forEach((f, i) => {
    Object.assign(out, {
      [`fault-${i}-t`]: f.t,
      [`fault-${i}-noticed`]: f.noticed,
      [`fault-${i}-trafficStopped`]: f.trafficStopped,
      [`fault-${i}-replaced`]: f.replaced,
      [`fault-${i}-podsLost`]: f.lostPods.length,
      [`fault-${i}-endpointsLost`]: f.endpointsLost,
    });
  });
  return out;
}

/**
 * The headline against the --json output: every FaultInjected step is named (its node, or its pod), in
 * order; each figure equals the one computed from the JSON, and those the JSON holds directly (the
 * steps' times, pods Ready at the end, requests lost) equal it too.
 */
async function checkHeadline(page: Page, json: ReportResult, file: string): Promise<void> {
  const shown = await figures(page);
  const expected = allFigures(json, file);
  for (const [k, v] of Object.entries(shown)) expect(v, `figure ${k}`).toEqual(expected[k]);
  const steps = json.events.filter((e) => e.type === "FaultInjected");
  const text = (await page.locator("#headline").textContent()) ?? "";
  const listed = steps.length > 0 ? ((await page.locator("#headline ol.faults").textContent()) ?? "") : "";
  let from = 0;
  for (const s of steps) {
    const name = s.pod !== undefined ? s.pod.split("/")[1]! : s.node!;
    const at = listed.indexOf(name, from);
    expect(
      at,
      `the headline names ${name} (${s.do} at ${s.t}s) after position ${from}`,
    ).toBeGreaterThanOrEqual(0);
    from = at;
  }
  const times = [...new Set(steps.map((s) => s.t))];
  const faultTimes = Object.entries(shown)
    .filter(([k]) => /^fault-\d+-t$/.test(k))
    .map(([, v]) => v);
  expect([...new Set(faultTimes)]).toEqual(times);
  expect(shown.podsReady).toBe(json.summary.pods.filter((p) => p.ready).length);
  const totals = json.traffic?.totals;
  expect(shown.requestsLost).toEqual(
    totals ? (totals.timeout ?? 0) + (totals.refused ?? 0) + (totals.error ?? 0) : null,
  );
  if (steps.length === 0) expect(text).toContain("Nothing fails in this run");
  // Pod faults speak of pods: no node is said to have failed (the seed's other levers, folded under
  // "What else you actually control", are general).
  const own = await page.locator("#headline").evaluate((el) => {
    const copy = el.cloneNode(true) as HTMLElement;
    for (const d of copy.querySelectorAll("details")) d.remove();
    return copy.textContent ?? "";
  });
  if (steps.length > 0 && steps.every((s) => s.pod !== undefined)) {
    expect(own).not.toMatch(/node that disappeared|nodes? lost|What failed: worker/);
    expect(own).toMatch(/pod/);
  }
}

let browser: Browser;
const reports = new Map<string, string>();

beforeAll(async () => {
  mkdirSync(OUT, { recursive: true });
  browser = await launch();
  for (const f of EXAMPLES) {
    const file = join(OUT, f.replace(/\.yaml$/, ".html"));
    const r = await cli(["simulate", `examples/${f}`, "--report", file]);
    expect(r.code, r.err).toBe(0);
    reports.set(f, file);
  }
});

afterAll(async () => {
  await browser?.close();
});

describe("the HTML report of each example", () => {
  it.each(EXAMPLES)("%s: loads offline with no console error, shows every part, under 1 MB", async (f) => {
    const file = reports.get(f)!;
    const html = readFileSync(file, "utf8");
    expect(statSync(file).size).toBeLessThan(1_000_000);
    // Self-contained: no external script, style, font or image.
    expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)=/i);
    const { page, errors, requests } = await open(browser, file);
    try {
      expect(errors).toEqual([]);
      expect(requests).toEqual([]);
      expect(await page.locator("#lanes-chart .uplot").count()).toBe(1);
      expect(await page.locator("#cluster-chart .uplot").count()).toBe(1);
      const hasTraffic = html.includes('"traffic":{"totals"');
      // The latency chart only with callers (test/report/latency.test.ts checks its figures).
      expect(await page.locator("#latency-chart .uplot").count()).toBe(hasTraffic ? 1 : 0);
      if (hasTraffic) expect(await page.locator("#traffic-chart .uplot").count()).toBe(1);
      else expect(await page.locator("[data-absent='traffic']").textContent()).toMatch(/Not in this run/);
      expect(await page.locator("[data-probe-row]").count()).toBeGreaterThan(0);
      const json = await cli(["simulate", `examples/${f}`, "--json"]);
      expect(json.code, json.err).toBe(0);
      await checkHeadline(page, JSON.parse(json.out), `examples/${f}`);
      await page.screenshot({ path: join(OUT, f.replace(/\.yaml$/, ".png")), fullPage: true });
    } finally {
      await page.close();
    }
  });
});

describe("a two-fault scenario", () => {
  it("the headline names both faults in order, each with its figures equal to --json's", async () => {
    const src = "test/report/fixtures/two-faults.yaml";
    const file = join(OUT, "two-faults.html");
    const r = await cli(["simulate", src, "--report", file]);
    expect(r.code, r.err).toBe(0);
    const json = await cli(["simulate", src, "--json"]);
    const { page, errors } = await open(browser, file);
    try {
      expect(errors).toEqual([]);
      await checkHeadline(page, JSON.parse(json.out), src);
      const shown = await figures(page);
      expect(shown["fault-0-t"]).toBe(30);
      expect(shown["fault-1-t"]).toBe(180);
      expect(shown.nodesLost).toBe(2);
      // Both faults lost a ready web endpoint.
      expect(shown["fault-0-endpointsLost"]).toBe(1);
      expect(shown["fault-1-endpointsLost"]).toBe(1);
      const items = await page.locator("#headline [data-fault]").allTextContents();
      expect(items[0]).toContain("worker-2 loses power");
      expect(items[1]).toContain("worker-3");
    } finally {
      await page.close();
    }
  });
});

describe("--vary with --report", () => {
  it("labels the variant on show, and the what-if starts from that variant's settings", async () => {
    const file = join(OUT, "vary-policy.html");
    const r = await cli([
      "simulate",
      "examples/traffic-doks-power-off.yaml",
      "--vary",
      "externalTrafficPolicy=Local,Cluster",
      "--report",
      file,
    ]);
    expect(r.code, r.err).toBe(0);
    // The main run is embedded once: the first variant's result is the payload's.
    expect(readFileSync(file, "utf8").split('"engineEvents"').length - 1).toBe(2);
    // The table the command printed: each variant's loss.
    const lost = (label: string) => {
      const line = r.out.split("\n").find((l) => l.trim().startsWith(label));
      expect(line, `no row for ${label} in:\n${r.out}`).toBeDefined();
      return Number(line!.trim().split(/\s+/)[2]);
    };
    const { page, errors, requests } = await open(browser, file);
    try {
      expect(errors).toEqual([]);
      expect(requests).toEqual([]);
      const heads = await page.locator("#variants thead th").allTextContents();
      expect(heads.map((t) => t.replace(" (on show)", ""))).toEqual([
        "externalTrafficPolicy=Local",
        "externalTrafficPolicy=Cluster",
      ]);
      const cells = await page
        .locator("#variants tbody tr", { hasText: "requests lost" })
        .locator("td")
        .allTextContents();
      expect(cells.map((c) => Number(c.replace(/,/g, "")))).toEqual([
        lost("externalTrafficPolicy=Local"),
        lost("externalTrafficPolicy=Cluster"),
      ]);
      for (const [i, policy] of [
        [0, "Local"],
        [1, "Cluster"],
      ] as const) {
        if (i > 0) {
          await page.selectOption("#variant", String(i));
          await page.waitForFunction(
            (p) => document.getElementById("variant-on-show")?.textContent?.includes(p),
            `externalTrafficPolicy=${policy}`,
          );
        }
        // Labelled on screen, the same as the what-if's field, the figures of that variant.
        expect(await page.locator("#variant-on-show").textContent()).toContain(
          `externalTrafficPolicy=${policy}`,
        );
        expect(await page.locator("#wi-etp").inputValue()).toBe(policy);
        expect((await figures(page)).requestsLost).toBe(lost(`externalTrafficPolicy=${policy}`));
      }
      // A what-if on the variant on show keeps its policy: Cluster, with the callers' timeout at 2s.
      await page.fill("#wi-timeout", "2");
      await page.locator("#wi-timeout").press("Enter");
      await page.waitForSelector("body[data-runs='1']", { timeout: 120_000 });
      expect(await page.locator("#wi-etp").inputValue()).toBe("Cluster");
      const cluster = await cli([
        "simulate",
        "examples/traffic-doks-power-off.yaml",
        "--vary",
        "traffic.timeout=2",
      ]);
      const row = cluster.out.split("\n").find((l) => l.trim().startsWith("traffic.timeout=2"))!;
      expect((await figures(page)).requestsLost).toBe(Number(row.trim().split(/\s+/)[2]));
      expect(errors).toEqual([]);
      await page.screenshot({ path: join(OUT, "vary-policy.png"), fullPage: true });
    } finally {
      await page.close();
    }
  });
});

describe("what-if on a doks-measured scenario", () => {
  it("starts from the profile's 2.5s grace period and reproduces the command line's figures for 20s", async () => {
    const dir = mkdtempSync(join(tmpdir(), "faultline-doks-"));
    cpSync("examples/manifests-traffic", join(dir, "manifests-traffic"), { recursive: true });
    const file = join(dir, "doks-20.yaml");
    writeFileSync(
      file,
      `${readFileSync("examples/traffic-doks-power-off.yaml", "utf8")}controlPlane: {nodeMonitorGracePeriod: 20s}\n`,
    );
    const { page, errors } = await open(browser, reports.get("traffic-doks-power-off.yaml")!);
    try {
      expect(await page.locator("#wi-grace").inputValue()).toBe("2.5");
      const before = await figures(page);
      await page.fill("#wi-grace", "20");
      await page.locator("#wi-grace").press("Enter");
      await page.waitForSelector("body[data-runs='1']", { timeout: 120_000 });
      const after = await figures(page);
      const json = await cli(["simulate", file, "--json"]);
      expect(json.code, json.err).toBe(0);
      const expected = allFigures(JSON.parse(json.out), file);
      for (const [k, v] of Object.entries(after)) expect(v, k).toEqual(expected[k]);
      expect(after.noticed).not.toBe(before.noticed);
      expect(await page.locator("#wi-grace").inputValue()).toBe("20");
      // Back to 2.5: the figures the page opened with.
      await page.fill("#wi-grace", "2.5");
      await page.locator("#wi-grace").press("Enter");
      await page.waitForSelector("body[data-runs='2']", { timeout: 120_000 });
      expect(await figures(page)).toEqual(before);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});

describe("the player", () => {
  it("steps forward and back with the keyboard, showing why now and what you would see", async () => {
    const { page } = await open(browser, reports.get("node-power-loss.yaml")!);
    try {
      const step = () => page.locator("#player-step").getAttribute("data-step");
      await page.focus("#player");
      // It opens on the fault (worker-2 loses power at t+0:10), not on the first Lease renewal.
      const start = Number(await step());
      expect(start).toBeGreaterThan(0);
      expect(await page.locator("#player-step").textContent()).toContain("worker-2 loses power");
      await page.keyboard.press("Home");
      expect(await step()).toBe("0");
      await page.keyboard.press("ArrowRight");
      expect(await step()).toBe("1");
      await page.keyboard.press("ArrowRight");
      expect(await step()).toBe("2");
      await page.keyboard.press("ArrowLeft");
      expect(await step()).toBe("1");
      await page.keyboard.press("End");
      const last = Number(await step());
      expect(last).toBeGreaterThan(2);
      await page.keyboard.press("Home");
      expect(await step()).toBe("0");
      // The step where the node controller notices opens its why and its kubectl output.
      for (let i = 0; i < last; i++) {
        if (
          (await page.locator("#player-step").textContent())?.includes("Kubelet stopped posting node status")
        )
          break;
        await page.keyboard.press("ArrowRight");
      }
      const text = await page.locator("#player-step").textContent();
      expect(text).toContain("Why now:");
      expect(text).toContain("What you would see:");
      expect(text).toContain("$ kubectl get node worker-2");
      // The buttons work from the keyboard too.
      await page.focus("#player-next");
      const before = Number(await step());
      await page.keyboard.press("Enter");
      expect(Number(await step())).toBe(before + 1);
    } finally {
      await page.close();
    }
  });
});

describe("swimlanes by component, node or workload", () => {
  it("node-power-loss: a row per node, then per workload, then the five components again", async () => {
    const { page, errors } = await open(browser, reports.get("node-power-loss.yaml")!);
    try {
      const rows = () =>
        page
          .locator("#lanes-rows [data-row]")
          .evaluateAll((els) => els.map((e) => e.getAttribute("data-row")));
      expect(await page.locator("#lanes-by").inputValue()).toBe("component");
      expect(await rows()).toEqual(["kubelet", "your app", "network", "control plane", "operator"]);

      await page.selectOption("#lanes-by", "node");
      expect(await page.locator("#lanes-chart .uplot").count()).toBe(1);
      expect(await rows()).toEqual(expect.arrayContaining(["worker-1", "worker-2", "worker-3"]));
      // The failed node has the most events: it comes first.
      expect((await rows())[0]).toBe("worker-2");
      await page.locator("#timeline").screenshot({ path: join(OUT, "lanes-by-node.png") });

      await page.selectOption("#lanes-by", "workload");
      expect(await page.locator("#lanes-chart .uplot").count()).toBe(1);
      expect(await rows()).toEqual(expect.arrayContaining(["web", "db", "node-exporter", "nodes"]));
      await page.locator("#timeline").screenshot({ path: join(OUT, "lanes-by-workload.png") });
      // The other views are as accessible as the default one.
      expect(await axe(page)).toEqual([]);

      await page.selectOption("#lanes-by", "component");
      expect(await page.locator("#lanes-chart .uplot").count()).toBe(1);
      expect(await rows()).toHaveLength(5);
      await page.locator("#timeline").screenshot({ path: join(OUT, "lanes-by-component.png") });

      // Still one lanes chart on the shared axis, and the player still steps.
      expect(await page.locator("#lanes-all").isHidden()).toBe(true);
      await page.focus("#player");
      const at = Number(await page.locator("#player-step").getAttribute("data-step"));
      await page.keyboard.press("ArrowRight");
      expect(await page.locator("#player-step").getAttribute("data-step")).toBe(String(at + 1));
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});

describe("what-if in the page", () => {
  const base = readFileSync("examples/node-power-loss.yaml", "utf8");
  const dir = mkdtempSync(join(tmpdir(), "faultline-whatif-"));

  async function whatIf(set: (page: Page) => Promise<void>, file: string) {
    const { page, errors } = await open(browser, reports.get("node-power-loss.yaml")!);
    try {
      const before = await figures(page);
      await set(page);
      await page.waitForSelector("body[data-runs='1']", { timeout: 120_000 });
      const after = await figures(page);
      const r = await cli(["simulate", file, "--json"]);
      expect(r.code, r.err).toBe(0);
      expect(errors).toEqual([]);
      return { before, after, cli: cliFigures(JSON.parse(r.out), file) };
    } finally {
      await page.close();
    }
  }

  it("node-monitor-grace-period 20s: the page's headline equals the command line's", async () => {
    cpSync("examples/manifests", join(dir, "manifests"), { recursive: true });
    const file = join(dir, "grace-20.yaml");
    writeFileSync(file, `${base}controlPlane: {nodeMonitorGracePeriod: 20s}\n`);
    const { before, after, cli } = await whatIf(async (page) => {
      await page.fill("#wi-grace", "20");
      await page.locator("#wi-grace").press("Enter");
    }, file);
    for (const [k, v] of Object.entries(cli)) expect(after[k], k).toEqual(v);
    expect(after.noticed).not.toBe(before.noticed);
    expect(after.noticed! - after.failed!).toBeLessThan(30);
  });

  it("externalTrafficPolicy Local with callers on a LoadBalancer: the page's headline equals the command line's", async () => {
    const fixture = readFileSync("test/report/fixtures/power-loss-traffic.yaml", "utf8");
    const file = join(dir, "local.yaml");
    writeFileSync(
      file,
      fixture.replace(
        "spec: {type: LoadBalancer,",
        "spec: {type: LoadBalancer, externalTrafficPolicy: Local,",
      ),
    );
    const written = join(OUT, "power-loss-traffic.html");
    expect(
      (await cli(["simulate", "test/report/fixtures/power-loss-traffic.yaml", "--report", written])).code,
    ).toBe(0);
    const { page, errors } = await open(browser, written);
    try {
      expect(await page.locator("#traffic-chart .uplot").count()).toBe(1);
      const before = await figures(page);
      expect(before.requestsLost).not.toBeNull();
      await page.selectOption("#wi-etp", "Local");
      await page.waitForSelector("body[data-runs='1']", { timeout: 120_000 });
      const after = await figures(page);
      expect(errors).toEqual([]);
      // Local keeps the load balancer's traffic on nodes with a ready pod: fewer requests lost.
      expect(after.requestsLost).not.toBe(before.requestsLost);
      // The command line, same settings: its JSON for the trace's figures, its own report for all of them.
      const json = await cli(["simulate", file, "--json"]);
      expect(json.code, json.err).toBe(0);
      const fromJson = cliFigures(JSON.parse(json.out), file);
      for (const k of ["failed", "noticed", "trafficStopped", "replaced"])
        expect(after[k]).toEqual(fromJson[k]);
      const local = join(OUT, "power-loss-traffic-local.html");
      expect((await cli(["simulate", file, "--report", local])).code).toBe(0);
      const other = await open(browser, local);
      try {
        expect(after).toEqual(await figures(other.page));
      } finally {
        await other.page.close();
      }
      await page.screenshot({ path: join(OUT, "power-loss-traffic-local.png"), fullPage: true });
    } finally {
      await page.close();
    }
  });
});

describe("accessibility (axe-core)", () => {
  it("the simulate report's controls have labels, a sane focus order and enough contrast", async () => {
    const { page } = await open(browser, reports.get("node-power-loss.yaml")!);
    try {
      expect(await axe(page)).toEqual([]);
      // Focus order follows the page: the what-if controls come before the player's.
      const order: string[] = [];
      await page.focus("body");
      for (let i = 0; i < 40 && order.length < 40; i++) {
        await page.keyboard.press("Tab");
        order.push(await page.evaluate(() => document.activeElement?.id ?? ""));
      }
      expect(order.indexOf("wi-version")).toBeGreaterThanOrEqual(0);
      expect(order.indexOf("wi-version")).toBeLessThan(order.indexOf("wi-grace"));
      expect(order.indexOf("wi-grace")).toBeLessThan(order.indexOf("zoom-in"));
      expect(order.indexOf("zoom-in")).toBeLessThan(order.indexOf("player"));
    } finally {
      await page.close();
    }
  });

  it("the detector report: phi against silence with the thresholds, accessible", async () => {
    const file = join(OUT, "detector-compare.html");
    const r = await cli(["detector", "compare", "--phi", "8,12", "--timeout", "5s", "--report", file]);
    expect(r.code, r.err).toBe(0);
    const { page, errors, requests } = await open(browser, file);
    try {
      expect(errors).toEqual([]);
      expect(requests).toEqual([]);
      expect(await page.locator("#phi-chart .uplot").count()).toBe(1);
      expect(await page.locator("table.detectors tbody tr").count()).toBe(5);
      expect(await axe(page)).toEqual([]);
      await page.screenshot({ path: join(OUT, "detector-compare.png"), fullPage: true });
    } finally {
      await page.close();
    }
  });
});

describe("accessibility of every example, on a desktop and on a phone (axe-core)", () => {
  const viewports = [
    { name: "desktop", width: 1440, height: 900 },
    { name: "phone", width: 390, height: 844 },
  ] as const;
  const cases = EXAMPLES.flatMap((f) => viewports.map((v) => [f, v] as const));

  it.each(cases)("%s, %o: zero violations as opened, expanded and after a what-if", async (f, v) => {
    const { page, errors } = await open(browser, reports.get(f)!, { width: v.width, height: v.height });
    try {
      expect(await axe(page), "as opened").toEqual([]);
      // No page wider than the screen: tables and code scroll inside their own box.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(v.width);
      if (f === "traffic-doks-power-off.yaml")
        await page.screenshot({ path: join("docs", v.name === "phone" ? "report-phone.png" : "report.png") });
      // Expanded: every folded part open, the swimlanes by node.
      await page.evaluate(() => {
        for (const d of document.querySelectorAll("details")) d.open = true;
      });
      await page.selectOption("#lanes-by", "node");
      expect(await axe(page), "expanded").toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(v.width);
      // After a what-if: the grace period halved.
      const grace = Number(await page.locator("#wi-grace").inputValue());
      await page.fill("#wi-grace", String(grace / 2));
      await page.locator("#wi-grace").press("Enter");
      await page.waitForSelector("body[data-runs='1']", { timeout: 120_000 });
      expect(await axe(page), "after a what-if").toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
