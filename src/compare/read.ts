// A recording read back (src/record/recording.ts): each line parsed and checked enough to be used,
// a mistake named with its file, line and column and the field, never a stack trace.

import type { KubeObject, RecordLine } from "../record/recording.ts";
import { jsonLines } from "./json-lines.ts";

export class RecordingError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly column: number,
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
  /** `file:line:column: field: message`, as load errors read. */
  format(): string {
    return `${this.file}:${this.line}:${this.column}: ${this.field ? `${this.field}: ` : ""}${this.message}`;
  }
}

export type Change = Extract<RecordLine, { kind: "change" }> & { line: number };
export type ProbeRequest = Extract<RecordLine, { kind: "request" }>;

export interface Recording {
  file: string;
  header: Extract<RecordLine, { kind: "header" }>;
  dump: KubeObject[];
  changes: Change[];
  requests: ProbeRequest[];
  end?: Extract<RecordLine, { kind: "end" }>;
}

const KINDS = new Set(["header", "dump", "change", "watch", "request", "end"]);

/** Parse a recording's text. */
export function parseRecording(text: string, file: string): Recording {
  let header: Recording["header"] | undefined;
  let dump: KubeObject[] | undefined;
  const changes: Change[] = [];
  const requests: ProbeRequest[] = [];
  let end: Recording["end"];
  const notJson = (n: number, col: number, message: string): never => {
    throw new RecordingError(file, n, col, "", `not JSON: ${message}`);
  };
  for (const { n, value: v } of jsonLines(text, notJson)) {
    if (v === null || typeof v !== "object" || !KINDS.has((v as { kind?: string }).kind ?? "")) {
      throw new RecordingError(
        file,
        n,
        1,
        "kind",
        "expected one of header, dump, change, watch, request, end",
      );
    }
    const line = v as RecordLine;
    if (line.kind === "header") {
      if (line.version !== 1)
        throw new RecordingError(file, n, 1, "version", `recording version ${line.version} is not 1`);
      header = line;
    } else if (line.kind === "dump") {
      if (!Array.isArray(line.list?.items))
        throw new RecordingError(file, n, 1, "list.items", "the dump has no items list");
      dump = line.list.items;
    } else if (line.kind === "change") {
      if (typeof line.object !== "object" || line.object === null)
        throw new RecordingError(file, n, 1, "object", "a change without its object");
      changes.push({ ...line, line: n });
    } else if (line.kind === "request") requests.push(line);
    else if (line.kind === "end") end = line;
  }
  if (!header) throw new RecordingError(file, 1, 1, "", "no header line: not a faultline recording");
  if (!dump)
    throw new RecordingError(file, 1, 1, "", "no dump line: the recording has no cluster to start from");
  return { file, header, dump, changes, requests, ...(end ? { end } : {}) };
}
