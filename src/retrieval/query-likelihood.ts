import { INDEX_FIELDS, type FieldIndex } from "./bm25f.ts";

/** The scopes a query-likelihood feature reads: the schema's whole text, or its name, tool and description. */
export type LikelihoodScope = "whole" | "core";

const SCOPE_FIELDS: Record<LikelihoodScope, readonly number[]> = {
  whole: INDEX_FIELDS.map((_, f) => f).filter((f) => INDEX_FIELDS[f] !== "expansion"),
  core: ["name", "tool", "description"].map((f) => INDEX_FIELDS.indexOf(f as (typeof INDEX_FIELDS)[number])),
};

/**
 * The catalog's language model for query likelihood (Ponte & Croft; Zhai & Lafferty's Dirichlet smoothing): each
 * tool document is a unigram model of its schema text, smoothed with the whole catalog's, so it is learnt from the
 * tool documents alone and a tool no query named is scored like any other. Built once per index from its
 * postings (term counts per scope); the learnt expansion field is left out (it comes from training queries).
 */
export class CollectionModel {
  /** Per scope: by term number, the term's share of all tokens in the catalog (0: absent from the scope). */
  private readonly probability: Record<LikelihoodScope, Float64Array>;

  constructor(index: FieldIndex) {
    const termCount = index.termList.length;
    const of = (fields: readonly number[]): Float64Array => {
      const counts = new Float64Array(termCount);
      let total = 0;
      for (const f of fields) {
        const { starts, tf } = index.postings[f];
        for (let t = 0; t < termCount; t++)
          for (let i = starts[t]; i < starts[t + 1]; i++) {
            counts[t] += tf[i];
            total += tf[i];
          }
      }
      if (total > 0) for (let t = 0; t < termCount; t++) counts[t] /= total;
      return counts;
    };
    this.probability = { whole: of(SCOPE_FIELDS.whole), core: of(SCOPE_FIELDS.core) };
  }

  /**
   * The mean over the query's terms (term numbers; -1 or absent from the scope: skipped, they score every tool
   * alike) of log p(term | document) − log p(term | catalog), where p(term | document) = (tf + μ p(term |
   * catalog)) / (length + μ) and μ is the scope's mean document length: how much likelier the tool's own words
   * make the query than the catalog's. 0 for a query with no known term.
   */
  logLikelihoodRatio(
    terms: ArrayLike<number>,
    tfs: ArrayLike<number>,
    length: number,
    averageLength: number,
    scope: LikelihoodScope,
  ): number {
    const p = this.probability[scope];
    const mu = averageLength;
    let sum = 0;
    let count = 0;
    for (let q = 0; q < terms.length; q++) {
      const t = terms[q];
      if (t < 0 || !(p[t] > 0)) continue;
      sum += Math.log((tfs[q] + mu * p[t]) / (length + mu)) - Math.log(p[t]);
      count++;
    }
    return count === 0 ? 0 : sum / count;
  }
}

const models = new WeakMap<FieldIndex, CollectionModel>();

/** The index's collection model, built on first use. */
export function collectionModel(index: FieldIndex): CollectionModel {
  let model = models.get(index);
  if (model === undefined) models.set(index, (model = new CollectionModel(index)));
  return model;
}
