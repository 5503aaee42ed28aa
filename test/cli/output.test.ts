// What reaches the terminal and what the package ships:
// control characters from input are escaped in every output; the help speaks of no "seed"
// documents; the package carries LICENSE and every file the README links to.

import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { escapeControls, escapeJsonControls, UNSAFE_CHARS } from "../../src/report/escape.ts";
import { cli } from "./helpers.ts";

/** Written out independently of src/report/escape.ts: is any character here one that must be escaped? */
const RAW = {
  test: (s: string) =>
    [...s].some((ch) => {
      const c = ch.codePointAt(0)!;
      return (
        (c < 0x20 && c !== 0x0a && c !== 0x09) ||
        (c >= 0x7f && c <= 0x9f) ||
        c === 0x061c ||
        c === 0x200e ||
        c === 0x200f ||
        (c >= 0x2028 && c <= 0x202e) ||
        (c >= 0x2066 && c <= 0x2069)
      );
    }),
};

describe("escaping at the output boundary", () => {
  it("shows C0/C1 controls, DEL and bidirectional controls as \\u{…}; keeps newline and tab", () => {
    expect(escapeControls("a\u001b[31mb\u202ec\u2066d\u0085e\u007f\r\n\tf")).toBe(
      "a\\u{1b}[31mb\\u{202e}c\\u{2066}d\\u{85}e\\u{7f}\\u{d}\n\tf",
    );
    expect(escapeControls("plain — ünïcode ✓")).toBe("plain — ünïcode ✓");
  });

  it("escapes JSON text with JSON escapes, so it parses to the same string", () => {
    const value = { s: "x\u202ey\u0085z\u2028" };
    const json = escapeJsonControls(JSON.stringify(value));
    expect(RAW.test(json)).toBe(false);
    expect(JSON.parse(json)).toEqual(value);
  });

  it("the one pattern is global and restartable (no lastIndex left behind)", () => {
    expect(UNSAFE_CHARS.flags).toContain("g");
    expect(escapeControls("\u001b")).toBe(escapeControls("\u001b"));
  });

  describe("a scenario whose name carries a terminal title sequence and a right-to-left override", () => {
    const dir = mkdtempSync(join(tmpdir(), "faultline-escape-"));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, "evil.yaml");
    writeFileSync(file, 'name: "evil\\e]0;pwned\\a\\u202Egnp.exe"\nduration: 1m\nnodes: {count: 1}\n');

    it("text: escaped", async () => {
      const r = await cli(["simulate", file]);
      expect(r.code).toBe(0);
      expect(RAW.test(r.out)).toBe(false);
      expect(r.out).toContain("evil\\u{1b}]0;pwned\\u{7}\\u{202e}gnp.exe");
    });

    it("JSON: escaped, and the name parses back as written", async () => {
      const r = await cli(["simulate", file, "--json"]);
      expect(RAW.test(r.out)).toBe(false);
      expect(JSON.parse(r.out).scenario).toBe("evil\u001b]0;pwned\u0007\u202egnp.exe");
    });

    it("errors: escaped", async () => {
      const r = await cli(["simulate", file, "--vary", "bogus\u001b[2J=1,2"]);
      expect(r.code).toBe(2);
      expect(RAW.test(r.err)).toBe(false);
    });
  });
});

describe("help", () => {
  it.each([[[]], [["simulate"]], [["probes"]], [["detector"]]])(
    "faultline %s --help never speaks of the seed",
    async (args) => {
      const r = await cli([...args, "--help"]);
      expect(r.code).toBe(0);
      expect(r.out).not.toMatch(/\bthe seed\b|seed's|seed \d{3}/i);
    },
  );

  // main.ts loads a command's module only when it is named (or when none is): each must still be
  // reachable from the top-level help, and a mistyped one still a usage error naming the nearest.
  it("faultline --help lists every command, and a mistyped one exits 2 with the nearest", async () => {
    const r = await cli(["--help"]);
    expect(r.code).toBe(0);
    for (const command of ["simulate", "detector", "probes", "serve", "audit"])
      expect(r.out).toMatch(new RegExp(`^  ${command}\\b`, "m"));
    const typo = await cli(["simulte", "x.yaml"]);
    expect(typo.code).toBe(2);
    expect(typo.err).toContain("(Did you mean simulate?)");
  });
});

describe("the package", () => {
  const files = (): string[] => {
    const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
      encoding: "utf8",
    });
    return (JSON.parse(out) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
  };

  it("ships LICENSE (Apache-2.0, as package.json says) and every file README.md links to", () => {
    const shipped = new Set(files());
    expect(shipped.has("LICENSE")).toBe(true);
    expect(readFileSync("LICENSE", "utf8")).toContain(
      "Apache License\n                           Version 2.0",
    );
    expect(JSON.parse(readFileSync("package.json", "utf8")).license).toBe("Apache-2.0");
    const readme = readFileSync("README.md", "utf8");
    const links = [...readme.matchAll(/\]\(([^)\s]+)\)/g)]
      .map((m) => m[1]!)
      .filter((l) => !/^[a-z]+:/.test(l));
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(shipped, `README links to ${link}`).toContain(link.replace(/#.*$/, ""));
  }, 60_000);
});
