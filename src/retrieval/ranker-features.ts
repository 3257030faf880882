import { INDEX_FIELDS, type FieldIndex } from "./bm25f.ts";
import { SOFT_FEATURES, type SoftIndex } from "./soft-match.ts";

/**
 * Tool-agnostic features of a (query, candidate) pair: nothing in them names a tool, so a ranker trained on the
 * queries of some tools applies to tools no query named. Per-field scores come from the candidate's own schema
 * fields (tool-fields.ts); the rest say how much of the query the tool covers and how much of the tool's name the
 * query says; the soft-match features (soft-match.ts) how close the query's words are to the tool's in learnt
 * word vectors, for a tool that says what the query asks in other words.
 */
export const RANKER_FEATURES = [
  "bm25f_relative",
  "bm25f_log",
  "rank_reciprocal",
  ...INDEX_FIELDS.map((f) => `field_${f}` as const),
  "whole_document",
  "coverage_idf",
  "coverage_terms",
  "name_recall",
  "tool_recall",
  "params_recall",
  "params_matched",
  "description_length_log",
  ...SOFT_FEATURES,
] as const;
export type RankerFeature = (typeof RANKER_FEATURES)[number];

const FIELD_K1 = 1.2;
const FIELD_B = 0.75;
const WHOLE_B = 0.9;

export interface Candidate {
  doc: number;
  /** The first-stage (BM25F) score. */
  score: number;
}

/** The share of a short field's distinct terms that the query says (0 for an empty field). */
function recall(terms: readonly string[] | undefined, query: ReadonlySet<string>): number {
  if (terms === undefined || terms.length === 0) return 0;
  let hit = 0;
  for (const t of terms) if (query.has(t)) hit++;
  return hit / terms.length;
}

/**
 * One feature row per candidate (in the candidates' order, which is their first-stage rank), in
 * `RANKER_FEATURES` order. Per-field and whole-document scores are BM25 sums over the query's distinct terms,
 * divided by the query's total idf so that long and short queries share a scale. Without `soft` (no word vectors)
 * the soft-match features are 0.
 */
export function rankerFeatures(
  index: FieldIndex,
  queryTerms: readonly string[],
  candidates: readonly Candidate[],
  soft?: SoftIndex,
): Float64Array[] {
  const softRows = soft?.features(
    queryTerms,
    candidates.map((c) => c.doc),
  );
  const query = [...new Set(queryTerms)];
  const querySet = new Set(query);
  const idf = query.map((t) => index.idf(t));
  const numbers = query.map((t) => index.terms.get(t) ?? -1);
  const idfTotal = idf.reduce((a, c) => a + c, 0) || 1;
  const top = candidates[0]?.score || 1;
  const fieldCount = INDEX_FIELDS.length;
  const nameF = INDEX_FIELDS.indexOf("name");
  const toolF = INDEX_FIELDS.indexOf("tool");
  const paramsF = INDEX_FIELDS.indexOf("params");
  const descriptionF = INDEX_FIELDS.indexOf("description");
  const expansionF = INDEX_FIELDS.indexOf("expansion");
  const wholeAverage = index.averages.slice(0, expansionF).reduce((a, c) => a + c, 0) || 1;
  return candidates.map(({ doc, score }, rank) => {
    const fields = new Float64Array(fieldCount);
    let whole = 0;
    let covered = 0;
    let coveredIdf = 0;
    let wholeLength = 0;
    for (let f = 0; f < expansionF; f++) wholeLength += index.lengths[f][doc];
    query.forEach((_term, q) => {
      let tfAll = 0;
      for (let f = 0; f < fieldCount; f++) {
        const tf = numbers[q] < 0 ? 0 : index.tfOf(f, numbers[q], doc);
        if (tf === 0) continue;
        if (f !== expansionF) tfAll += tf; // the whole document is the schema's text
        const avg = index.averages[f] || 1;
        const norm = tf / (1 - FIELD_B + (FIELD_B * index.lengths[f][doc]) / avg);
        fields[f] += (idf[q] * norm * (FIELD_K1 + 1)) / (norm + FIELD_K1);
      }
      if (tfAll > 0) {
        covered++;
        coveredIdf += idf[q];
        const norm = 1 - WHOLE_B + (WHOLE_B * wholeLength) / wholeAverage;
        whole += (idf[q] * tfAll * (FIELD_K1 + 1)) / (tfAll + FIELD_K1 * norm);
      }
    });
    const paramTerms = index.distinct[paramsF]?.[doc];
    let paramsMatched = 0;
    for (const t of paramTerms ?? []) if (querySet.has(t)) paramsMatched++;
    const row = new Float64Array(RANKER_FEATURES.length);
    let i = 0;
    row[i++] = score / top;
    row[i++] = Math.log1p(score);
    row[i++] = 1 / (1 + rank);
    for (let f = 0; f < fieldCount; f++) row[i++] = fields[f] / idfTotal;
    row[i++] = whole / idfTotal;
    row[i++] = coveredIdf / idfTotal;
    row[i++] = query.length === 0 ? 0 : covered / query.length;
    row[i++] = recall(index.distinct[nameF]?.[doc], querySet);
    row[i++] = recall(index.distinct[toolF]?.[doc], querySet);
    row[i++] = recall(paramTerms, querySet);
    row[i++] = Math.log1p(paramsMatched);
    row[i++] = Math.log1p(index.lengths[descriptionF][doc]);
    if (softRows !== undefined) row.set(softRows[rank], i);
    return row;
  });
}
