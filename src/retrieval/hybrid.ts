import type { RetrievalHit, Retriever, SearchOptions } from "./retriever.ts";

export interface HybridOptions {
  /** RRF's rank offset (default 60, as in Cormack et al. 2009). */
  k0?: number;
  /** How deep each ranking is read (default max(k, 100)). */
  depth?: number;
  /** One weight per retriever (default 1 each). */
  weights?: number[];
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
    if (parts.length === 0) throw new Error("HybridRetriever needs at least one retriever");
    if (options.weights && options.weights.length !== parts.length) {
      throw new Error(`HybridRetriever: ${options.weights.length} weights for ${parts.length} retrievers`);
    }
    this.name = `hybrid(${parts.map((p) => p.name).join("+")})`;
  }

  /** Fuses rankings that were already computed (best first), one per retriever. */
  fuse(rankings: readonly (readonly RetrievalHit[])[], k: number): RetrievalHit[] {
    const k0 = this.options.k0 ?? 60;
    const scores = new Map<string, number>();
    rankings.forEach((hits, r) => {
      const w = this.options.weights?.[r] ?? 1;
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
