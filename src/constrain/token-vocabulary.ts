/**
 * A tokenizer's vocabulary as byte strings, once: each token's decoded bytes and a prefix trie over them, so a
 * constraint can walk all tokens that share a prefix with one automaton step per trie edge instead of
 * re-checking every token from its first byte. Added tokens (chat markers, tool tokens) are left out: inside
 * JSON only the byte-level BPE tokens are written.
 */
import type { Tokenizer } from "../nn/tokenizer/index.ts";
import { fromByteLevel } from "../nn/tokenizer/bytes.ts";

export class TokenVocabulary {
  /** Trie in flat arrays: node n's children are childByte/childNode[childStart[n] .. childStart[n+1]). */
  readonly childStart: Int32Array;
  readonly childByte: Uint8Array;
  readonly childNode: Int32Array;
  /** Tokens ending at node n: tokenIds[tokenStart[n] .. tokenStart[n+1]). */
  readonly tokenStart: Int32Array;
  readonly tokenIds: Int32Array;
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
    if (single.size < 256) throw new Error(`the vocabulary lacks ${256 - single.size} single-byte tokens`);
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
    this.childStart = new Int32Array(order.length + 1);
    this.tokenStart = new Int32Array(order.length + 1);
    this.childByte = new Uint8Array(order.length - 1);
    this.childNode = new Int32Array(order.length - 1);
    const ids: number[] = [];
    let edge = 0;
    order.forEach((node, n) => {
      this.childStart[n] = edge;
      this.tokenStart[n] = ids.length;
      ids.push(...node.tokens);
      for (const [b, child] of [...node.children.entries()].sort((x, y) => x[0] - y[0])) {
        this.childByte[edge] = b;
        this.childNode[edge] = index.get(child)!;
        edge++;
      }
    });
    this.childStart[order.length] = edge;
    this.tokenStart[order.length] = ids.length;
    this.tokenIds = Int32Array.from(ids);
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
