// Characters from the user's files that must not reach a terminal or a page as they are: C0 and C1
// control characters (escape sequences can retitle or rewrite a terminal), DEL, and the Unicode
// bidirectional controls that reorder what is shown (CVE-2021-42574, "Trojan Source"), plus the
// line and paragraph separators. Newline and tab stay. One definition, used at the command line's
// output boundary (src/cli/io.ts) and by the HTML page for text it shows.

/** Every character escaped: C0 but \t and \n, DEL and C1, ALM, LRM/RLM, LRE…RLO, LS/PS, LRI…PDI. */
// biome-ignore lint/complexity/useRegexLiterals: as a literal the pattern's control characters trip another rule
export const UNSAFE_CHARS = new RegExp(
  "[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u2028-\\u202e\\u2066-\\u2069]",
  "g",
);

const hex = (c: string) => c.codePointAt(0)!.toString(16);

/** For text shown to a person: each unsafe character as `\u{1b}` (terminal output, the page's text). */
export function escapeControls(text: string): string {
  UNSAFE_CHARS.lastIndex = 0;
  if (!UNSAFE_CHARS.test(text)) return text;
  return text.replace(UNSAFE_CHARS, (c) => `\\u{${hex(c)}}`);
}

/**
 * For JSON text: each unsafe character as the JSON escape `\u001b` (the same string once parsed).
 * JSON.stringify already escapes C0 inside strings; this adds DEL, C1 and the bidirectional controls.
 */
export function escapeJsonControls(json: string): string {
  UNSAFE_CHARS.lastIndex = 0;
  if (!UNSAFE_CHARS.test(json)) return json;
  return json.replace(UNSAFE_CHARS, (c) => `\\u${hex(c).padStart(4, "0")}`);
}

/** Text for HTML content or a quoted attribute: markup characters as entities, controls escaped. */
export function escapeHtml(s: string): string {
  return escapeControls(s).replace(
    /[&<>"]/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!,
  );
}
