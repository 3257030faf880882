/**
 * A tokenizer's vocabulary as byte strings, once: each token's decoded bytes and a prefix trie over them, so a
 * constraint can walk all tokens that share a prefix with one automaton step per trie edge instead of
 * re-checking every token from its first byte. Inside a JSON string most tokens are plain text whose effect is
 * only "n more characters"; they are grouped by length, and a second trie holds the rest, so a string step
 * walks only the few tokens with quotes, backslashes or split characters. Added tokens (chat markers, tool
 * tokens) are left out: inside JSON only the byte-level BPE tokens are written.
 */
import type { Tokenizer } from "../nn/tokenizer/index.ts";
import { fromByteLevel } from "../nn/tokenizer/bytes.ts";
import { ToolgenError } from "../errors.ts";

/** A prefix trie over token byte strings, in flat arrays. */
export interface FlatTrie {
  /** Node n's children are childByte/childNode[childStart[n] .. childStart[n+1]); node 0 is the root. */
  readonly childStart: Int32Array;
  readonly childByte: Uint8Array;
  readonly childNode: Int32Array;
  /** Tokens ending at node n: tokenIds[tokenStart[n] .. tokenStart[n+1]). */
  readonly tokenStart: Int32Array;
  readonly tokenIds: Int32Array;
}

export class TokenVocabulary {
  /** Every usable token. */
  readonly trie: FlatTrie;
  /** The tokens that are not plain string text (see `plainLength`): the only ones a string body must walk. */
  readonly nonPlainTrie: FlatTrie;
  /**
   * Plain string text: tokens of whole UTF-8 characters with no quote, backslash or control byte, which
   * inside a JSON string only add characters. `plainByLength[c]` holds those of c characters.
   */
  readonly plainByLength: readonly Int32Array[];
  /** Each usable token's bytes; undefined for ids that never appear inside JSON. */
  readonly bytes: readonly (Uint8Array | undefined)[];
  readonly size: number;

  /**
   * `bytes[id]` is the token's text as bytes, or undefined for a token the constraint never allows. Every
   * single byte must be a token of its own (true of byte-level BPE), so any text has a spelling and a
   * completion of k bytes fits in k tokens.
   */
  constructor(bytes: readonly (Uint8Array | undefined)[]) {
    this.bytes = bytes;
    this.size = bytes.length;
    const single = new Set<number>();
    for (const b of bytes) if (b && b.length === 1) single.add(b[0]!);
    if (single.size < 256)
      throw new ToolgenError("invalid_input", `the vocabulary lacks ${256 - single.size} single-byte tokens`);
    const byLength: number[][] = [];
    const nonPlain: (Uint8Array | undefined)[] = bytes.map((b, id) => {
      const chars = b ? plainLength(b) : -1;
      if (chars <= 0) return b;
      (byLength[chars] ??= []).push(id);
      return undefined;
    });
    this.plainByLength = Array.from(byLength, (ids) => Int32Array.from(ids ?? []));
    this.trie = buildTrie(bytes);
    this.nonPlainTrie = buildTrie(nonPlain);
  }

  /** The vocabulary of a byte-level BPE tokenizer (cached per tokenizer; `size` pads to a model's vocab). */
  static of(tokenizer: Tokenizer, size = tokenizer.vocabSize): TokenVocabulary {
    const key = `${size}`;
    let byTokenizer = cache.get(tokenizer);
    if (!byTokenizer) cache.set(tokenizer, (byTokenizer = new Map()));
    let vocab = byTokenizer.get(key);
    // A tokenizer can grow (addTokens); a cached vocabulary is rebuilt when its size no longer matches.
    if (!vocab || vocab.tokenizerSize !== tokenizer.vocabSize) {
      const added = new Set(tokenizer.addedTokens().map((a) => a.id));
      const bytes: (Uint8Array | undefined)[] = [];
      for (let id = 0; id < size; id++) {
        const token = id < tokenizer.vocabSize && !added.has(id) ? tokenizer.idToToken(id) : undefined;
        bytes.push(token === undefined ? undefined : fromByteLevel(token));
      }
      vocab = new TokenVocabulary(bytes);
      vocab.tokenizerSize = tokenizer.vocabSize;
      byTokenizer.set(key, vocab);
    }
    return vocab;
  }

  private tokenizerSize = -1;
}

const cache = new WeakMap<Tokenizer, Map<string, TokenVocabulary>>();

/** Characters of a token that is plain string text, or -1 (see TokenVocabulary.plainByLength). */
export function plainLength(b: Uint8Array): number {
  let chars = 0;
  for (let i = 0; i < b.length;) {
    const x = b[i]!;
    if (x === 0x22 || x === 0x5c || x < 0x20) return -1;
    let len: number;
    if (x < 0x80) len = 1;
    else if (x >= 0xc2 && x <= 0xdf) len = 2;
    else if (x >= 0xe0 && x <= 0xef) len = 3;
    else if (x >= 0xf0 && x <= 0xf4) len = 4;
    else return -1;
    if (i + len > b.length) return -1;
    // the exact UTF-8 rules (no overlong forms or surrogates): let the decoder judge the whole character
    if (len > 1 && !validUtf8(b.subarray(i, i + len))) return -1;
    i += len;
    chars++;
  }
  return chars;
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });
function validUtf8(b: Uint8Array): boolean {
  try {
    strictUtf8.decode(b);
    return true;
  } catch {
    return false;
  }
}

function buildTrie(bytes: readonly (Uint8Array | undefined)[]): FlatTrie {
  // Build with maps, then lay out breadth-first in flat arrays.
  interface Building {
    children: Map<number, Building>;
    tokens: number[];
  }
  const root: Building = { children: new Map(), tokens: [] };
  bytes.forEach((b, id) => {
    if (!b || b.length === 0) return;
    let node = root;
    for (const x of b) {
      let next = node.children.get(x);
      if (!next) node.children.set(x, (next = { children: new Map(), tokens: [] }));
      node = next;
    }
    node.tokens.push(id);
  });
  const order: Building[] = [root];
  for (let i = 0; i < order.length; i++) {
    const children = [...order[i]!.children.entries()].sort((a, b) => a[0] - b[0]);
    for (const [, child] of children) order.push(child);
  }
  const index = new Map(order.map((n, i) => [n, i]));
  const childStart = new Int32Array(order.length + 1);
  const tokenStart = new Int32Array(order.length + 1);
  const childByte = new Uint8Array(Math.max(0, order.length - 1));
  const childNode = new Int32Array(Math.max(0, order.length - 1));
  const ids: number[] = [];
  let edge = 0;
  order.forEach((node, n) => {
    childStart[n] = edge;
    tokenStart[n] = ids.length;
    ids.push(...node.tokens);
    for (const [b, child] of [...node.children.entries()].sort((x, y) => x[0] - y[0])) {
      childByte[edge] = b;
      childNode[edge] = index.get(child)!;
      edge++;
    }
  });
  childStart[order.length] = edge;
  tokenStart[order.length] = ids.length;
  return { childStart, childByte, childNode, tokenStart, tokenIds: Int32Array.from(ids) };
}
