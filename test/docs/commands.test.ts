// Every faultline command the documentation shows runs: each `faultline …` line of a ```sh block in
// README.md, CONTRIBUTING.md and docs/*.md, and each `$ faultline …` that opens a plain block, is
// run from the repository (as `npx faultline` would run it), and where the docs show its output (the
// plain block right after, or the rest of the `$` block) every line shown appears in the output, in
// order; `…` in a shown line stands for what the docs left out. Not run, each for its reason:
// a line fed by another tool (`helm … |`, `kubectl … |`), one left in the background (`serve … &`,
// tested in test/serve/), and one naming an input the repository does not hold (a placeholder such as
// FILE or cluster.json). Files a command writes (`--report`, `--kubeconfig-out`) go to a temporary
// folder.

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FAULTLINE, shell } from "../cli/helpers.ts";

const out = mkdtempSync(join(tmpdir(), "faultline-docs-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

interface Shown {
  where: string;
  command: string;
  output?: string[];
}

const PAGES = [
  "README.md",
  "CONTRIBUTING.md",
  ...readdirSync("docs")
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];
const COMMAND = /^\s*(?:\$ )?(?:npx )?faultline (.*)$/;

/** The fenced blocks of a page: their language, first line number and lines. */
function blocks(page: string): { lang: string; line: number; lines: string[] }[] {
  const lines = readFileSync(page, "utf8").split("\n");
  const out: { lang: string; line: number; lines: string[] }[] = [];
  let open: { lang: string; line: number; lines: string[] } | undefined;
  lines.forEach((l, i) => {
    if (l.startsWith("```")) {
      if (open) {
        out.push(open);
        open = undefined;
      } else open = { lang: l.slice(3).trim(), line: i + 1, lines: [] };
    } else open?.lines.push(l);
  });
  return out;
}

function shownCommands(page: string): Shown[] {
  const found: Shown[] = [];
  const bs = blocks(page);
  bs.forEach((b, k) => {
    if (b.lang === "sh") {
      const commands = b.lines.filter((l) => COMMAND.test(l));
      const next = bs[k + 1];
      // Its output: the plain block that follows, when the block runs one command.
      const follows = next && next.lang === "" && commands.length === 1 && !COMMAND.test(next.lines[0] ?? "");
      for (const c of commands)
        found.push({ where: `${page}:${b.line}`, command: c, ...(follows ? { output: next.lines } : {}) });
    } else if (b.lang === "" && /^\s*\$ (npx )?faultline /.test(b.lines[0] ?? "")) {
      found.push({ where: `${page}:${b.line}`, command: b.lines[0]!, output: b.lines.slice(1) });
    }
  });
  return found;
}

/** Why a command is not run, or undefined to run it. */
function notRun(args: string): string | undefined {
  if (/\|/.test(args)) return "fed by another tool";
  if (/&\s*(#.*)?$/.test(args)) return "left in the background";
  if (/^record\b/.test(args.trim())) return "watches a live cluster (kind, k3d, a managed one, or a serve)";
  const tokens = args.replace(/#.*$/, "").trim().split(/\s+/);
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const written = ["--report", "--kubeconfig-out", "-o"].includes(tokens[i - 1] ?? "");
    if (!written && (t === "FILE" || (/\.(ya?ml|json|jsonl)$/.test(t) && !existsSync(t))))
      return `placeholder ${t}`;
  }
  return undefined;
}

function runnable(args: string): string {
  return args
    .replace(/#.*$/, "")
    .trim()
    .replace(
      /(--report|--kubeconfig-out|-o) (\S+)/g,
      (_m, flag: string, file: string) => `${flag} ${join(out, basename(file))}`,
    );
}

/** Each shown line, its pieces around "…", in one output line, the lines in order. */
function expectShown(actual: string, shown: string[], where: string): void {
  // Columns padded to other widths in an abridged table: runs of spaces compare as one.
  const squeeze = (l: string) => l.replace(/ {2,}/g, " ");
  const lines = actual.split("\n").map(squeeze);
  let at = 0;
  for (const s of shown) {
    if (s.trim() === "") continue;
    const pieces = squeeze(s)
      .split("…")
      .map((p) => p.trim())
      .filter((p) => p !== "");
    if (pieces.length === 0) continue;
    const found = lines.findIndex((l, i) => {
      if (i < at) return false;
      let from = 0;
      for (const p of pieces) {
        const k = l.indexOf(p, from);
        if (k < 0) return false;
        from = k + p.length;
      }
      return true;
    });
    expect(found, `${where}: not in the output (after line ${at}): ${s}`).toBeGreaterThanOrEqual(0);
    at = found + 1;
  }
}

const all = PAGES.flatMap(shownCommands);

describe("the commands the docs show", () => {
  it("are found, and each one not run has its reason", () => {
    expect(all.length).toBeGreaterThanOrEqual(10);
    const skipped = all.map((c) => notRun(COMMAND.exec(c.command)![1]!)).filter(Boolean);
    expect(skipped.length).toBeLessThan(all.length / 2);
  });

  for (const c of all) {
    const args = COMMAND.exec(c.command)![1]!;
    const why = notRun(args);
    it.skipIf(why !== undefined)(
      `${c.where}: faultline ${args}${why ? ` (not run: ${why})` : ""}`,
      async () => {
        const r = await shell(`${FAULTLINE} ${runnable(args)}`);
        expect(r.err).not.toMatch(/^\s+at /m);
        // A refusal the docs show (its one line, "faultline: …"): exit 2 and that line on stderr.
        if (c.output?.find((l) => l.trim() !== "")?.startsWith("faultline: ")) {
          expect(r.code, c.where).toBe(2);
          expectShown(r.err, c.output, c.where);
          return;
        }
        // 0, or 1 for an audit whose findings reach --fail-on: never bad input or a crash.
        expect([0, 1], `${c.where}: exit ${r.code}: ${r.err}`).toContain(r.code);
        if (c.output) expectShown(r.out, c.output, c.where);
      },
      240_000,
    );
  }
});
