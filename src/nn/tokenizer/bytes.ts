/**
 * GPT-2's byte-level alphabet: every byte maps to one printable Unicode character, so BPE works on strings
 * and any byte sequence is representable. Printable Latin-1 bytes map to themselves; the others are shifted
 * to U+0100 and up (space becomes "Ġ", newline "Ċ").
 */
function buildByteToChar(): string[] {
  const table: string[] = new Array<string>(256);
  let shifted = 0;
  for (let b = 0; b < 256; b++) {
    const printable = (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
    table[b] = String.fromCharCode(printable ? b : 256 + shifted++);
  }
  return table;
}

/** byte value -> its character in the byte-level alphabet. */
export const BYTE_TO_CHAR: readonly string[] = buildByteToChar();

/** character of the byte-level alphabet -> byte value. */
export const CHAR_TO_BYTE: ReadonlyMap<string, number> = new Map(BYTE_TO_CHAR.map((c, b) => [c, b]));

const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder("utf-8", { fatal: false });

/** Text -> its UTF-8 bytes written in the byte-level alphabet. */
export function toByteLevel(text: string): string {
  let out = "";
  for (const b of utf8.encode(text)) out += BYTE_TO_CHAR[b];
  return out;
}

/**
 * A byte-level string -> its bytes, or undefined when a character is outside the alphabet (such a token is
 * not a byte-level token, e.g. an added token stored verbatim).
 */
export function fromByteLevel(token: string): Uint8Array | undefined {
  const bytes = new Uint8Array(token.length);
  for (let i = 0; i < token.length; i++) {
    const b = CHAR_TO_BYTE.get(token[i]!);
    if (b === undefined) return undefined;
    bytes[i] = b;
  }
  return bytes;
}

/** UTF-8 bytes -> text; invalid sequences (a token boundary inside a character) become U+FFFD. */
export function decodeUtf8(bytes: Uint8Array): string {
  return utf8Decoder.decode(bytes);
}
