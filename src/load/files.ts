// The file-system half of load/: read the scenario file and the manifests it names, then hand the
// text to the pure core (scenario.ts). Paths in messages are as the user typed them, joined to the
// scenario file's folder, so they read relative to the current directory.

import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, extname, isAbsolute, join, relative, resolve } from "node:path";
import type { Scenario } from "../scenario/types.ts";
import { LoadError } from "./errors.ts";
import { loadScenarioSource } from "./patch.ts";
import { type ManifestFile, ManifestReadError, parseManifests } from "./scenario/manifests.ts";
import { parseScenario } from "./scenario/parse.ts";
import { MAX_FILE_BYTES } from "./source.ts";
import { decodeUtf8, positionOfByte } from "./utf8.ts";

const MANIFEST_EXTENSIONS = new Set([".yaml", ".yml", ".json"]);

/**
 * The scenario at `path`; with `cluster`, a dump's nodes and objects instead of its own `nodes` and
 * `manifests` (`simulate --cluster`), applied as patches so that variants of it load the same way.
 * Without `path`, a scenario of 15 minutes with nothing on its timeline (`simulate --cluster DUMP`).
 */
export function loadScenarioFile(
  path: string | undefined,
  options: { cluster?: string; kubernetesVersion?: string; profile?: string } = {},
): Scenario {
  // --kubernetes-version: the control plane's version, over the scenario's and the dump's kubelets'.
  const v = options.kubernetesVersion?.replace(/^v/, "");
  const version =
    v === undefined
      ? []
      : [
          {
            path: "kubernetesVersion",
            value: v,
            text: v,
            label: `--kubernetes-version ${options.kubernetesVersion}`,
          },
        ];
  // --profile: over the scenario's profile and the platform a dump's nodes name.
  if (options.profile !== undefined)
    version.push({
      path: "profile",
      value: options.profile,
      text: options.profile,
      label: `--profile ${options.profile}`,
    });
  if (path === undefined) {
    const cluster = options.cluster ?? "";
    const name = cluster === "-" ? "cluster" : basename(cluster).replace(/\.(ya?ml|json)$/i, "") || "cluster";
    const text = `name: ${JSON.stringify(name)}\nduration: 15m\ncluster: ${JSON.stringify(cluster)}\n`;
    return loadScenarioSource({ file: "--cluster", text, manifests: {} }, version, (entry, maxBytes) =>
      readManifestEntry(".", entry, maxBytes),
    );
  }
  if (options.cluster !== undefined) {
    const text = readScenarioText(path);
    const dir = dirname(path);
    const entry =
      isAbsolute(options.cluster) || options.cluster === "-"
        ? options.cluster
        : relative(dir, resolve(options.cluster)) || ".";
    const label = `--cluster ${options.cluster}`;
    return loadScenarioSource(
      { file: path, text, manifests: {} },
      [
        { path: "cluster", value: entry, label },
        { path: "nodes", value: undefined, label },
        { path: "manifests", value: undefined, label },
        ...version,
      ],
      (e, maxBytes) => readManifestEntry(dir, e, maxBytes),
    );
  }
  if (version.length > 0) {
    const dir = dirname(path);
    return loadScenarioSource(
      { file: path, text: readScenarioText(path), manifests: {} },
      version,
      (e, maxBytes) => readManifestEntry(dir, e, maxBytes),
    );
  }
  return loadScenarioText(path);
}

function loadScenarioText(path: string): Scenario {
  const text = readScenarioText(path);
  const dir = dirname(path);
  return parseScenario(text, path, (entry, maxBytes) => readManifestEntry(dir, entry, maxBytes));
}

function readScenarioText(path: string): string {
  let text: string;
  try {
    text = readSmallFile(path);
  } catch (e) {
    if (e instanceof LoadError) throw e;
    if (e instanceof ManifestReadError) throw new LoadError(e.code, path, 0, 0, "", e.message);
    if (isNotFound(e)) throw new LoadError("file-not-found", path, 0, 0, "", "no such file");
    throw new LoadError("unreadable-file", path, 0, 0, "", `cannot read: ${errorMessage(e)}`);
  }
  return text;
}

/** Manifest files or folders named on the command line (`faultline probes`), without a scenario. */
export function loadManifestFiles(paths: readonly string[]): Pick<Scenario, "manifests" | "ignored"> {
  return parseManifests(readManifestFiles(paths));
}

/** The files of manifest files or folders named on the command line, as read (each one a LoadError). */
export function readManifestFiles(paths: readonly string[]): ManifestFile[] {
  const files: ManifestFile[] = [];
  for (const path of paths) {
    let found: ManifestFile[] | undefined;
    try {
      found = readManifestEntry(".", path);
    } catch (e) {
      if (e instanceof ManifestReadError) throw new LoadError(e.code, path, 0, 0, "", e.message);
      throw e;
    }
    if (found === undefined) throw new LoadError("file-not-found", path, 0, 0, "", "no such file");
    if (found.length === 0)
      throw new LoadError("file-not-found", path, 0, 0, "", "the folder holds no .yaml, .yml or .json files");
    files.push(...found);
  }
  return files;
}

/**
 * A `manifests:` or `cluster:` entry: one file, the .yaml/.yml/.json files of a folder sorted by
 * name, or `-`, the standard input.
 */
export function readManifestEntry(
  dir: string,
  entry: string,
  maxBytes = MAX_FILE_BYTES,
): ManifestFile[] | undefined {
  if (entry === "-") return readStdin(maxBytes);
  const full = isAbsolute(entry) ? entry : join(dir, entry);
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(full);
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw new ManifestReadError("unreadable-file", `cannot read ${full}: ${errorMessage(e)}`);
  }
  try {
    if (stat.isDirectory()) {
      const names = readdirSync(full)
        .filter((name) => MANIFEST_EXTENSIONS.has(extname(name).toLowerCase()))
        .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      const out: ManifestFile[] = [];
      for (const name of names) {
        const file = join(full, name);
        if (!statSync(file).isFile()) continue;
        out.push({ text: readSmallFile(file, maxBytes), file });
      }
      return out;
    }
    return [{ text: readSmallFile(full, maxBytes), file: full }];
  } catch (e) {
    if (e instanceof ManifestReadError || e instanceof LoadError) throw e;
    throw new ManifestReadError("unreadable-file", `cannot read ${full}: ${errorMessage(e)}`);
  }
}

/** Refuses anything but a regular file of at most `maxBytes`, before reading it (no hang on a FIFO or /dev/zero). */
function readSmallFile(file: string, maxBytes = MAX_FILE_BYTES): string {
  const stat = statSync(file);
  if (!stat.isFile()) throw new ManifestReadError("unreadable-file", `${file} is not a regular file`);
  if (stat.size > maxBytes) {
    throw new ManifestReadError(
      "file-too-large",
      `${file} is ${(stat.size / 1024 / 1024).toFixed(1)} MiB; files larger than ${maxBytes / 1024 / 1024} MiB are refused`,
    );
  }
  return decodeText(readFileSync(file), file);
}

/** `-`: the standard input, read to its end (`kubectl get … -o json | faultline simulate --cluster -`). */
function readStdin(maxBytes = MAX_FILE_BYTES): ManifestFile[] {
  const bytes = readFileSync(0);
  if (bytes.length > maxBytes)
    throw new ManifestReadError(
      "file-too-large",
      `the standard input is ${(bytes.length / 1024 / 1024).toFixed(1)} MiB; more than ${maxBytes / 1024 / 1024} MiB is refused`,
    );
  return [{ text: decodeText(bytes, STDIN), file: STDIN }];
}

/** How messages name the standard input. */
export const STDIN = "<stdin>";

/** The bytes as UTF-8 text; a LoadError naming the first byte that is not UTF-8, located, otherwise. */
export function decodeText(bytes: Uint8Array, file: string): string {
  const text = decodeUtf8(bytes);
  if (typeof text === "number") {
    const bad = text;
    const { line, col } = positionOfByte(bytes, bad);
    const hex = bytes[bad]!.toString(16).toUpperCase().padStart(2, "0");
    const utf16 = (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
    throw new LoadError(
      "invalid-encoding",
      file,
      line,
      col,
      "",
      `invalid UTF-8 at byte ${bad} (0x${hex}): ${utf16 ? "the file is UTF-16; save it as UTF-8" : "faultline reads YAML and JSON as UTF-8"}`,
    );
  }
  return text;
}

function isNotFound(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}

function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
