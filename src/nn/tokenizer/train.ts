/**
 * Byte-level BPE training (Sennrich et al.; GPT-2's byte-level variant). Words are the GPT-2 pre-tokens of the
 * corpus, counted once; each step merges the most frequent adjacent pair (ties: the smaller pair of ids), and
 * only the words that contain it are updated. A max-heap with lazy invalidation finds the best pair.
 */
import { BYTE_TO_CHAR } from "./bytes.ts";
import { pretokenize } from "./pretokenize.ts";

/** Pair key: both ids fit in 2^21, so the key stays an exact integer. */
const SHIFT = 2 ** 21;
const pairKey = (a: number, b: number): number => a * SHIFT + b;

class PairHeap {
  private counts: number[] = [];
  private keys: number[] = [];

  get size(): number {
    return this.keys.length;
  }

  private above(i: number, j: number): boolean {
    const ci = this.counts[i]!;
    const cj = this.counts[j]!;
    return ci > cj || (ci === cj && this.keys[i]! < this.keys[j]!);
  }

  private swap(i: number, j: number): void {
    [this.counts[i], this.counts[j]] = [this.counts[j]!, this.counts[i]!];
    [this.keys[i], this.keys[j]] = [this.keys[j]!, this.keys[i]!];
  }

  push(count: number, key: number): void {
    this.counts.push(count);
    this.keys.push(key);
    let i = this.keys.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.above(i, parent)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  pop(): { count: number; key: number } {
    const top = { count: this.counts[0]!, key: this.keys[0]! };
    const lastCount = this.counts.pop()!;
    const lastKey = this.keys.pop()!;
    if (this.keys.length > 0) {
      this.counts[0] = lastCount;
      this.keys[0] = lastKey;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let best = i;
        if (l < this.keys.length && this.above(l, best)) best = l;
        if (r < this.keys.length && this.above(r, best)) best = r;
        if (best === i) break;
        this.swap(i, best);
        i = best;
      }
    }
    return top;
  }
}

export interface BpeTrainResult {
  /** Token strings by id: the 256 byte characters first, then one per merge. */
  tokens: string[];
  /** Merges in rank order, as pairs of token strings. */
  merges: [string, string][];
}

export interface BpeTrainOptions {
  /** Number of new tokens (beyond the 256 bytes) to learn at most. */
  merges: number;
  /** A pair seen fewer times than this is never merged. */
  minFrequency: number;
  /**
   * Never merge a digit with anything: every digit stays its own token (LLaMA's tokenizer splits digits too).
   * The merges stay plain BPE merges, so every BPE implementation encodes the same way; a number then reads
   * and copies digit by digit, the same in a question, in JSON arguments and in a tool's result.
   */
  splitDigits?: boolean;
}

const isDigitByte = (id: number): boolean => id >= 0x30 && id <= 0x39;

/** Learns merges over `words` (pre-tokenized plain text, no added tokens). */
export function trainBpe(texts: Iterable<string>, options: BpeTrainOptions): BpeTrainResult {
  const wordCounts = new Map<string, number>();
  for (const text of texts) {
    for (const w of pretokenize(text)) wordCounts.set(w, (wordCounts.get(w) ?? 0) + 1);
  }
  const tokens = BYTE_TO_CHAR.slice();
  const tokenIds = new Map(tokens.map((t, i) => [t, i]));
  const encoder = new TextEncoder();
  const words: number[][] = [];
  const freqs: number[] = [];
  for (const [w, c] of wordCounts) {
    words.push(Array.from(encoder.encode(w)));
    freqs.push(c);
  }

  const pairCounts = new Map<number, number>();
  const where = new Map<number, Set<number>>();
  const addPairs = (wi: number, sign: 1 | -1, fresh?: Set<number>): void => {
    const sym = words[wi]!;
    const f = freqs[wi]! * sign;
    for (let i = 0; i + 1 < sym.length; i++) {
      // Merged tokens never hold a digit, so the digit bytes themselves are all there is to check.
      if (options.splitDigits && (isDigitByte(sym[i]!) || isDigitByte(sym[i + 1]!))) continue;
      const key = pairKey(sym[i]!, sym[i + 1]!);
      pairCounts.set(key, (pairCounts.get(key) ?? 0) + f);
      if (sign === 1) {
        let set = where.get(key);
        if (!set) where.set(key, (set = new Set()));
        set.add(wi);
        fresh?.add(key);
      }
    }
  };
  for (let wi = 0; wi < words.length; wi++) addPairs(wi, 1);

  const heap = new PairHeap();
  for (const [key, count] of pairCounts) heap.push(count, key);

  const merges: [string, string][] = [];
  while (tokens.length - 256 < options.merges && heap.size > 0) {
    const { count, key } = heap.pop();
    const current = pairCounts.get(key) ?? 0;
    if (count !== current) {
      if (current > 0) heap.push(current, key);
      continue;
    }
    if (current < options.minFrequency || current <= 0) break;
    const a = Math.floor(key / SHIFT);
    const b = key % SHIFT;
    // Two merge paths can spell the same string ("ab"+"c", "a"+"bc"); the string keeps one id.
    const text = tokens[a]! + tokens[b]!;
    let id = tokenIds.get(text);
    if (id === undefined) {
      id = tokens.length;
      tokens.push(text);
      tokenIds.set(text, id);
    }
    merges.push([tokens[a]!, tokens[b]!]);

    const fresh = new Set<number>();
    for (const wi of where.get(key) ?? []) {
      const sym = words[wi]!;
      let has = false;
      for (let i = 0; i + 1 < sym.length; i++) if (sym[i] === a && sym[i + 1] === b) has = true;
      if (!has) continue;
      addPairs(wi, -1);
      const merged: number[] = [];
      for (let i = 0; i < sym.length; i++) {
        if (i + 1 < sym.length && sym[i] === a && sym[i + 1] === b) {
          merged.push(id);
          i++;
        } else merged.push(sym[i]!);
      }
      words[wi] = merged;
      addPairs(wi, 1, fresh);
    }
    where.delete(key);
    pairCounts.delete(key);
    // Only pairs that contain the new token can have grown; the others were counted already.
    for (const k of fresh) {
      const c = pairCounts.get(k) ?? 0;
      if (c > 0 && (Math.floor(k / SHIFT) === id || k % SHIFT === id)) heap.push(c, k);
    }
  }
  return { tokens, merges };
}
