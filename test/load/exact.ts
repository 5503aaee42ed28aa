// Table-driven bad input with the exact one-line message the CLI prints (file:line:col: path: detail).

import { expect } from "vitest";
import { formatLoadError, LoadError } from "../../src/load/index.ts";
import { load } from "./helpers.ts";

export interface ExactCase {
  name: string;
  scenario: string;
  files?: Record<string, string>;
  /** the whole line formatLoadError prints */
  message: string;
}

export function loadError(run: () => unknown): LoadError {
  try {
    run();
  } catch (e) {
    if (e instanceof LoadError) return e;
    throw e;
  }
  throw new Error("expected a LoadError, but it loaded");
}

export function expectExact(c: ExactCase): void {
  const e = loadError(() => load(c.scenario, c.files ?? {}));
  expect(formatLoadError(e)).toBe(c.message);
  expect(e.message).toBe(c.message);
}
