import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { CatalogEntry } from "../catalog/catalog.ts";
import { Bm25fRetriever, FieldIndex, type Bm25fParams } from "./bm25f.ts";
import { FEATURE_NUMBER, RANKER_FEATURES, rankerFeatures, type Candidate } from "./ranker-features.ts";
import { SoftIndex } from "./soft-match.ts";
import type { TermAssociations } from "./term-associations.ts";
import { readWordVectors, type WordVectors, type WordVectorsFile } from "./word-vectors.ts";
import type { RetrievalHit, Retriever, SearchOptions } from "./retriever.ts";
import { ToolgenError } from "../errors.ts";

/**
 * A small scoring model over some of `RANKER_FEATURES` (those `features` names, in that order): standardise, then a linear layer, or a tanh hidden layer and a
 * linear output. Its file (ranker-weights.json, a few kilobytes) ships with the package; `bench/train-ranker.ts`
 * rebuilds it and records how in `header`.
 */
export interface RankerModel {
  header: Record<string, unknown>;
  features: string[];
  /** How many first-stage (BM25F) hits are re-scored. */
  candidates: number;
  /** How many more candidates come from the word vectors (the documents nearest the query; 0 or absent: none). */
  dense?: number;
  bm25f: Bm25fParams;
  mean: number[];
  scale: number[];
  hidden?: { weights: number[][]; bias: number[] };
  weights: number[];
  bias: number;
  /**
   * "both": the inputs are the features, then each feature standardised over the query's candidates
   * (`queryStandardised`), so a weight reads where a tool stands among this query's candidates whatever the
   * catalog's scale; `mean` and `scale` then hold twice as many numbers. Absent: the features alone.
   */
  normalize?: "both";
  /**
   * A feature (one of `RANKER_FEATURES`, e.g. the query's length) that the inputs are also multiplied by: after the
   * inputs above come the model's features times its value, so one linear model weighs the features differently
   * for short and long queries. Absent: no such inputs.
   */
  interact?: string;
  /**
   * Further models over the same standardised inputs (the same architecture, trained from other seeds); the score
   * is the mean of this model's and theirs, which evens out where one seed's tanh units happened to land. Absent:
   * this model alone.
   */
  members?: RankerMember[];
}

/** One further model of an ensemble: its layers only (it shares the features, `mean` and `scale`). */
export interface RankerMember {
  hidden?: { weights: number[][]; bias: number[] };
  weights: number[];
  bias: number;
}

/** How many inputs a model reads: its features, their query-standardised copies, their products with `interact`. */
export function inputWidth(model: Pick<RankerModel, "features" | "normalize" | "interact">): number {
  const d = model.features?.length ?? 0;
  return d * (1 + (model.normalize === "both" ? 1 : 0) + (model.interact !== undefined ? 1 : 0));
}

/**
 * Each column of a query's candidate rows standardised over those candidates (0 where a column does not vary):
 * the learnt weights then read a candidate's place among the query's candidates, not the catalog's scale.
 */
export function queryStandardised(rows: readonly ArrayLike<number>[], at: readonly number[]): Float64Array[] {
  const n = rows.length;
  const out = rows.map(() => new Float64Array(at.length));
  at.forEach((column, i) => {
    let mean = 0;
    for (const r of rows) mean += r[column];
    mean /= Math.max(1, n);
    let variance = 0;
    for (const r of rows) variance += (r[column] - mean) ** 2;
    const sd = Math.sqrt(variance / Math.max(1, n));
    rows.forEach((r, c) => (out[c][i] = sd > 1e-12 ? (r[column] - mean) / sd : 0));
  });
  return out;
}

/**
 * The model's inputs for a query's candidate rows: the model's features, then (as the model asks) their
 * query-standardised copies and their products with the `interact` feature.
 */
export function rankerInputs(
  model: Pick<RankerModel, "features" | "normalize" | "interact">,
  rows: readonly ArrayLike<number>[],
): Float64Array[] {
  const at = model.features.map((f) => FEATURE_NUMBER.get(f) ?? -1);
  const relative = model.normalize === "both" ? queryStandardised(rows, at) : undefined;
  const by = model.interact === undefined ? -1 : (FEATURE_NUMBER.get(model.interact) ?? -1);
  const width = inputWidth(model);
  return rows.map((row, c) => {
    const x = new Float64Array(width);
    at.forEach((column, i) => (x[i] = row[column]));
    let next = at.length;
    if (relative) {
      x.set(relative[c], next);
      next += at.length;
    }
    if (by >= 0) at.forEach((column, i) => (x[next + i] = row[column] * row[by]));
    return x;
  });
}

/** The model's score of one row of `rankerInputs` (higher is better). */
export function rankerScore(model: RankerModel, input: ArrayLike<number>): number {
  const x = model.mean.map((m, i) => (input[i] - m) / model.scale[i]);
  const members = model.members ?? [];
  let sum = memberScore(model, x);
  for (const member of members) sum += memberScore(member, x);
  return sum / (1 + members.length);
}

function memberScore(member: RankerMember, x: readonly number[]): number {
  const layer = member.hidden
    ? member.hidden.weights.map((w, j) => Math.tanh(dot(w, x) + member.hidden!.bias[j]))
    : x;
  return dot(member.weights, layer) + member.bias;
}

function dot(a: readonly number[], b: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/** Refuses a file that reads a feature this build lacks (a model over other features would score nonsense). */
export function checkRankerModel(model: RankerModel, where: string): RankerModel {
  const expected = RANKER_FEATURES.join(",");
  const width = inputWidth(model);
  const inputs = model.hidden ? model.hidden.weights.length : width;
  const memberFits = (m: RankerMember): boolean =>
    (m.hidden ? m.hidden.weights.length : width) === m.weights?.length &&
    (m.hidden?.weights.every((w) => w.length === width) ?? true);
  if (
    !Array.isArray(model.features) ||
    model.features.length === 0 ||
    !model.features.every((f) => FEATURE_NUMBER.has(f)) ||
    (model.normalize !== undefined && model.normalize !== "both") ||
    (model.interact !== undefined && !FEATURE_NUMBER.has(model.interact)) ||
    model.mean?.length !== width ||
    model.scale?.length !== width ||
    model.weights?.length !== inputs ||
    (model.members !== undefined && !(Array.isArray(model.members) && model.members.every(memberFits))) ||
    !(model.candidates >= 1)
  )
    throw new ToolgenError(
      "invalid_input",
      `${where}: not a ranker model over this version's features (a subset of ${expected})`,
    );
  return model;
}

export const RANKER_WEIGHTS_FILE = "ranker-weights.json";
export const RANKER_ASSOCIATIONS_FILE = "ranker-associations.json";
export const RANKER_VECTORS_FILE = "ranker-vectors.json";

/**
 * A shipped file, read next to this module (src/retrieval, or dist/retrieval when built), else from the package's
 * src/retrieval (the built package ships src/ too; the build copies no JSON).
 */
function readShipped(name: string): { file: string; data: unknown } {
  const places = [
    new URL(`./${name}`, import.meta.url),
    new URL(`../../src/retrieval/${name}`, import.meta.url),
  ];
  const file = places.map((u) => fileURLToPath(u)).find((p) => existsSync(p));
  if (file === undefined)
    throw new ToolgenError("invalid_input", `the ranker's ${name} is missing from the package`);
  return { file, data: JSON.parse(readFileSync(file, "utf8")) };
}

export interface ShippedRanker {
  model: RankerModel;
  associations: TermAssociations;
  vectors: WordVectors;
}

let shipped: ShippedRanker | undefined;

/**
 * The shipped ranker: its weights, the term associations its first stage expands documents with, and the word
 * vectors of its soft-match features.
 */
export function shippedRanker(): ShippedRanker {
  if (shipped) return shipped;
  const weights = readShipped(RANKER_WEIGHTS_FILE);
  const associations = readShipped(RANKER_ASSOCIATIONS_FILE).data as TermAssociations;
  if (typeof associations?.table !== "object" || associations.table === null)
    throw new ToolgenError("invalid_input", `${RANKER_ASSOCIATIONS_FILE}: no association table`);
  const vectorsFile = readShipped(RANKER_VECTORS_FILE).data as WordVectorsFile;
  if (!Array.isArray(vectorsFile?.words) || typeof vectorsFile.int8 !== "string" || !(vectorsFile.dims > 0))
    throw new ToolgenError("invalid_input", `${RANKER_VECTORS_FILE}: not a word-vector file`);
  shipped = {
    model: checkRankerModel(weights.data as RankerModel, weights.file),
    associations,
    vectors: readWordVectors(vectorsFile),
  };
  return shipped;
}

const softIndexes = new WeakMap<FieldIndex, WeakMap<WordVectors, SoftIndex>>();

/** The soft-match index of a field index under some vectors, built once (the bench scores many models on one). */
export function softIndexOf(index: FieldIndex, vectors: WordVectors): SoftIndex {
  let byVectors = softIndexes.get(index);
  if (byVectors === undefined) softIndexes.set(index, (byVectors = new WeakMap()));
  let soft = byVectors.get(vectors);
  if (soft === undefined) byVectors.set(vectors, (soft = new SoftIndex(index, vectors)));
  return soft;
}

/**
 * The candidates a model re-scores: BM25F's best hits (`head`), then up to `dense` more that the word vectors
 * place nearest the query (first-stage score 0), so a tool that shares no word with the query can be reached.
 */
export function withDenseCandidates(
  head: readonly Candidate[],
  soft: SoftIndex | undefined,
  terms: readonly string[],
  dense: number,
): Candidate[] {
  const out = [...head];
  if (soft === undefined || dense <= 0) return out;
  const have = new Set(head.map((h) => h.doc));
  for (const { doc } of soft.nearest(terms, dense)) if (!have.has(doc)) out.push({ doc, score: 0 });
  return out;
}

/**
 * BM25F's best `candidates` hits re-ordered by the ranker's score; hits past them keep BM25F's order below. Ties
 * keep the first-stage order. Tools that no training query named are ranked by the same features as any other.
 */
export class RankerRetriever implements Retriever {
  readonly name = "ranker";
  readonly first: Bm25fRetriever;
  readonly model: RankerModel;
  /** The soft-match index (undefined without word vectors: its features are 0 and no dense candidates come). */
  readonly soft: SoftIndex | undefined;

  /**
   * Over a catalog (its documents expanded with `associations`, the shipped ones by default) or over a prepared
   * FieldIndex (the bench reuses one across configurations). A given model uses the given `vectors` only.
   */
  constructor(
    entries: readonly CatalogEntry[] | FieldIndex,
    model?: RankerModel,
    associations?: TermAssociations,
    vectors?: WordVectors,
  ) {
    const ranker = model === undefined ? shippedRanker() : { model, associations, vectors };
    this.model = ranker.model;
    const index =
      entries instanceof FieldIndex
        ? entries
        : new FieldIndex(entries, { associations: associations ?? ranker.associations });
    this.first = new Bm25fRetriever(index, this.model.bm25f);
    this.soft = ranker.vectors === undefined ? undefined : softIndexOf(index, ranker.vectors);
  }

  get size(): number {
    return this.first.size;
  }

  searchSync(query: string, options: SearchOptions = {}): RetrievalHit[] {
    const k = Math.max(0, Math.floor(options.k ?? 10));
    const { index } = this.first;
    const terms = index.queryTerms(query);
    const { candidates } = this.model;
    const hits = this.first.searchDocs(terms, Math.max(k, candidates));
    const head = withDenseCandidates(hits.slice(0, candidates), this.soft, terms, this.model.dense ?? 0);
    const inputs = rankerInputs(this.model, rankerFeatures(index, terms, head, this.soft));
    const rescored = head
      .map((hit, rank) => ({ doc: hit.doc, score: rankerScore(this.model, inputs[rank]), rank }))
      .sort((a, c) => c.score - a.score || a.rank - c.rank);
    // Hits past the re-scored head stay below it: their score is the lowest head score minus their BM25F gap.
    const floor = rescored.length > 0 ? rescored[rescored.length - 1].score : 0;
    const inHead = new Set(head.map((h) => h.doc));
    const tail = hits
      .slice(candidates)
      .filter((h) => !inHead.has(h.doc))
      .map((h, i) => ({ doc: h.doc, score: floor - 1 - i }));
    return [...rescored, ...tail].slice(0, k).map(({ doc, score }) => ({ id: index.ids[doc], score }));
  }

  async search(query: string, options?: SearchOptions): Promise<RetrievalHit[]> {
    return this.searchSync(query, options);
  }
}
