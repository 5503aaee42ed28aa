// The audit command's inputs: the manifests named on the command line (files, folders, `-` for
// standard input), the scenario file and the manifests it names, and each option checked into the
// value it stands for, with one line naming the flag when it is not (exit 2).

import { readFileSync } from "node:fs";
import { dirname } from "node:path";
import { parse } from "yaml";
import { type AuditInput, FAULT_AT } from "../audit/inputs.ts";
import { defaultJobs } from "../audit/pool.ts";
import {
  DEFAULT_FAULTS,
  FAULT_CLASSES,
  type FaultClass,
  SEVERITIES,
  type Severity,
  type SourceFile,
} from "../audit/types.ts";
import { MAX_DUMP_BYTES } from "../load/cluster/dump.ts";
import { LoadError, parseDuration, UnitError } from "../load/core.ts";
import { decodeText } from "../load/files.ts";
import { readManifestEntry } from "../load/index.ts";
import { MAX_FILE_BYTES } from "../load/source.ts";
import { PLATFORM_NAMES } from "../platforms/index.ts";
import { PROFILE_NAMES, type ProfileName, SUPPORTED_VERSIONS } from "../scenario/types.ts";
import { durationFlag } from "./duration-flag.ts";
import { UsageError } from "./io.ts";

export interface Options {
  nodes?: string;
  zones?: string;
  scenario?: string;
  cluster?: string;
  faults?: string;
  duration?: string;
  traffic?: string;
  kubernetesVersion?: string;
  profile?: string;
  json?: boolean;
  sarif?: boolean;
  sarifRoot?: string;
  codeQuality?: boolean;
  stdinFilename?: string;
  report?: string;
  reportInclude?: string;
  failOn?: string;
  jobs?: string;
  shard?: string;
  emitJob?: string;
  maxEvents?: string;
  maxRequests?: string;
  maxSweepEvents?: string;
}

const TRAFFIC_KEYS = ["rate", "clients", "timeout", "retries", "poolSize"] as const;

/**
 * The manifests named on the command line, the scenario file with the manifests it names, and the
 * cluster dump. Standard input (`-`) is read once: by a PATH or by `--cluster -`.
 */
export function readInput(paths: string[], opts: Options): AuditInput {
  let stdinUsed = false;
  if (opts.cluster === "-" && paths.includes("-"))
    throw new UsageError("audit: - (standard input) given twice: as a PATH and as --cluster -");
  const entries = paths.map((path) => {
    if (path === "-") {
      if (stdinUsed) throw new UsageError("audit: - (standard input) given twice");
      stdinUsed = true;
      return { entry: "-", files: [{ file: opts.stdinFilename ?? "<stdin>", text: readStdin() }] };
    }
    const files = readEntry(".", path);
    if (!files) throw new LoadError("file-not-found", path, 0, 0, "", "no such file or folder");
    if (files.length === 0)
      throw new LoadError("file-not-found", path, 0, 0, "", "the folder holds no .yaml, .yml or .json files");
    return { entry: path, files };
  });
  const input: AuditInput = { entries, cluster: {} };
  if (opts.scenario !== undefined) input.scenario = readScenario(opts.scenario);
  if (opts.cluster !== undefined) input.dump = readDump(opts.cluster, opts.stdinFilename);
  if (opts.nodes !== undefined) {
    const n = positive("--nodes", opts.nodes)!;
    if (n > 5000)
      throw new UsageError(`--nodes: ${n} is more than Kubernetes' documented limit of 5,000 nodes`);
    input.cluster.nodes = n;
  }
  if (opts.zones !== undefined) {
    const zones = opts.zones.split(",").map((z) => z.trim());
    if (zones.some((z) => z === "")) throw new UsageError(`--zones: "${opts.zones}" has an empty zone name`);
    input.cluster.zones = zones;
  }
  if (opts.duration !== undefined) input.duration = parseRunDuration(opts.duration);
  if (opts.traffic !== undefined) input.traffic = parseTraffic(opts.traffic);
  if (opts.kubernetesVersion !== undefined) {
    const v = opts.kubernetesVersion.replace(/^v/, "");
    if (!(SUPPORTED_VERSIONS as readonly string[]).includes(v))
      throw new UsageError(
        `--kubernetes-version: "${opts.kubernetesVersion}" is not supported (${SUPPORTED_VERSIONS[0]} to ${SUPPORTED_VERSIONS.at(-1)})`,
      );
    input.kubernetesVersion = v;
  }
  if (opts.profile !== undefined) {
    if (!(PROFILE_NAMES as readonly string[]).includes(opts.profile))
      throw new UsageError(`--profile: "${opts.profile}" is not a profile (${PROFILE_NAMES.join(", ")})`);
    input.profile = opts.profile as ProfileName;
  }
  return input;
}

/** `--cluster DUMP`: a file or a folder of `kubectl get … -o yaml|json` output, or `-`. */
export function readDump(path: string, stdinName = "<stdin>"): NonNullable<AuditInput["dump"]> {
  if (path === "-") return { entry: "-", files: [{ file: stdinName, text: readStdin(MAX_DUMP_BYTES) }] };
  const files = readEntry(".", path, MAX_DUMP_BYTES);
  if (!files) throw new LoadError("file-not-found", path, 0, 0, "", "--cluster: no such file or folder");
  if (files.length === 0)
    throw new LoadError(
      "file-not-found",
      path,
      0,
      0,
      "",
      "--cluster: the folder holds no .yaml, .yml or .json files",
    );
  return { entry: path, files };
}

function readEntry(dir: string, path: string, maxBytes?: number): SourceFile[] | undefined {
  try {
    return readManifestEntry(dir, path, maxBytes);
  } catch (e) {
    // A LoadError is located already (a file that is not UTF-8: file:line:col); a read error is not.
    if (e instanceof LoadError) throw e;
    if (e instanceof Error && "code" in e)
      throw new LoadError((e as LoadError).code, path, 0, 0, "", e.message);
    throw e;
  }
}

function readScenario(file: string): NonNullable<AuditInput["scenario"]> {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    throw new LoadError("file-not-found", file, 0, 0, "", "no such file");
  }
  if (bytes.length > MAX_FILE_BYTES)
    throw new LoadError("file-too-large", file, 0, 0, "", "the scenario file is too large");
  const text = decodeText(bytes, file);
  const manifests: Record<string, SourceFile[]> = {};
  let doc: { manifests?: unknown } | null = null;
  try {
    doc = parse(text) as { manifests?: unknown } | null;
  } catch {
    // The loader reports the syntax error with its position.
  }
  const list =
    typeof doc?.manifests === "string" ? [doc.manifests] : Array.isArray(doc?.manifests) ? doc.manifests : [];
  for (const entry of list) {
    if (typeof entry !== "string") continue;
    const files = readEntry(dirname(file), entry);
    if (files) manifests[entry] = files;
  }
  return { file, text, manifests };
}

function readStdin(maxBytes = MAX_FILE_BYTES): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(0);
  } catch (e) {
    throw new UsageError(`audit: cannot read standard input: ${(e as Error).message.split("\n")[0]}`);
  }
  if (bytes.length > maxBytes)
    throw new UsageError(`audit: standard input is larger than ${maxBytes / 2 ** 20} MiB`);
  return decodeText(bytes, "<stdin>");
}

export function severity(v: string | undefined): Severity {
  const s = (v ?? "error") as Severity;
  if (!SEVERITIES.includes(s))
    throw new UsageError(`--fail-on: "${v}" is not one of ${SEVERITIES.join(", ")}`);
  return s;
}

/** The fault classes; without --faults the defaults, and under a platform's profile its instance deletion too. */
export function parseFaults(v: string | undefined, profile?: string): FaultClass[] {
  if (v === undefined)
    return (PLATFORM_NAMES as readonly string[]).includes(profile ?? "")
      ? [...DEFAULT_FAULTS, "vm-terminated"]
      : [...DEFAULT_FAULTS];
  const out: FaultClass[] = [];
  for (const raw of v.split(",")) {
    const f = raw.trim() as FaultClass;
    if (!FAULT_CLASSES.includes(f))
      throw new UsageError(`--faults: "${raw.trim()}" is not one of ${FAULT_CLASSES.join(", ")}`);
    if (!out.includes(f)) out.push(f);
  }
  return FAULT_CLASSES.filter((f) => out.includes(f));
}

export function parseShard(v: string): { index: number; count: number } {
  const m = /^(\d+)\/(\d+)$/.exec(v.trim());
  const index = Number(m?.[1]);
  const n = Number(m?.[2]);
  if (!m || n < 1 || index >= n || n > 10_000)
    throw new UsageError(
      `--shard: "${v}" is not I/N with 0 ≤ I < N (e.g. 0/4 … 3/4; JOB_COMPLETION_INDEX counts from 0)`,
    );
  return { index, count: n };
}

export function jobsOf(v: string | undefined): number {
  if (v === undefined) return defaultJobs();
  const n = positive("--jobs", v)!;
  if (n > 256) throw new UsageError(`--jobs: ${n} worker threads is more than 256`);
  return n;
}

export function positive(flag: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v.replace(/_/g, ""));
  if (!/^[\d_]+$/.test(v) || !Number.isSafeInteger(n) || n < 1)
    throw new UsageError(`${flag}: "${v}" is not a whole number of at least 1`);
  return n;
}

function parseRunDuration(v: string): number {
  const s = durationFlag("--duration", v);
  if (s <= FAULT_AT)
    throw new UsageError(`--duration: ${v} ends before the fault at ${FAULT_AT}s: give more, e.g. 15m`);
  if (s > 7 * 24 * 3600) throw new UsageError(`--duration: ${v} is more than 7 days (168h)`);
  return s;
}

function parseTraffic(v: string): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const part of v.split(",")) {
    const [key = "", value = ""] = part.split("=").map((x) => x.trim());
    if (!(TRAFFIC_KEYS as readonly string[]).includes(key))
      throw new UsageError(`--traffic: "${key}" is not one of ${TRAFFIC_KEYS.join(", ")} (e.g. rate=100)`);
    if (value === "") throw new UsageError(`--traffic: ${key} has no value`);
    if (key === "timeout") {
      try {
        if (parseDuration(value) <= 0) throw new UnitError("must be more than 0s");
      } catch (e) {
        throw new UsageError(`--traffic: timeout=${value}: ${(e as Error).message}`);
      }
      out[key] = value;
      continue;
    }
    const n = Number(value);
    const whole = key !== "rate";
    if (
      !Number.isFinite(n) ||
      n < (key === "retries" ? 0 : 0) ||
      (whole && !Number.isInteger(n)) ||
      (key !== "retries" && n <= 0)
    )
      throw new UsageError(
        `--traffic: ${key}=${value} is not a ${whole ? "whole " : ""}number${key === "retries" ? " of at least 0" : " above 0"}`,
      );
    out[key] = n;
  }
  if (out.rate === undefined)
    throw new UsageError("--traffic: give at least rate=N (requests per second per Service)");
  return out;
}
