// The recorder's I/O: list and watch a live cluster through @kubernetes/client-node and
// write what it sees as a recording (src/record/recording.ts). Read-only by construction: the only
// requests it sends are GETs of list paths (`kubectl get … -o json`'s) and the library's Watch,
// itself a GET with watch=true; no other verb is in this file. The wall clock is read here only
// (each line's receive time), never in a model. A traffic probe, if asked for, sends GETs to a URL
// from keep-alive clients at a rate, as seed 001's experiment did, and records each request.

import { createWriteStream, type WriteStream } from "node:fs";
import http from "node:http";
import https from "node:https";
import * as k8s from "@kubernetes/client-node";
import {
  changeLine,
  DUMPED,
  type KubeObject,
  RECORDING_VERSION,
  type RecordLine,
  WATCHED,
  type WatchedResource,
} from "../record/recording.ts";
import { Redactor } from "../record/redact.ts";

export interface RecorderOptions {
  kubeconfig?: string;
  context?: string;
  inCluster?: boolean;
  out: string;
  /** seconds of wall time */
  duration: number;
  maxBytes: number;
  redact?: boolean;
  probe?: { url: string; rate: number; clients: number; ca?: string };
  /** ends the recording early (Ctrl-C, a test) */
  signal?: AbortSignal;
  /** said once the dump is written and every watch started */
  onStarted?: () => void;
}

export interface RecorderResult {
  lines: number;
  bytes: number;
  reason: "duration" | "size" | "signal" | "error";
  detail?: string;
}

const now = () => new Date().toISOString();

/** A kubeconfig as the user named it: a file and context, the in-cluster service account, or the default. */
export function loadKubeConfig(
  o: Pick<RecorderOptions, "kubeconfig" | "context" | "inCluster">,
): k8s.KubeConfig {
  const kc = new k8s.KubeConfig();
  if (o.inCluster) kc.loadFromCluster();
  else if (o.kubeconfig !== undefined) kc.loadFromFile(o.kubeconfig);
  else kc.loadFromDefault();
  if (o.context !== undefined) {
    if (!kc.getContextObject(o.context)) {
      throw new Error(
        `--context: no context "${o.context}" in the kubeconfig (it has: ${kc.contexts.map((c) => c.name).join(", ") || "none"})`,
      );
    }
    kc.setCurrentContext(o.context);
  }
  if (!kc.getCurrentCluster()) throw new Error("the kubeconfig names no cluster for its current context");
  return kc;
}

/** GET a list path (read-only): the parsed List; undefined where the server does not serve the kind (404). */
async function list(
  kc: k8s.KubeConfig,
  path: string,
): Promise<{ items: KubeObject[]; rv: string } | undefined> {
  const server = kc.getCurrentCluster()!.server;
  const url = new URL(server.replace(/\/$/, "") + path);
  const opts: https.RequestOptions = { method: "GET", headers: { Accept: "application/json" } };
  await kc.applyToHTTPSOptions(opts);
  const mod = url.protocol === "https:" ? https : http;
  const body = await new Promise<string | undefined>((resolve, reject) => {
    const req = mod.request(url, { ...opts, method: "GET" }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d) => {
        text += d;
      });
      res.on("end", () => {
        const code = res.statusCode ?? 0;
        if (code === 404) resolve(undefined);
        else if (code >= 200 && code < 300) resolve(text);
        else reject(new Error(`GET ${path}: ${code} ${text.slice(0, 200)}`));
      });
    });
    req.on("error", reject);
    req.end();
  });
  if (body === undefined) return undefined;
  const parsed = JSON.parse(body) as { items?: KubeObject[]; metadata?: { resourceVersion?: string } };
  return { items: parsed.items ?? [], rv: parsed.metadata?.resourceVersion ?? "" };
}

class Writer {
  private readonly stream: WriteStream;
  lines = 0;
  bytes = 0;
  full = false;
  constructor(
    path: string,
    private readonly maxBytes: number,
    private readonly onFull: () => void,
  ) {
    this.stream = createWriteStream(path, { flags: "w" });
  }
  write(line: RecordLine, force = false): void {
    if (this.full && !force) return;
    const text = `${JSON.stringify(line)}\n`;
    const size = Buffer.byteLength(text);
    // The end line always fits: the limit keeps room for it.
    if (!force && this.bytes + size > this.maxBytes - 512) {
      this.full = true;
      this.onFull();
      return;
    }
    this.bytes += size;
    this.lines++;
    this.stream.write(text);
  }
  close(): Promise<void> {
    return new Promise((resolve) => this.stream.end(() => resolve()));
  }
}

type Shown = (o: KubeObject) => KubeObject;

/** The header and the dump: every watched kind and the workloads the models start from, listed once. */
async function writeDump(
  kc: k8s.KubeConfig,
  writer: Writer,
  options: RecorderOptions,
  redactor: Redactor | undefined,
): Promise<Map<WatchedResource, string>> {
  const versions = new Map<WatchedResource, string>();
  const items: KubeObject[] = [];
  const notServed: string[] = [];
  for (const w of [...WATCHED, ...DUMPED]) {
    const l = await list(kc, w.path);
    if (!l) {
      notServed.push(w.resource);
      continue;
    }
    if ((WATCHED as readonly { resource: string }[]).includes(w))
      versions.set(w.resource as WatchedResource, l.rv);
    const apiVersion = w.path.startsWith("/api/") ? "v1" : w.path.split("/").slice(2, 4).join("/");
    for (const o of l.items) items.push({ ...o, apiVersion, kind: w.kind });
  }
  const p = options.probe;
  writer.write({
    kind: "header",
    version: RECORDING_VERSION,
    context: options.inCluster ? "in-cluster" : kc.getCurrentContext(),
    server: redactor ? "(redacted)" : kc.getCurrentCluster()!.server,
    startedAt: now(),
    watched: WATCHED.map((w) => w.resource).filter((r) => !notServed.includes(r)),
    ...(notServed.length > 0 ? { notServed } : {}),
    ...(p ? { probe: { url: redactor ? "(redacted)" : p.url, rate: p.rate, clients: p.clients } } : {}),
    ...(redactor ? { redacted: true } : {}),
  });
  if (redactor) redactor.learn(items);
  const shown: Shown = (o) => (redactor ? redactor.object(o) : o);
  writer.write({ kind: "dump", list: { apiVersion: "v1", kind: "List", items: items.map(shown) } });
  return versions;
}

/** The watches: each from its list's resourceVersion, restarted where it ends, relisted on 410 Gone. */
class Watches {
  private readonly aborts: AbortController[] = [];
  private stopping = false;
  constructor(
    private readonly kc: k8s.KubeConfig,
    private readonly writer: Writer,
    private readonly shown: Shown,
    private readonly fail: (detail: string) => void,
  ) {}

  async start(resource: WatchedResource, path: string, from: string): Promise<void> {
    let rv = from;
    const run = async (): Promise<void> => {
      if (this.stopping) return;
      const event = (type: string, object: KubeObject) => {
        if (type === "BOOKMARK") {
          rv = object.metadata?.resourceVersion ?? rv;
          return;
        }
        if (type === "ERROR") {
          const detail = JSON.stringify(object).slice(0, 300);
          this.writer.write({ kind: "watch", resource, what: "error", at: now(), detail });
          // 410 Gone: the version is too old; list again and watch from the list's version.
          rv = "";
          return;
        }
        rv = object.metadata?.resourceVersion ?? rv;
        this.writer.write(changeLine(resource, type, this.shown(object), now()));
      };
      const done = (err: unknown) => {
        if (this.stopping) return;
        const what = rv === "" ? "relisted" : "restarted";
        const detail = err ? { detail: String(err).slice(0, 300) } : {};
        this.writer.write({ kind: "watch", resource, what, at: now(), ...detail });
        const again = async () => {
          if (rv === "") rv = (await list(this.kc, path))?.rv ?? "";
          await run();
        };
        setTimeout(() => void again().catch((e) => this.fail(String(e))), err ? 1000 : 0);
      };
      const query = { resourceVersion: rv, allowWatchBookmarks: true };
      this.aborts.push(await new k8s.Watch(this.kc).watch(path, query, event, done));
    };
    await run();
  }

  stop(): void {
    this.stopping = true;
    for (const a of this.aborts) a.abort();
  }
}

/** Record until the duration, the size limit or the signal: the dump, then every change. */
export async function record(options: RecorderOptions): Promise<RecorderResult> {
  const kc = loadKubeConfig(options);
  let finish: (r: RecorderResult["reason"], detail?: string) => void = () => {};
  const ended = new Promise<{ reason: RecorderResult["reason"]; detail?: string }>((resolve) => {
    finish = (reason, detail) => resolve({ reason, ...(detail !== undefined ? { detail } : {}) });
  });
  const writer = new Writer(options.out, options.maxBytes, () => finish("size"));
  const redactor = options.redact ? new Redactor() : undefined;
  const versions = await writeDump(kc, writer, options, redactor);
  const shown: Shown = (o) => (redactor ? redactor.object(o) : o);
  const watches = new Watches(kc, writer, shown, (detail) => finish("error", detail));
  for (const w of WATCHED) {
    const rv = versions.get(w.resource);
    if (rv !== undefined) await watches.start(w.resource, w.path, rv);
  }
  const probe = options.probe ? startProbe(options.probe, writer) : undefined;
  options.onStarted?.();

  const timer = setTimeout(() => finish("duration"), options.duration * 1000);
  const onAbort = () => finish("signal");
  options.signal?.addEventListener("abort", onAbort);
  if (options.signal?.aborted) finish("signal");
  const end = await ended;
  watches.stop();
  clearTimeout(timer);
  options.signal?.removeEventListener("abort", onAbort);
  probe?.stop();
  const detail = end.detail ? { detail: end.detail } : {};
  writer.write({ kind: "end", at: now(), reason: end.reason, ...detail }, true);
  await writer.close();
  return { lines: writer.lines, bytes: writer.bytes, ...end };
}

/**
 * The traffic probe: `clients` keep-alive connections (one socket each, as seed 001's load
 * generator held them), together sending `rate` GETs a second, each client on its own schedule
 * (a request every clients/rate seconds, staggered), each request recorded with its outcome.
 */
function startProbe(p: NonNullable<RecorderOptions["probe"]>, writer: Writer): { stop(): void } {
  const url = new URL(p.url);
  const mod = url.protocol === "https:" ? https : http;
  const period = (p.clients / p.rate) * 1000;
  const timers: ReturnType<typeof setTimeout>[] = [];
  const agents: http.Agent[] = [];
  let stopped = false;
  for (let c = 0; c < p.clients; c++) {
    const agent = new mod.Agent({ keepAlive: true, maxSockets: 1, ...(p.ca ? { ca: p.ca } : {}) });
    agents.push(agent);
    const t0 = Date.now() + (c * period) / p.clients;
    let n = 0;
    const tick = () => {
      if (stopped) return;
      const sentAt = now();
      const start = performance.now();
      const done = (outcome: string) => {
        if (!stopped)
          writer.write({
            kind: "request",
            client: c,
            sentAt,
            outcome,
            latencyMs: Math.round((performance.now() - start) * 1000) / 1000,
          });
      };
      const req = mod.get(url, { agent, timeout: 5000 }, (res) => {
        res.resume();
        res.on("end", () => done((res.statusCode ?? 0) < 400 ? "ok" : `http ${res.statusCode}`));
      });
      req.on("timeout", () => {
        req.destroy(new Error("timeout"));
      });
      req.on("error", (e: NodeJS.ErrnoException) =>
        done(e.message === "timeout" ? "timeout" : `error ${e.code ?? e.message}`),
      );
      n++;
      timers[c] = setTimeout(tick, Math.max(0, t0 + n * period - Date.now()));
    };
    timers[c] = setTimeout(tick, Math.max(0, t0 - Date.now()));
  }
  return {
    stop() {
      stopped = true;
      for (const t of timers) clearTimeout(t);
      for (const a of agents) a.destroy();
    },
  };
}
