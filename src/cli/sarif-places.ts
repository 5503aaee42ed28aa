// Where the SARIF's files are: the repository root (`--sarif-root DIR`, else the nearest folder up
// from the working directory holding `.git`, else the working directory), each finding's file as a URI
// relative to it under %SRCROOT%, the working directory, and each rule's section of docs/rules.md
// (shipped in the package) as the rule's help. GitHub places an alert by a path relative to the
// repository root ("SARIF support for code scanning", docs.github.com, `artifactLocation.uri`: "we
// recommend that this is a relative path from the root of the GitHub repository being analyzed").

import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import type { ArtifactLocation } from "sarif";
import { helpUri, type SarifPlaces, SRCROOT, uriOf } from "../audit/sarif.ts";
import { UsageError } from "./io.ts";

export function sarifPlaces(
  version: string,
  sarifRoot: string | undefined,
  cwd = process.cwd(),
): SarifPlaces {
  const root =
    sarifRoot === undefined ? repositoryRoot(cwd) : checkedRoot(resolve(cwd, sarifRoot), sarifRoot);
  const help = ruleSections(version);
  return {
    root: folderUri(root),
    workingDirectory: folderUri(cwd),
    ...(help ? { help } : {}),
    artifact: (file) => artifactOf(file, root, cwd),
  };
}

function artifactOf(file: string, root: string, cwd: string): ArtifactLocation {
  if (file === "" || file === "<stdin>") return { uri: uriOf(file) };
  const absolute = resolve(cwd, file);
  const inside = relative(root, absolute);
  // Outside the root (or on another drive): the absolute file: URI, which no base can shorten.
  if (inside === "" || inside.startsWith("..") || isAbsolute(inside))
    return { uri: pathToFileURL(absolute).href };
  return { uri: uriOf(inside.split(sep).join("/")), uriBaseId: SRCROOT };
}

/** A finding's file relative to the repository root (`--sarif-root`), for a Code Quality report. */
export function repositoryPath(file: string, sarifRoot: string | undefined, cwd = process.cwd()): string {
  const root = sarifRoot === undefined ? repositoryRoot(cwd) : resolve(cwd, sarifRoot);
  if (file === "" || file === "<stdin>") return "stdin";
  const inside = relative(root, resolve(cwd, file));
  return inside.startsWith("..") || isAbsolute(inside) ? resolve(cwd, file) : inside.split(sep).join("/");
}

/** The nearest folder from `cwd` up that holds `.git` (a folder, or a worktree's file). */
export function repositoryRoot(cwd: string): string {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (existsSync(join(dir, ".git"))) return dir;
    if (dirname(dir) === dir) return resolve(cwd);
  }
}

function checkedRoot(dir: string, typed: string): string {
  let folder = false;
  try {
    folder = statSync(dir).isDirectory();
  } catch {
    // reported below
  }
  if (!folder) throw new UsageError(`--sarif-root: "${typed}" is not a folder`);
  return dir;
}

/** A folder as a file: URI ending in "/" (SARIF 2.1.0 §3.14.14: a base URI ends with a slash). */
function folderUri(dir: string): string {
  const href = pathToFileURL(dir).href;
  return href.endsWith("/") ? href : `${href}/`;
}

/** docs/rules.md's `## FLnnn` sections, their in-page links made absolute; undefined if not shipped. */
function ruleSections(version: string): Map<string, string> | undefined {
  let text: string;
  try {
    text = readFileSync(new URL("../../docs/rules.md", import.meta.url), "utf8");
  } catch {
    return undefined;
  }
  const sections = new Map<string, string>();
  for (const part of text.split(/^## /m).slice(1)) {
    const id = /^(FL\d{3})\s*\n/.exec(part)?.[1];
    if (!id) continue;
    const base = helpUri(version, id).replace(/#.*$/, "");
    const body = part.slice(id.length).trim().replace(/\]\(#/g, `](${base}#`);
    sections.set(id, body);
  }
  return sections;
}
