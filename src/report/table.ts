// The one helper for the command line's plain-text tables: columns as wide as their widest cell, separated
// by a gap, each aligned left or right; the last column is never padded, and lines end without spaces.

export interface TableOptions {
  /** Per column, "left" (the default) or "right". */
  align?: ReadonlyArray<"left" | "right">;
  /** Spaces between columns; default 2. */
  gap?: number;
  /** Put before every line; default none. */
  indent?: string;
}

/** The table's lines: the header first, then one per row. */
export function tableLines(
  headers: readonly string[],
  rows: ReadonlyArray<readonly string[]>,
  o: TableOptions = {},
): string[] {
  const all = [headers, ...rows];
  const widths = headers.map((_, i) => Math.max(...all.map((r) => (r[i] ?? "").length)));
  const last = headers.length - 1;
  const gap = " ".repeat(o.gap ?? 2);
  const line = (cells: readonly string[]): string =>
    `${o.indent ?? ""}${headers
      .map((_, i) => {
        const c = cells[i] ?? "";
        if (o.align?.[i] === "right") return c.padStart(widths[i]!);
        return i === last ? c : c.padEnd(widths[i]!);
      })
      .join(gap)}`.trimEnd();
  return all.map(line);
}

/** The table as text, one line each, ending with a newline. */
export function table(
  headers: readonly string[],
  rows: ReadonlyArray<readonly string[]>,
  o: TableOptions = {},
): string {
  return `${tableLines(headers, rows, o).join("\n")}\n`;
}
