// The pull-request check: action/pr-check.mjs (the GitHub Action's script) on two commits of a
// fixture repository (test/fixtures/action-repo/: one replica, then two) writes the base's and the
// head's audits and the head's SARIF, and the comment it would post says the single-replica finding
// is resolved, with the figures before → after in the same runs. `audit diff` refuses what is not an
// audit output; `--code-quality` writes GitLab's Code Quality report; action.yml and the GitLab
// template name their inputs.

import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { cli } from "../cli/helpers.ts";

const ROOT = process.cwd();
const tmp = mkdtempSync(join(tmpdir(), "faultline-action-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const FAULTLINE = `node --import ${resolve("node_modules/tsx/dist/loader.mjs")} ${resolve("test/cli/bin.ts")}`;
const QUICK = "--faults power-off --duration 8m --jobs 1";

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, encoding: "utf8" }).trim();
}

/** A repository whose first commit is base/ and whose second is head/. */
function fixtureRepository(): { dir: string; base: string } {
  const dir = join(tmp, "repo");
  git(tmp, "init", "-q", dir);
  git(dir, "config", "user.email", "test@example.com");
  git(dir, "config", "user.name", "test");
  cpSync(join(ROOT, "test/fixtures/action-repo/base/k8s"), join(dir, "k8s"), { recursive: true });
  git(dir, "add", "-A");
  git(dir, "commit", "-qm", "checkout: one replica");
  const base = git(dir, "rev-parse", "HEAD");
  rmSync(join(dir, "k8s"), { recursive: true });
  cpSync(join(ROOT, "test/fixtures/action-repo/head/k8s"), join(dir, "k8s"), { recursive: true });
  git(dir, "add", "-A");
  git(dir, "commit", "-qm", "checkout: two replicas");
  return { dir, base };
}

const COMMENT = `<!-- faultline-audit-diff -->
### faultline: what this change does to failures

**Resolved (1)**

- FL001 shop/checkout: 5m59s without an endpoint when worker-3 loses power → 5m59s with fewer than 2 endpoints (the fix it proposed: replicas: 2, a topology spread over zones (maxSkew 1, topologyKey topology.kubernetes.io/zone, ScheduleAnyway))

**Runs whose figures moved (2)**

| run | Service | before | after |
| --- | --- | --- | --- |
| power-off/worker-1 | shop/checkout | 0s | 5m49s with fewer than 2 endpoints |
| power-off/worker-3 | shop/checkout | 5m59s without an endpoint | 5m59s with fewer than 2 endpoints |

0 findings at the head (0 unchanged), faultline 0.1.0.
`;

describe("the GitHub Action's script", () => {
  it("on a base and a head commit: the comment it would post, the audits and the SARIF", () => {
    const { dir, base } = fixtureRepository();
    const out = join(tmp, "out");
    const r = spawnSync("node", [join(ROOT, "action/pr-check.mjs")], {
      cwd: dir,
      encoding: "utf8",
      env: {
        ...process.env,
        FAULTLINE,
        DRY_RUN: "1",
        OUT_DIR: out,
        BASE_SHA: base,
        INPUT_PATHS: "k8s/",
        INPUT_ARGS: QUICK,
        GITHUB_TOKEN: "",
      },
    });
    expect(r.status, r.stderr).toBe(0);
    // 5m59s: worker-3's last Lease renewal, node-monitor-grace-period 50s, the unreachable taint's
    // 300s tolerationSeconds, then the replacement's start; with two replicas one endpoint stays.
    expect(r.stdout).toBe(COMMENT);
    expect(readFileSync(join(out, "comment.md"), "utf8")).toBe(COMMENT);
    const sarif = JSON.parse(readFileSync(join(out, "faultline.sarif"), "utf8"));
    expect(sarif.runs[0].results).toEqual([]);
    expect(JSON.parse(readFileSync(join(out, "base.json"), "utf8")).findings[0].rule).toBe("FL001");
    // The base's worktree is gone again.
    expect(git(dir, "worktree", "list").split("\n")).toHaveLength(1);
  }, 180_000);
});

describe("audit diff", () => {
  it("says no change for the same audit, and refuses what is not an audit output", async () => {
    const a = join(tmp, "a.json");
    const audit = await cli(["audit", "examples/audit/checkout.yaml", ...QUICK.split(" "), "--json"]);
    writeFileSync(a, audit.out);
    const same = await cli(["audit", "diff", a, a]);
    expect(same.out).toBe(
      "<!-- faultline-audit-diff -->\n### faultline: what this change does to failures\n\nNo change: 1 finding, the same figures.\n",
    );
    const notAudit = join(tmp, "n.json");
    writeFileSync(notAudit, '{"scenario": "x"}');
    const bad = await cli(["audit", "diff", a, notAudit]);
    expect([bad.code, bad.err.trim()]).toEqual([
      2,
      `faultline: audit diff: ${notAudit}: not the output of faultline audit --json`,
    ]);
    const old = join(tmp, "old.json");
    writeFileSync(old, JSON.stringify({ ...JSON.parse(audit.out), formatVersion: undefined }));
    expect((await cli(["audit", "diff", old, a])).err).toMatch(
      /format version undefined, this faultline reads 1/,
    );
  }, 120_000);
});

describe("GitLab", () => {
  it("--code-quality: GitLab's Code Quality issues, repository-relative, fingerprinted", async () => {
    const r = await cli(["audit", "examples/audit/checkout.yaml", ...QUICK.split(" "), "--code-quality"]);
    const issues = JSON.parse(r.out);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({
      check_name: "FL001 single-replica-service",
      severity: "major",
      location: { path: "examples/audit/checkout.yaml", lines: { begin: 9 } },
    });
    expect(issues[0].fingerprint).toMatch(/^[0-9a-f]{32}$/);
    expect(issues[0].description).toMatch(/^FL001 .*shop\/checkout has no ready endpoint for 5m5\ds/);
  }, 60_000);

  it("the template writes the report GitLab reads; action.yml has its inputs", () => {
    const gitlab = parse(readFileSync("ci/faultline.gitlab-ci.yml", "utf8"));
    expect(gitlab.faultline.artifacts.reports.codequality).toBe("gl-code-quality-report.json");
    expect(gitlab.faultline.script.join("\n")).toContain("--code-quality > gl-code-quality-report.json");
    const action = parse(readFileSync("action.yml", "utf8"));
    expect(action.runs.using).toBe("composite");
    for (const input of ["paths", "render", "cluster", "profile", "fail-on"])
      expect(Object.keys(action.inputs)).toContain(input);
    expect(existsSync(join("action", "pr-check.mjs"))).toBe(true);
  });
});
