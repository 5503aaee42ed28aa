// Every faultline command the documentation shows runs: each `faultline …` line of a ```sh block in
// README.md, CONTRIBUTING.md and docs/*.md, and each `$ faultline …` that opens a plain block, is
// run from the repository (as `npx faultline` would run it), and where the docs show its output (the
// plain block right after, or the rest of the `$` block) every line shown appears in the output, in
// order; `…` in a shown line stands for what the docs left out.
// - A file the user brings (`cluster.json`, `bad.yaml`, `FILE`, …) has a stand-in (STAND_INS): the
//   repository's own file, or one written for the docs in test/fixtures/docs/, copied under the
//   placeholder's name into a temporary folder; the output is compared with that folder's path taken
//   out, so it names the file as the docs do.
// - A block that leaves `faultline serve … &` in the background runs whole, as one shell script (the
//   serve, then the block's kubectl, export and faultline lines once the kubeconfig is written).
// - Files a command writes (`--report`, `--kubeconfig-out`, `-o`) go to the temporary folder.
// Not run, each for its reason: a line fed by another tool (`helm … |`, `kubectl … |`), and a
// recording of a cluster the machine cannot start (kind, k3d or a managed one: docker is not here).

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { FAULTLINE, shell } from "../cli/helpers.ts";

const out = mkdtempSync(join(tmpdir(), "faultline-docs-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

interface Shown {
  where: string;
  command: string;
  output?: string[];
  /** the whole block, when it leaves a serve in the background */
  block?: string[];
}

const DUMP = "test/fixtures/cluster/shop-dump.yaml";
const RECORDING = "examples/recordings/perturbed.jsonl";
const DOCS_FIXTURES = "test/fixtures/docs/";
// what `kubectl get … -o json` prints: the EKS-shaped dump, as JSON
writeFileSync(join(out, "cluster.json"), JSON.stringify(parse(readFileSync(DUMP, "utf8"))));
/** Each placeholder the docs show, and the file standing in for it. */
const STAND_INS: Record<string, string> = {
  "bad.yaml": `${DOCS_FIXTURES}bad.yaml`,
  "week.yaml": `${DOCS_FIXTURES}week.yaml`,
  "power-off.yaml": `${DOCS_FIXTURES}power-off.yaml`,
  "new-service.yaml": `${DOCS_FIXTURES}new-service.yaml`,
  "cluster.yaml": DUMP,
  "cluster.json": join(out, "cluster.json"),
  "kill.jsonl": RECORDING,
  "served.jsonl": RECORDING,
  FILE: "examples/traffic-doks-power-off.yaml",
  // an incident's Events and the dump from before it
  "events.json": "examples/incident/events.json",
  "dump.json": "examples/incident/dump.json",
};
/** The output as the docs name their files: the stand-ins' folders taken out. */
function asDocsName(text: string): string {
  return text.replaceAll(`${out}/`, "").replaceAll(DOCS_FIXTURES, "");
}

const PAGES = [
  "README.md",
  "CONTRIBUTING.md",
  ...readdirSync("docs")
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];
const COMMAND = /^\s*(?:\$ )?(?:npx )?faultline (.*)$/;
const BACKGROUND = /&\s*(#.*)?$/;

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
      const background = commands.find((l) => BACKGROUND.test(l));
      if (background) {
        found.push({ where: `${page}:${b.line}`, command: background, block: b.lines });
        return;
      }
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
function notRun(args: string, inBlock: boolean): string | undefined {
  if (/\|/.test(args)) return "fed by another tool";
  if (/^record\b/.test(args.trim()) && !inBlock)
    return "records a live cluster (kind, k3d or a managed one; docker is not on this machine)";
  const tokens = args.replace(/#.*$/, "").trim().split(/\s+/);
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (WRITES.includes(tokens[i - 1] ?? "") || STAND_INS[t] !== undefined) continue;
    if (t === "FILE" || (/\.(ya?ml|json|jsonl)$/.test(t) && !existsSync(t)))
      return `placeholder ${t} has no stand-in`;
  }
  return undefined;
}

const WRITES = ["--report", "--kubeconfig-out", "-o"];

/**
 * The command line as run: comment gone, each file it writes in the temporary folder (remembered in
 * `written`, so that a later line of its block reads it there), each placeholder its stand-in.
 */
function runnable(args: string, written = new Map<string, string>()): string {
  const tokens = args.replace(/#.*$/, "").trim().split(/\s+/);
  return tokens
    .map((t, i) => {
      if (WRITES.includes(tokens[i - 1] ?? "")) {
        written.set(t, join(out, basename(t)));
        return written.get(t)!;
      }
      return written.get(t) ?? STAND_INS[t] ?? t;
    })
    .join(" ");
}

/**
 * A block that leaves a serve in the background, as one bash script: the serve, a wait (bounded)
 * for the kubeconfig it writes, then the block's other lines with the files written in the
 * temporary folder; an audit's or a compare's exit 1 (findings) passes, and the serve is stopped at
 * the end.
 */
function blockScript(lines: string[]): string {
  const written = new Map<string, string>();
  const script = ["set -e", "trap 'kill $(jobs -p) 2>/dev/null || true' EXIT"];
  for (const line of lines) {
    const text = line.replace(/#.*$/, "").trim();
    if (text === "") continue;
    const command = COMMAND.exec(text);
    if (!command) {
      let rewritten = text;
      for (const [from, to] of written) rewritten = rewritten.replaceAll(from, to);
      script.push(rewritten);
      continue;
    }
    const args = command[1]!.replace(/&\s*$/, "");
    const run = `${FAULTLINE} ${runnable(args, written)}`;
    if (!BACKGROUND.test(text)) {
      script.push(`${run} || [ $? -eq 1 ]`);
      continue;
    }
    const kubeconfig = written.get(/--kubeconfig-out (\S+)/.exec(args)?.[1] ?? "");
    if (!kubeconfig) throw new Error(`a serve in the background writes no --kubeconfig-out: ${line}`);
    script.push(`rm -f ${kubeconfig}`, `${run} > ${join(out, "serve.log")} 2>&1 &`);
    // serve writes the kubeconfig once it listens (cli/serve.ts); bounded, never a hang
    script.push(
      `for i in $(seq 1800); do [ -s ${kubeconfig} ] && break; sleep 0.1; done; [ -s ${kubeconfig} ]`,
    );
  }
  return script.join("\n");
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
const argsOf = (c: Shown) => COMMAND.exec(c.command)![1]!;
/** A refusal the docs show: its one line, "faultline: …" or a located "file:line:col: …". */
const refusal = (output: string[] | undefined) =>
  /^(faultline: |\S+:\d+:\d+: )/.test(output?.find((l) => l.trim() !== "") ?? "");

describe("the commands the docs show", () => {
  it("are found; each placeholder has a stand-in, and each one not run has its reason", () => {
    expect(all.length).toBeGreaterThanOrEqual(10);
    const why = all.map((c) => notRun(argsOf(c), c.block !== undefined)).filter(Boolean);
    expect(why.filter((w) => w!.startsWith("placeholder"))).toEqual([]);
    expect(why.length).toBeLessThanOrEqual(all.length / 10);
  });

  for (const c of all) {
    const args = argsOf(c);
    const why = notRun(args, c.block !== undefined);
    const what = c.block ? `the block with faultline ${args}` : `faultline ${args}`;
    it.skipIf(why !== undefined)(
      `${c.where}: ${what}${why ? ` (not run: ${why})` : ""}`,
      async () => {
        if (c.block) {
          const r = await shell(blockScript(c.block));
          expect(r.code, `${c.where}: exit ${r.code}: ${r.err}`).toBe(0);
          expect(r.err).not.toMatch(/^\s+at /m);
          return;
        }
        const r = await shell(`${FAULTLINE} ${runnable(args)}`);
        expect(r.err).not.toMatch(/^\s+at /m);
        if (refusal(c.output)) {
          expect(r.code, c.where).toBe(2);
          expectShown(asDocsName(r.err), c.output!, c.where);
          return;
        }
        // 0, or 1 for an audit whose findings reach --fail-on: never bad input or a crash.
        expect([0, 1], `${c.where}: exit ${r.code}: ${r.err}`).toContain(r.code);
        if (c.output) expectShown(asDocsName(r.out), c.output, c.where);
      },
      300_000,
    );
  }
});
