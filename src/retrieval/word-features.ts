import { tokenize } from "../text/terms.ts";

/** Word unigrams and bigrams of a query (lowercased words, no stemming), each once. */
export function wordNgrams(text: string, bigrams = true): string[] {
  const words = tokenize(text);
  const grams = new Set(words);
  if (bigrams) for (let i = 1; i < words.length; i++) grams.add(`${words[i - 1]} ${words[i]}`);
  return [...grams];
}

/** Feature ids for training texts; unseen features at prediction time are ignored. */
export class FeatureSpace {
  readonly ids = new Map<string, number>();
  constructor(private readonly bigrams = true) {}
  fit(texts: readonly string[]): number[][] {
    return texts.map((t) =>
      wordNgrams(t, this.bigrams).map((g) => {
        if (!this.ids.has(g)) this.ids.set(g, this.ids.size);
        return this.ids.get(g)!;
      }),
    );
  }
  transform(text: string): number[] {
    return wordNgrams(text, this.bigrams)
      .map((g) => this.ids.get(g))
      .filter((id): id is number => id !== undefined);
  }
  get size(): number {
    return this.ids.size;
  }
}

/** Class indices sorted by score, best first (ties by index). */
export function rankClasses(scores: Float64Array, k: number): number[] {
  return [...scores.keys()].sort((a, b) => scores[b]! - scores[a]! || a - b).slice(0, k);
}
