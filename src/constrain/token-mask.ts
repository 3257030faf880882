/**
 * The token-level side of schema-constrained decoding: at each step, the ids whose bytes the automaton accepts
 * in sequence from the current state. One depth-first walk of the vocabulary's prefix trie per step: an edge
 * costs one automaton step and a rejected byte prunes every token below it. Once the text is a complete value
 * the end-of-turn ids are allowed (and only they, when nothing may follow).
 *
 * Budget: with `tokensLeft` given, a token is allowed only if the shortest completion after it still fits in
 * the tokens left (every byte is a token), so a reply cut at maxTokens is never an unfinished value.
 */
import type { AutomatonState, JsonSchemaAutomaton } from "./json-automaton.ts";
import type { TokenVocabulary } from "./token-vocabulary.ts";

export class TokenConstraint {
  private state: AutomatonState;
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
    this.state = automaton.start();
  }

  /** True when the text so far is a whole value the schema accepts. */
  get complete(): boolean {
    return this.automaton.isComplete(this.state);
  }

  /** Fewest bytes (= at most this many tokens) still needed for a complete value. */
  get bytesToComplete(): number {
    return this.automaton.minBytesToComplete(this.state);
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
      throw new Error(
        `${tokensLeft} tokens cannot finish the JSON value: it needs at least ${this.bytesToComplete} more bytes`,
      );
    }
    const out: number[] = [];
    if (this.complete) out.push(...this.endIds);
    const v = this.vocab;
    const a = this.automaton;
    const after = tokensLeft - 1;
    const walk = (node: number, state: AutomatonState): void => {
      for (let e = v.childStart[node]!, end = v.childStart[node + 1]!; e < end; e++) {
        const next = a.step(state, v.childByte[e]!);
        if (next === undefined) continue;
        const child = v.childNode[e]!;
        const t0 = v.tokenStart[child]!;
        const t1 = v.tokenStart[child + 1]!;
        if (t1 > t0 && a.minBytesToComplete(next) <= after) {
          for (let t = t0; t < t1; t++) out.push(v.tokenIds[t]!);
        }
        if (v.childStart[child + 1]! > v.childStart[child]!) walk(child, next);
      }
    };
    walk(0, this.state);
    return out;
  }

  /** Takes `id` (which must be allowed); returns false when it ends the reply (an end id). */
  accept(id: number): boolean {
    if (this.endIds.includes(id)) {
      if (!this.complete) throw new Error(`end-of-turn id ${id} before the JSON value is complete`);
      return false;
    }
    const bytes = this.vocab.bytes[id];
    const next = bytes ? this.automaton.stepBytes(this.state, bytes) : undefined;
    if (!next) throw new Error(`token ${id} is not allowed by the schema constraint here`);
    this.state = next;
    this.generated.push(id);
    return true;
  }
}
