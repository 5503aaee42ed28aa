// `faultline record [--kubeconfig F] [--context C | --in-cluster] [-o FILE] [--duration 10m]
// [--max-bytes 256Mi] [--redact] [--probe URL --rate R --clients N]`: watch a live cluster, read-only,
// and write a recording for `faultline compare`.

import type { Command } from "commander";
import { durationFlag } from "./duration-flag.ts";
import { type Io, UsageError } from "./io.ts";
import { record } from "./recorder.ts";

interface RecordFlags {
  kubeconfig?: string;
  context?: string;
  inCluster?: boolean;
  output: string;
  duration: string;
  maxBytes: string;
  redact?: boolean;
  probe?: string;
  rate?: string;
  clients?: string;
}

const SIZE = /^(\d+)(Ki|Mi|Gi)?$/;
const UNIT: Record<string, number> = { Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3 };

/** A byte count as a Kubernetes quantity with a binary suffix (256Mi) or a bare number of bytes. */
export function sizeFlag(flag: string, text: string): number {
  const m = SIZE.exec(text.trim());
  if (!m) throw new UsageError(`${flag}: "${text}" is not a size (e.g. 256Mi, 1Gi, 100000)`);
  const bytes = Number(m[1]) * (m[2] ? UNIT[m[2]]! : 1);
  if (bytes < 64 * 1024)
    throw new UsageError(`${flag}: "${text}" is below the least a recording needs (64Ki)`);
  return bytes;
}

function positive(flag: string, text: string | undefined, fallback: number, whole = false): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0 || (whole && !Number.isInteger(n)))
    throw new UsageError(`${flag}: "${text}" is not a positive ${whole ? "whole " : ""}number`);
  return n;
}

export function registerRecordCommand(program: Command, io: Io, setExit: (code: number) => void): void {
  program
    .command("record")
    .description(
      "watch a live cluster (list and watch only) and write a recording for faultline compare: a dump, then every change of Nodes, Leases, Pods, EndpointSlices, volumes and Events",
    )
    .option("--kubeconfig <file>", "the kubeconfig (default: $KUBECONFIG or ~/.kube/config)")
    .option("--context <name>", "the kubeconfig's context to use (default: its current-context)")
    .option("--in-cluster", "use the pod's service account (in-cluster config) instead of a kubeconfig")
    .option("-o, --output <file>", "the recording to write (JSON lines)", "recording.jsonl")
    .option("--duration <time>", "how long to record (wall time)", "10m")
    .option("--max-bytes <size>", "stop when the recording reaches this size", "256Mi")
    .option(
      "--redact",
      "replace names of namespaces, nodes, workloads, pods, Services, claims and volumes with stable pseudonyms",
    )
    .option(
      "--probe <url>",
      "also send GET requests to this URL and record each one's send time, outcome and latency",
    )
    .option("--rate <n>", "with --probe: requests per second, all clients together", "10")
    .option("--clients <n>", "with --probe: keep-alive clients (one connection each)", "2")
    .action(async (opts: RecordFlags) => {
      const duration = durationFlag("--duration", opts.duration);
      if (duration <= 0) throw new UsageError(`--duration: "${opts.duration}" is not above zero`);
      const maxBytes = sizeFlag("--max-bytes", opts.maxBytes);
      if (opts.inCluster && (opts.kubeconfig !== undefined || opts.context !== undefined))
        throw new UsageError("--in-cluster reads no kubeconfig: leave out --kubeconfig and --context");
      let probe: { url: string; rate: number; clients: number } | undefined;
      if (opts.probe !== undefined) {
        let url: URL;
        try {
          url = new URL(opts.probe);
        } catch {
          throw new UsageError(`--probe: "${opts.probe}" is not a URL`);
        }
        if (url.protocol !== "http:" && url.protocol !== "https:")
          throw new UsageError(`--probe: "${opts.probe}" is not an http or https URL`);
        probe = {
          url: url.href,
          rate: positive("--rate", opts.rate, 10),
          clients: positive("--clients", opts.clients, 2, true),
        };
      }
      const controller = new AbortController();
      const stop = () => controller.abort();
      process.on("SIGINT", stop);
      process.on("SIGTERM", stop);
      try {
        const r = await record({
          ...(opts.kubeconfig !== undefined ? { kubeconfig: opts.kubeconfig } : {}),
          ...(opts.context !== undefined ? { context: opts.context } : {}),
          ...(opts.inCluster ? { inCluster: true } : {}),
          out: opts.output,
          duration,
          maxBytes,
          ...(opts.redact ? { redact: true } : {}),
          ...(probe ? { probe } : {}),
          signal: controller.signal,
          onStarted: () => io.err(`faultline record: watching; writing ${opts.output} (Ctrl-C stops)\n`),
        });
        io.err(
          `faultline record: ${r.lines} lines, ${r.bytes} bytes, ended by ${r.reason}${r.detail ? ` (${r.detail})` : ""}\n`,
        );
        if (r.reason === "error") setExit(1);
      } catch (error) {
        if (error instanceof UsageError) throw error;
        throw new UsageError(`record: ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        process.off("SIGINT", stop);
        process.off("SIGTERM", stop);
      }
    });
}
