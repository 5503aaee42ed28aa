// UTF-8 well-formedness (The Unicode Standard, table 3-7): where a file stops being UTF-8, so that
// the error names the byte rather than the file being read with U+FFFD in place of what it holds.

// ignoreBOM: a byte order mark stays in the text, as Buffer#toString leaves it.
const fatal = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The text, or the offset of the first byte of the first ill-formed sequence when not all of it is UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | number {
  try {
    return fatal.decode(bytes);
  } catch {
    return invalidUtf8Offset(bytes);
  }
}

/** The offset of the first byte of the first ill-formed sequence, or -1 when every byte is UTF-8. */
export function invalidUtf8Offset(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const c = bytes[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) need = 1;
    else if (c === 0xe0) [need, lo] = [2, 0xa0];
    else if ((c >= 0xe1 && c <= 0xec) || c === 0xee || c === 0xef) need = 2;
    else if (c === 0xed)
      [need, hi] = [2, 0x9f]; // no surrogates
    else if (c === 0xf0) [need, lo] = [3, 0x90];
    else if (c >= 0xf1 && c <= 0xf3) need = 3;
    else if (c === 0xf4)
      [need, hi] = [3, 0x8f]; // nothing above U+10FFFF
    else return i;
    for (let k = 1; k <= need; k++) {
      const d = bytes[i + k];
      const [min, max] = k === 1 ? [lo, hi] : [0x80, 0xbf];
      if (d === undefined || d < min || d > max) return i;
    }
    i += need + 1;
  }
  return -1;
}

/** 1-based line and column (in characters) of a byte offset, counted in the valid text before it. */
export function positionOfByte(bytes: Uint8Array, offset: number): { line: number; col: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    if (bytes[i] === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  const col = [...new TextDecoder().decode(bytes.subarray(lineStart, offset))].length + 1;
  return { line, col };
}
