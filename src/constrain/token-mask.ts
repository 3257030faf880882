/**
 * The token-level side of schema-constrained decoding: at each step, the ids whose bytes the automaton accepts
 * in sequence from the current state. One depth-first walk of the vocabulary's prefix trie per step: an edge
 * costs one automaton step and a rejected byte prunes every token below it. Once the text is a complete value
 * the end-of-turn ids are allowed (and only they, when nothing may follow).
 *
 * The walk from a state outside a string body is cached per (automaton, vocabulary, state): the same keys,
 * enums and punctuation recur across replies.
 *
 * Budget: with `tokensLeft` given, a token is allowed only if the shortest completion after it still fits in
 * the tokens left (every byte is a token), so a reply cut at maxTokens is never an unfinished value.
 */
import type { AutomatonState, JsonSchemaAutomaton } from "./json-automaton.ts";
import type { FlatTrie, TokenVocabulary } from "./token-vocabulary.ts";
import { ToolgenError } from "../errors.ts";

interface Candidates {
  ids: Int32Array;
  /** need[i]: fewest bytes that complete the value after ids[i]. */
  need: Int32Array;
}

const MASK_CACHE_SIZE = 4096;
const masks = new WeakMap<JsonSchemaAutomaton, WeakMap<TokenVocabulary, Map<string, Candidates>>>();

function masksFor(a: JsonSchemaAutomaton, v: TokenVocabulary): Map<string, Candidates> {
  let byVocab = masks.get(a);
  if (!byVocab) masks.set(a, (byVocab = new WeakMap()));
  let cache = byVocab.get(v);
  if (!cache) byVocab.set(v, (cache = new Map()));
  return cache;
}

export class TokenConstraint {
  private current: AutomatonState;
  private readonly generated: number[] = [];

  constructor(
    readonly automaton: JsonSchemaAutomaton,
    readonly vocab: TokenVocabulary,
    /**
     * Ids that end the reply (end-of-turn, EOS); allowed once the value is complete. With none, a complete
     * value that cannot grow leaves nothing allowed, which a decoding loop takes as the end.
     */
    readonly endIds: readonly number[],
  ) {
    this.current = automaton.start();
  }

  /** The automaton's state after the ids accepted so far. */
  get state(): AutomatonState {
    return this.current;
  }

  /** True when the text so far is a whole value the schema accepts. */
  get complete(): boolean {
    return this.automaton.isComplete(this.current);
  }

  /** Fewest bytes (= at most this many tokens) still needed for a complete value. */
  get bytesToComplete(): number {
    return this.automaton.minBytesToComplete(this.current);
  }

  /** The ids accepted so far. */
  get ids(): readonly number[] {
    return this.generated;
  }

  /**
   * The ids allowed next. `tokensLeft` counts this step: 1 means the value must be complete after this token.
   * Empty only when the value is complete, cannot grow and there are no end ids.
   */
  allowed(tokensLeft = Infinity): number[] {
    if (this.bytesToComplete > tokensLeft) {
      throw new ToolgenError(
        "invalid_option",
        `${tokensLeft} tokens cannot finish the JSON value: it needs at least ${this.bytesToComplete} more bytes`,
      );
    }
    const out: number[] = [];
    if (this.complete) out.push(...this.endIds);
    const after = tokensLeft - 1;
    const take = (c: Candidates) => {
      for (let i = 0; i < c.ids.length; i++) if (c.need[i]! <= after) out.push(c.ids[i]!);
    };
    const v = this.vocab;
    const body = this.automaton.stringBody(this.current);
    if (body) {
      // Plain text tokens by length, then a walk over the others only.
      const longest = Math.min(body.room, v.plainByLength.length - 1);
      for (let c = 1; c <= longest; c++) {
        if (Math.max(0, body.owed - c) + 1 + body.rest > after) continue;
        for (const id of v.plainByLength[c] ?? []) out.push(id);
      }
      take(this.walk(v.nonPlainTrie, this.current));
      return out;
    }
    // Outside string bodies the same states recur (keys, enums, punctuation): their walks are cached.
    const cache = masksFor(this.automaton, v);
    const key = this.automaton.stateKey(this.current);
    let found = cache.get(key);
    if (!found) {
      found = this.walk(v.trie, this.current);
      if (cache.size >= MASK_CACHE_SIZE) cache.clear();
      cache.set(key, found);
    }
    take(found);
    return out;
  }

  /** Every token the automaton accepts from `state`, with the fewest bytes that complete the value after it. */
  private walk(trie: FlatTrie, start: AutomatonState): Candidates {
    const a = this.automaton;
    const ids: number[] = [];
    const need: number[] = [];
    const visit = (node: number, state: AutomatonState): void => {
      for (let e = trie.childStart[node]!, end = trie.childStart[node + 1]!; e < end; e++) {
        const next = a.step(state, trie.childByte[e]!);
        if (next === undefined) continue;
        const child = trie.childNode[e]!;
        const t0 = trie.tokenStart[child]!;
        const t1 = trie.tokenStart[child + 1]!;
        if (t1 > t0) {
          const bytes = a.minBytesToComplete(next);
          for (let t = t0; t < t1; t++) {
            ids.push(trie.tokenIds[t]!);
            need.push(bytes);
          }
        }
        if (trie.childStart[child + 1]! > trie.childStart[child]!) visit(child, next);
      }
    };
    visit(0, start);
    return { ids: Int32Array.from(ids), need: Int32Array.from(need) };
  }

  /** An independent constraint in this one's state (beam search branches with it; states are immutable). */
  fork(): TokenConstraint {
    const c = new TokenConstraint(this.automaton, this.vocab, this.endIds);
    c.current = this.current;
    c.generated.push(...this.generated);
    return c;
  }

  /** Takes `id` (which must be allowed); returns false when it ends the reply (an end id). */
  accept(id: number): boolean {
    if (this.endIds.includes(id)) {
      if (!this.complete)
        throw new ToolgenError("invalid_option", `end-of-turn id ${id} before the JSON value is complete`);
      return false;
    }
    const bytes = this.vocab.bytes[id];
    const next = bytes ? this.automaton.stepBytes(this.current, bytes) : undefined;
    if (!next)
      throw new ToolgenError("invalid_option", `token ${id} is not allowed by the schema constraint here`);
    this.current = next;
    this.generated.push(id);
    return true;
  }
}
