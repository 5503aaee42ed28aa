// The GitHub Action's script (action.yml): audit the pull request's base and head, write the head's
// SARIF for code scanning, and post (or update) one comment with `faultline audit diff`. Plain
// Node 20, no dependency: it runs the published CLI (FAULTLINE, e.g. `npx --yes faultline@0.1.0`).
// With DRY_RUN=1 (or no GITHUB_TOKEN) it prints the comment it would post instead of posting it.
//
// GitHub's REST API for the comment (docs.github.com "REST API endpoints for issue comments", read
// 2026-12): GET /repos/{owner}/{repo}/issues/{n}/comments, POST the same path, PATCH
// /repos/{owner}/{repo}/issues/comments/{id}; the comment is found again by its marker line.

import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The first line of faultline's comment (src/audit/diff.ts COMMENT_MARKER). */
export const MARKER = "<!-- faultline-audit-diff -->";

const env = process.env;
const faultline = (env.FAULTLINE ?? "npx --yes faultline").trim();
const out = env.OUT_DIR ?? join(env.RUNNER_TEMP ?? tmpdir(), "faultline");
mkdirSync(out, { recursive: true });

/** `audit … <format>` in `dir`: the manifests as paths, or a render command's output on stdin. */
function audit(dir, format) {
  const args = [];
  if (env.INPUT_RENDER) args.push("-", "--stdin-filename", env.INPUT_STDIN_FILENAME || "rendered.yaml");
  else args.push(...(env.INPUT_PATHS || ".").split(/\s+/).filter(Boolean));
  if (env.INPUT_CLUSTER) args.push("--cluster", env.INPUT_CLUSTER);
  if (env.INPUT_PROFILE) args.push("--profile", env.INPUT_PROFILE);
  args.push("--fail-on", env.INPUT_FAIL_ON || "error", format);
  const quoted = args.map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ");
  // INPUT_ARGS: more audit options as typed (e.g. --faults power-off,zone --duration 10m).
  const more = env.INPUT_ARGS ? ` ${env.INPUT_ARGS}` : "";
  const command = env.INPUT_RENDER
    ? `(${env.INPUT_RENDER}) | ${faultline} audit ${quoted}${more}`
    : `${faultline} audit ${quoted}${more}`;
  const r = spawnSync("bash", ["-o", "pipefail", "-c", command], {
    cwd: dir,
    encoding: "utf8",
    maxBuffer: 2 ** 28,
  });
  if (r.status !== 0 && r.status !== 1) return { code: r.status ?? 2, text: "", err: r.stderr };
  return { code: r.status, text: r.stdout, err: r.stderr };
}

/** The base's audit from a detached worktree of BASE_SHA; an empty audit if it has none to give. */
function baseAudit() {
  const empty = JSON.stringify({ formatVersion: 1, findings: [], runs: [] });
  if (!env.BASE_SHA) return { text: empty, note: "no base commit given" };
  const dir = mkdtempSync(join(tmpdir(), "faultline-base-"));
  try {
    execFileSync("git", ["worktree", "add", "--detach", dir, env.BASE_SHA], { stdio: "ignore" });
    const r = audit(dir, "--json");
    if (r.code > 1)
      return { text: empty, note: `the base could not be audited: ${r.err.trim().split("\n")[0]}` };
    return { text: r.text };
  } finally {
    spawnSync("git", ["worktree", "remove", "--force", dir], { stdio: "ignore" });
    rmSync(dir, { recursive: true, force: true });
  }
}

async function postComment(body) {
  const api = env.GITHUB_API_URL ?? "https://api.github.com";
  const repo = env.GITHUB_REPOSITORY;
  const n = env.PR_NUMBER;
  const headers = {
    authorization: `Bearer ${env.GITHUB_TOKEN}`,
    accept: "application/vnd.github+json",
    "x-github-api-version": "2022-11-28",
  };
  const list = await fetch(`${api}/repos/${repo}/issues/${n}/comments?per_page=100`, { headers });
  const mine = ((await list.json()) ?? []).find(
    (c) => typeof c.body === "string" && c.body.startsWith(MARKER),
  );
  const url = mine
    ? `${api}/repos/${repo}/issues/comments/${mine.id}`
    : `${api}/repos/${repo}/issues/${n}/comments`;
  const r = await fetch(url, { method: mine ? "PATCH" : "POST", headers, body: JSON.stringify({ body }) });
  if (!r.ok) throw new Error(`${mine ? "PATCH" : "POST"} ${url}: ${r.status} ${await r.text()}`);
}

const base = baseAudit();
writeFileSync(join(out, "base.json"), base.text);
const head = audit(".", "--json");
if (head.code > 1) {
  process.stderr.write(head.err);
  process.exit(head.code);
}
writeFileSync(join(out, "head.json"), head.text);
const sarif = audit(".", "--sarif");
writeFileSync(join(out, "faultline.sarif"), sarif.text);
const diff = spawnSync(
  "bash",
  ["-c", `${faultline} audit diff '${join(out, "base.json")}' '${join(out, "head.json")}'`],
  {
    encoding: "utf8",
  },
);
if (diff.status !== 0) {
  process.stderr.write(diff.stderr);
  process.exit(2);
}
const body = base.note ? `${diff.stdout}\n_${base.note}._\n` : diff.stdout;
writeFileSync(join(out, "comment.md"), body);
if (env.DRY_RUN === "1" || !env.GITHUB_TOKEN || !env.PR_NUMBER) process.stdout.write(body);
else await postComment(body);
// --fail-on decides the check: 1 when the head has a finding at least that severe.
process.exit(head.code);
