// `audit merge FILES…`: each shard file read and parsed as JSON, or one located line (exit 2). Shards
// come back from pod logs (`--emit-job`), so the usual damage is named: a file cut short, and two
// shards (or a log's other lines) in one file.

import { readFileSync } from "node:fs";
import { UsageError } from "./io.ts";

export function readShardFiles(files: readonly string[]): { file: string; value: unknown }[] {
  return files.map((file) => {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (e) {
      throw new UsageError(`${file}: cannot read: ${(e as Error).message.split("\n")[0]}`);
    }
    return { file, value: parseShardText(file, text) };
  });
}

/** JSON.parse, with its failure as `file:line:col: why` (V8 gives the offset for most errors). */
export function parseShardText(file: string, text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    const message = (e as Error).message;
    const end = text.trimEnd().length;
    if (end === 0)
      throw new UsageError(`${file}: empty: a shard is what faultline audit … --shard I/N prints`);
    const m = /at position (\d+)/.exec(message);
    const offset = m ? Number(m[1]) : /end of JSON input/.test(message) ? end : undefined;
    const at = offset === undefined ? "" : `:${lineCol(text, Math.min(offset, end))}`;
    if (offset !== undefined && offset >= end)
      throw new UsageError(`${file}${at}: the shard ends before its JSON does (cut short?): make it again`);
    if (/after JSON/.test(message))
      throw new UsageError(
        `${file}${at}: more after the shard's JSON (two shards, or a log's other lines, in one file?): one shard per file`,
      );
    throw new UsageError(`${file}${at}: not JSON: a shard is what faultline audit … --shard I/N prints`);
  }
}

/** 1-based line and column (in UTF-16 units, as the offset) of an offset into text. */
function lineCol(text: string, offset: number): string {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) {
    line++;
    start = i + 1;
  }
  return `${line}:${offset - start + 1}`;
}
