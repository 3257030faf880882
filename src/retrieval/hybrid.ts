import type { RetrievalHit, Retriever, SearchOptions } from "./retriever.ts";
import { ToolgenError } from "../errors.ts";

export interface HybridOptions {
  /** RRF's rank offset (default 60, as in Cormack et al. 2009). */
  k0?: number;
  /** How deep each ranking is read (default max(k, 100)). */
  depth?: number;
  /** One weight per retriever (default 1 each). */
  weights?: number[];
  /**
   * Per retriever: scale its votes by its own confidence on this query, the softmax share of its top hit among
   * the hits it returned. Meant for scores that are logits or log-probabilities (ToolGen's): a model that has
   * never seen queries for the tools in question spreads its mass and mostly leaves the ranking to BM25.
   */
  confidence?: boolean[];
}

/** ToolGen + BM25 as `--retriever hybrid` builds it: ToolGen's votes weigh 2 × its top hit's softmax share. */
export const HYBRID_DEFAULTS: HybridOptions = { weights: [2, 1], confidence: [true, false] };

/** Softmax share of the first hit among `hits` (scores as logits); 1 for a single hit, 0 for none. */
export function topShare(hits: readonly RetrievalHit[]): number {
  if (hits.length === 0) return 0;
  const max = Math.max(...hits.map((h) => h.score));
  const sum = hits.reduce((s, h) => s + Math.exp(h.score - max), 0);
  return Math.exp(hits[0]!.score - max) / sum;
}

/**
 * Fuses rankings by reciprocal rank fusion: score(d) = Σ_r w_r / (k0 + rank_r(d)). With ToolGen and BM25 this
 * keeps ToolGen's ranking for tools it learned queries for, while BM25 still brings in tools the model never saw
 * a query for. Ties break by the order of first appearance, so the result is deterministic.
 */
export class HybridRetriever implements Retriever {
  readonly name: string;
  constructor(
    private readonly parts: readonly Retriever[],
    private readonly options: HybridOptions = {},
  ) {
    if (parts.length === 0)
      throw new ToolgenError("invalid_option", "HybridRetriever needs at least one retriever");
    if (options.weights && options.weights.length !== parts.length) {
      throw new ToolgenError(
        "invalid_option",
        `HybridRetriever: ${options.weights.length} weights for ${parts.length} retrievers`,
      );
    }
    if (options.confidence && options.confidence.length !== parts.length) {
      throw new ToolgenError(
        "invalid_option",
        `HybridRetriever: ${options.confidence.length} confidence flags for ${parts.length} retrievers`,
      );
    }
    this.name = `hybrid(${parts.map((p) => p.name).join("+")})`;
  }

  /** Fuses rankings that were already computed (best first), one per retriever. */
  fuse(rankings: readonly (readonly RetrievalHit[])[], k: number): RetrievalHit[] {
    const k0 = this.options.k0 ?? 60;
    const scores = new Map<string, number>();
    rankings.forEach((hits, r) => {
      const w = (this.options.weights?.[r] ?? 1) * (this.options.confidence?.[r] ? topShare(hits) : 1);
      hits.forEach((h, rank) => scores.set(h.id, (scores.get(h.id) ?? 0) + w / (k0 + rank + 1)));
    });
    return [...scores.entries()]
      .map(([id, score], order) => ({ id, score, order }))
      .sort((a, b) => b.score - a.score || a.order - b.order)
      .slice(0, k)
      .map(({ id, score }) => ({ id, score }));
  }

  async search(query: string, options: SearchOptions = {}): Promise<RetrievalHit[]> {
    const k = options.k ?? 10;
    const depth = Math.max(k, this.options.depth ?? 100);
    const rankings: RetrievalHit[][] = [];
    for (const part of this.parts) rankings.push(await part.search(query, { k: depth }));
    return this.fuse(rankings, k);
  }
}
