import { INDEX_FIELDS, type FieldIndex } from "./bm25f.ts";
import { GENERATED_FEATURES, generatedOf } from "./generated-queries.ts";
import { prefixIndexOf } from "./prefix-match.ts";
import { collectionModel } from "./query-likelihood.ts";
import { SOFT_FEATURES, type SoftIndex } from "./soft-match.ts";

/** The fields whose idf-weighted share of the query gets a feature of its own (`cover_<field>`). */
const COVERAGE_FIELDS = ["name", "tool", "description", "params", "paramText"] as const;
/** The fields of `ql_core`: what a tool is called and says it does. */
const CORE_FIELDS = ["name", "tool", "description"] as const;

/**
 * Tool-agnostic features of a (query, candidate) pair: nothing in them names a tool, so a ranker trained on the
 * queries of some tools applies to tools no query named. Per-field scores come from the candidate's own schema
 * fields (tool-fields.ts); the rest say how much of the query the tool covers and how much of the tool's name the
 * query says; `query_terms_log` the query's length (the same for every candidate: a linear model gains nothing
 * from it alone, but a model may weigh the other features by it, RankerModel.interact); the soft-match features (soft-match.ts) how close the query's words are to the tool's in learnt
 * word vectors, for a tool that says what the query asks in other words, over the whole document and per field;
 * `cover_<field>` the idf-weighted share of the query one field says; `ql_*` the query's likelihood under the
 * tool's own unigram language model (query-likelihood.ts), learnt from its schema text alone, so a tool no query
 * ever named gets one; `bigram_match` the share of the query's word pairs the tool says as a phrase; `prefix_*` the
 * query's words the tool says exactly or by a prefix relative (prefix-match.ts: "crypto" for "cryptocurrencies"); `gen_*`
 * how the query meets the pseudo-queries a small language model wrote for the tool from its document
 * (generated-queries.ts; 0 when the index has none attached). A model may use any subset (its file names the features it reads).
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
  ...COVERAGE_FIELDS.map((f) => `cover_${f}` as const),
  "ql_document",
  "ql_core",
  "bigram_match",
  "prefix_cover",
  "prefix_gap",
  "query_terms_log",
  ...GENERATED_FEATURES,
] as const;
export type RankerFeature = (typeof RANKER_FEATURES)[number];

/** Where each feature sits in a row of `rankerFeatures`. */
export const FEATURE_NUMBER: ReadonlyMap<string, number> = new Map(RANKER_FEATURES.map((f, i) => [f, i]));

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

/** The query's adjacent term pairs (term numbers, both known to the index), each once. */
function queryBigrams(index: FieldIndex, terms: readonly string[]): [number, number][] {
  const out: [number, number][] = [];
  const seen = new Set<string>();
  for (let i = 1; i < terms.length; i++) {
    const a = index.terms.get(terms[i - 1]);
    const b = index.terms.get(terms[i]);
    if (a === undefined || b === undefined || a === b || seen.has(`${a} ${b}`)) continue;
    seen.add(`${a} ${b}`);
    out.push([a, b]);
  }
  return out;
}

/**
 * The share of the query's adjacent term pairs that the tool's name, tool or description says as a phrase, in
 * either order ("weather forecast" meets "forecast the weather" after stopwords go); 0 for a one-term query.
 */
function bigramShare(index: FieldIndex, pairs: readonly [number, number][], doc: number): number {
  if (pairs.length === 0) return 0;
  const { sequence, sequenceStarts } = index;
  let hit = 0;
  for (const [a, b] of pairs)
    for (let i = sequenceStarts[doc] + 1; i < sequenceStarts[doc + 1]; i++) {
      const x = sequence[i - 1];
      const y = sequence[i];
      if ((x === a && y === b) || (x === b && y === a)) {
        hit++;
        break;
      }
    }
  return hit / pairs.length;
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
  const coverF = COVERAGE_FIELDS.map((f) => INDEX_FIELDS.indexOf(f));
  const coreF = CORE_FIELDS.map((f) => INDEX_FIELDS.indexOf(f));
  const lm = collectionModel(index);
  const pairs = queryBigrams(index, queryTerms);
  const prefixOf = prefixIndexOf(index).mark(query);
  // A word no document holds is rare: it weighs like the rarest document word (as in soft matching).
  const rare = Math.log(1 + (index.size + 0.5) / 0.5);
  const weights = idf.map((x) => (x > 0 ? x : rare));
  const weightTotal = weights.reduce((a, c) => a + c, 0) || 1;
  const coreAverage = coreF.reduce((a, f) => a + index.averages[f], 0) || 1;
  const generated = generatedOf(index);
  return candidates.map(({ doc, score }, rank) => {
    const fields = new Float64Array(fieldCount);
    const fieldIdf = new Float64Array(fieldCount);
    const tfs = new Float64Array(query.length);
    const coreTfs = new Float64Array(query.length);
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
        fieldIdf[f] += idf[q];
        if (f !== expansionF) tfAll += tf; // the whole document is the schema's text
        if (coreF.includes(f)) coreTfs[q] += tf;
        const avg = index.averages[f] || 1;
        const norm = tf / (1 - FIELD_B + (FIELD_B * index.lengths[f][doc]) / avg);
        fields[f] += (idf[q] * norm * (FIELD_K1 + 1)) / (norm + FIELD_K1);
      }
      tfs[q] = tfAll;
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
    i += SOFT_FEATURES.length;
    for (const f of coverF) row[i++] = fieldIdf[f] / idfTotal;
    let coreLength = 0;
    for (const f of coreF) coreLength += index.lengths[f][doc];
    row[i++] = lm.logLikelihoodRatio(numbers, tfs, wholeLength, wholeAverage, "whole");
    row[i++] = lm.logLikelihoodRatio(numbers, coreTfs, coreLength, coreAverage, "core");
    row[i++] = bigramShare(index, pairs, doc);
    // Query terms said exactly (in the schema) or by a prefix relative, weighted like soft matching's.
    const prefixBits = prefixOf(doc);
    let said = 0;
    let byPrefix = 0;
    query.forEach((_term, q) => {
      const exact = tfs[q] > 0;
      const relative = q < 31 && (prefixBits & (1 << q)) !== 0;
      if (exact || relative) said += weights[q];
      if (!exact && relative) byPrefix += weights[q];
    });
    row[i++] = said / weightTotal;
    row[i++] = byPrefix / weightTotal;
    row[i++] = Math.log1p(query.length);
    if (generated !== undefined) row.set(generated.features(query, weights, doc), i);
    return row;
  });
}
