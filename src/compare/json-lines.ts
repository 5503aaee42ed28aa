// JSON lines as a recording (record/recording.ts) and a Kubernetes audit log are written: one JSON
// value per line, blank lines skipped. A line that is not JSON is told with its line and column (V8's
// "position N" is 0-based), through the reader's own error.

/** Each non-blank line's value with its 1-based number; `notJson` throws the reader's located error. */
export function* jsonLines(
  text: string,
  notJson: (line: number, column: number, message: string) => never,
): Generator<{ n: number; value: unknown }> {
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    if (raw.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (e) {
      const m = /position (\d+)/.exec(String(e));
      notJson(i + 1, m ? Number(m[1]) + 1 : 1, (e as Error).message);
    }
    yield { n: i + 1, value };
  }
}
