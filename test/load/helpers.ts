// Test helpers for load/: in-memory manifest files and position markers.

import { expect } from "vitest";
import { LoadError, type ManifestFile, parseScenario, type ReadManifest } from "../../src/load/index.ts";
import type { Scenario } from "../../src/scenario/types.ts";

/** Where an error should point: the character after "»" (removed from the text). */
export const MARK = "»";

export function unmark(
  text: string,
): { text: string; line: number; col: number } | { text: string; line: undefined; col: undefined } {
  const at = text.indexOf(MARK);
  if (at < 0) return { text, line: undefined, col: undefined };
  const before = text.slice(0, at);
  const line = before.split("\n").length;
  const col = at - before.lastIndexOf("\n");
  return { text: text.slice(0, at) + text.slice(at + MARK.length), line, col };
}

/** A reader over in-memory files; a path naming a "folder" returns the files under it, sorted. */
export function memoryReader(files: Record<string, string>): ReadManifest {
  return (path: string): ManifestFile[] | undefined => {
    if (files[path] !== undefined) return [{ text: files[path], file: path }];
    const prefix = path.endsWith("/") ? path : `${path}/`;
    const inFolder = Object.keys(files)
      .filter((f) => f.startsWith(prefix) && /\.(ya?ml|json)$/.test(f))
      .sort();
    return inFolder.length > 0 ? inFolder.map((f) => ({ text: files[f]!, file: f })) : undefined;
  };
}

export function load(scenario: string, files: Record<string, string> = {}, file = "scenario.yaml"): Scenario {
  return parseScenario(scenario, file, memoryReader(files));
}

export interface BadCase {
  name: string;
  /** The scenario text; "»" marks the expected position if the error is in the scenario file. */
  scenario: string;
  /** Manifest files by path; "»" in one of them marks the expected position there. */
  files?: Record<string, string>;
  code: string;
  path: string;
  message: string;
}

/** Runs a bad case: exactly one LoadError with the marked position, the path and message substrings. */
export function expectLoadError(c: BadCase): LoadError {
  const scenario = unmark(c.scenario);
  let expected: { file: string; line: number | undefined; col: number | undefined } = {
    file: "scenario.yaml",
    line: scenario.line,
    col: scenario.col,
  };
  const files: Record<string, string> = {};
  for (const [name, text] of Object.entries(c.files ?? {})) {
    const u = unmark(text);
    files[name] = u.text;
    if (u.line !== undefined) expected = { file: name, line: u.line, col: u.col };
  }
  if (expected.line === undefined) throw new Error(`test case "${c.name}" has no ${MARK} marker`);
  let error: unknown;
  try {
    load(scenario.text, files);
  } catch (e) {
    error = e;
  }
  expect(error, "expected a LoadError").toBeInstanceOf(LoadError);
  const e = error as LoadError;
  expect({ code: e.code, file: e.file, line: e.line, col: e.col }).toEqual({
    code: c.code,
    file: expected.file,
    line: expected.line,
    col: expected.col,
  });
  expect(e.path).toContain(c.path);
  expect(e.message).toContain(c.message);
  expect(e.message).not.toContain("\n");
  expect(e.message.startsWith(`${expected.file}:${expected.line}:${expected.col}: `)).toBe(true);
  return e;
}
