// Load errors: one typed finding with a position, printed on one line (DESIGN.md, "load/").
// The CLI maps a LoadError to exit code 2 and prints formatLoadError(e); never a stack trace.

export type LoadErrorCode =
  /** The file is not valid YAML (the yaml package's own error, e.g. BAD_INDENT, in the message). */
  | "yaml-syntax"
  /** A file or folder named in the scenario cannot be read. */
  | "file-not-found"
  /** A file larger than MAX_FILE_BYTES, or not a regular file. */
  | "file-too-large"
  | "unreadable-file"
  /** A file that is not UTF-8 (the message names the byte). */
  | "invalid-encoding"
  | "unknown-field"
  | "missing-field"
  /** A value of the wrong YAML type (a string where a number is expected…). */
  | "invalid-type"
  /** A value of the right type outside its allowed range or set. */
  | "invalid-value"
  | "invalid-duration"
  | "invalid-quantity"
  | "unsupported-version"
  /** A Kubernetes object without apiVersion or kind, or with a kind in the wrong apiVersion. */
  | "invalid-object"
  | "duplicate-node"
  | "duplicate-object"
  /** A key twice in one JSON object (JSON.parse would keep the last; the API server refuses it). */
  | "duplicate-key"
  | "unknown-node"
  | "unknown-pod"
  | "unknown-workload"
  /** A size beyond the limits faultline accepts (Kubernetes' documented scalability limits). */
  | "too-large"
  /** Input that holds no object at all (empty, only `---`, an empty List): nothing to check. */
  | "no-object";

export class LoadError extends Error {
  override readonly name = "LoadError";
  readonly code: LoadErrorCode;
  readonly file: string;
  /** 1-based; 0 when the error concerns the whole file (it cannot be read). */
  readonly line: number;
  readonly col: number;
  /** Field path inside the YAML document, e.g. `timeline[2].at`; "" for the document itself. */
  readonly path: string;
  /** The message alone, without position; `message` (Error's) is the formatted one-liner. */
  readonly detail: string;

  constructor(code: LoadErrorCode, file: string, line: number, col: number, path: string, detail: string) {
    super(formatParts(file, line, col, path, detail));
    this.code = code;
    this.file = file;
    this.line = line;
    this.col = col;
    this.path = path;
    this.detail = detail;
  }
}

function formatParts(file: string, line: number, col: number, path: string, detail: string): string {
  const where = line > 0 ? `${file}:${line}:${col}` : file;
  // One line, whatever the user's input contained (a YAML key with a newline, a long value).
  const text = (path ? `${path}: ${detail}` : detail).replace(/\s*\n\s*/g, " ");
  return `${where}: ${text}`;
}

/** `file:line:col: path: message`, on one line. */
export function formatLoadError(e: LoadError): string {
  return formatParts(e.file, e.line, e.col, e.path, e.detail);
}
