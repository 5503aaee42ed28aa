// Where a JSON text stops being JSON (RFC 8259), or first repeats a key in one object: the offset and
// why. V8's JSON.parse names no position for most of its errors ("Unexpected token 'N', … is not
// valid JSON"), and it keeps the last of two equal keys where the API server's strict decoding
// refuses them (sigs.k8s.io/json UnmarshalStrict: `duplicate field "name"`, which kubectl's
// --validate=strict, the default, asks the API server for). The scan is iterative: a text nested
// thousands of levels deep costs a stack of frames, not of calls.

export interface JsonProblem {
  /** offset in the text of the character at fault (its length at the text's end) */
  offset: number;
  message: string;
  code: "syntax" | "duplicate";
}

// RFC 8259 section 7: any character but '"', '\' and the controls U+0000-U+001F, or an escape.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the controls are what a JSON string may not hold raw
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERALS = ["true", "false", "null"];

enum State {
  Value,
  ValueOrClose,
  Key,
  KeyOrClose,
  Colon,
  After,
}

/** The first problem of `text` from `from`, or undefined when it is one JSON value with no repeated key. */
export function firstJsonProblem(text: string, from = 0): JsonProblem | undefined {
  const stack: (Set<string> | undefined)[] = []; // a Set per object, undefined per array
  let state = State.Value;
  let i = from;
  const n = text.length;
  const at = (message: string, code: JsonProblem["code"] = "syntax"): JsonProblem => ({
    offset: i,
    message,
    code,
  });
  for (;;) {
    let c = text.charCodeAt(i);
    while (c === 32 || c === 10 || c === 13 || c === 9) c = text.charCodeAt(++i);
    if (i >= n)
      return stack.length === 0 && state === State.After
        ? undefined
        : at("the JSON text ends here, unfinished");
    const ch = text[i]!;
    if (state === State.Value || state === State.ValueOrClose) {
      if (state === State.ValueOrClose && ch === "]") {
        stack.pop();
        state = State.After;
        i++;
      } else if (ch === "{") {
        stack.push(new Set());
        state = State.KeyOrClose;
        i++;
      } else if (ch === "[") {
        stack.push(undefined);
        state = State.ValueOrClose;
        i++;
      } else {
        const end = scalarEnd(text, i);
        if (end < 0 && ch === '"') return stringProblem(text, i);
        if (end < 0) return at(`${describe(text, i)} cannot begin a JSON value`);
        i = end;
        state = State.After;
      }
      continue;
    }
    if (state === State.Key || state === State.KeyOrClose) {
      if (state === State.KeyOrClose && ch === "}") {
        stack.pop();
        state = State.After;
        i++;
        continue;
      }
      STRING.lastIndex = i;
      if (ch === '"' && !STRING.test(text)) return stringProblem(text, i);
      if (ch !== '"') return at(`${describe(text, i)} where a key in double quotes belongs`);
      const raw = text.slice(i + 1, STRING.lastIndex - 1);
      const key = raw.includes("\\") ? (JSON.parse(`"${raw}"`) as string) : raw;
      const keys = stack[stack.length - 1]!;
      if (keys.has(key)) return at(`duplicate key ${JSON.stringify(key)} in one object`, "duplicate");
      keys.add(key);
      i = STRING.lastIndex;
      state = State.Colon;
      continue;
    }
    if (state === State.Colon) {
      if (ch !== ":") return at(`${describe(text, i)} where ":" belongs after a key`);
      i++;
      state = State.Value;
      continue;
    }
    // After a value: a comma, the close of its object or array, or (at the top) the end.
    if (stack.length === 0) return at(`${describe(text, i)} after the end of the JSON value`);
    const inObject = stack[stack.length - 1] !== undefined;
    if (ch === ",") state = inObject ? State.Key : State.Value;
    else if (ch === (inObject ? "}" : "]")) stack.pop();
    else return at(`${describe(text, i)} where "," or "${inObject ? "}" : "]"}" belongs`);
    i++;
  }
}

/** The end of the string, number or literal at `i`, or -1 when none begins there. */
function scalarEnd(text: string, i: number): number {
  const ch = text[i];
  const re = ch === '"' ? STRING : ch === "-" || (ch! >= "0" && ch! <= "9") ? NUMBER : undefined;
  if (re) {
    re.lastIndex = i;
    return re.test(text) ? re.lastIndex : -1;
  }
  const word = LITERALS.find((w) => text.startsWith(w, i));
  return word ? i + word.length : -1;
}

/** Where the string opened at `start` goes wrong: a raw control character, a bad escape, or no closing quote. */
function stringProblem(text: string, start: number): JsonProblem {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) break;
    if (c < 32)
      return { offset: i, code: "syntax", message: `${describe(text, i)} inside a string (escape it)` };
    if (c === 92) {
      const e = text[i + 1];
      if (e === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) i += 5;
      else if (e !== undefined && '"\\/bfnrt'.includes(e)) i++;
      else return { offset: i, code: "syntax", message: "an escape JSON does not have" };
    }
  }
  return { offset: start, code: "syntax", message: "a string that never ends" };
}

function describe(text: string, i: number): string {
  const cp = text.codePointAt(i)!;
  if (cp === 0xfeff) return "a byte order mark (U+FEFF)";
  const word = /^[A-Za-z_]\w*/.exec(text.slice(i, i + 20))?.[0];
  if (word) return JSON.stringify(word);
  return cp < 32 || cp === 127
    ? `the control character U+${cp.toString(16).toUpperCase().padStart(4, "0")}`
    : JSON.stringify(String.fromCodePoint(cp));
}
