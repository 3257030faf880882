import type { LabelledQuery } from "../catalog/catalog.ts";
import type { Retriever } from "../retrieval/retriever.ts";
import {
  duplicateCount,
  mean,
  ndcgAtK,
  ndcgToolGenAtK,
  quantile,
  recallAtK,
  reciprocalRank,
} from "./metrics.ts";
import { ToolgenError } from "../errors.ts";

export interface RetrievalEvalOptions {
  /** Cut-offs for NDCG and recall. Default [1, 3, 5]. */
  ks?: number[];
  /** How many hits to retrieve per query (the list MRR and ToolGen's NDCG see). Default max(ks, 5). */
  depth?: number;
  /** Called after each query (progress bars). */
  onProgress?: (done: number, total: number) => void;
}

/** Figures in the CLI contract's units: NDCG and recall in percent (0–100), MRR as a fraction, latency in ms. */
export interface RetrievalFigures {
  /** Queries in the means: those with at least one relevant id. */
  queries: number;
  /** Queries left out of the means because their relevant list is empty. */
  excludedNoRelevant: number;
  /** Repeated ids in the ranked lists (a retriever defect; each id counts once in the metrics). */
  duplicateHits: number;
  ndcg: Record<number, number>;
  ndcgToolGen: Record<number, number>;
  recall: Record<number, number>;
  mrr: number;
  p50Ms: number;
  p95Ms: number;
}

export interface QueryOutcome {
  query: LabelledQuery;
  ranked: string[];
  ms: number;
}

export interface RetrievalReport {
  retriever: string;
  ks: number[];
  depth: number;
  overall: RetrievalFigures;
  /** Per query file (`LabelledQuery.source`). */
  bySource: Record<string, RetrievalFigures>;
}

const round = (x: number, digits: number): number => Math.round(x * 10 ** digits) / 10 ** digits;

/**
 * Aggregates per-query outcomes into figures. Queries without a relevant id are left out of the means (and
 * counted); latency is over every query run.
 */
export function summarize(outcomes: readonly QueryOutcome[], ks: readonly number[]): RetrievalFigures {
  const scored = outcomes.filter((o) => o.query.relevant.length > 0);
  const percent = (f: (o: QueryOutcome) => number): number => round(100 * mean(scored.map(f)), 2);
  const perK = (metric: (r: string[], rel: string[], k: number) => number): Record<number, number> =>
    Object.fromEntries(ks.map((k) => [k, percent((o) => metric(o.ranked, o.query.relevant, k))]));
  const ms = outcomes.map((o) => o.ms);
  return {
    queries: scored.length,
    excludedNoRelevant: outcomes.length - scored.length,
    duplicateHits: outcomes.reduce((n, o) => n + duplicateCount(o.ranked), 0),
    ndcg: perK(ndcgAtK),
    ndcgToolGen: perK(ndcgToolGenAtK),
    recall: perK(recallAtK),
    mrr: round(mean(scored.map((o) => reciprocalRank(o.ranked, o.query.relevant))), 4),
    p50Ms: round(quantile(ms, 0.5), 4),
    p95Ms: round(quantile(ms, 0.95), 4),
  };
}

/** Runs every query through the retriever and reports the metrics overall and per query file. */
export async function evaluateRetrieval(
  retriever: Retriever,
  queries: readonly LabelledQuery[],
  options: RetrievalEvalOptions = {},
): Promise<RetrievalReport> {
  const ks = options.ks ?? [1, 3, 5];
  if (ks.length === 0 || !ks.every((k) => Number.isInteger(k) && k > 0)) {
    throw new ToolgenError("invalid_option", `k values must be positive integers, got ${ks.join(",")}`);
  }
  const depth = options.depth ?? Math.max(5, ...ks);
  const outcomes: QueryOutcome[] = [];
  for (const query of queries) {
    const start = performance.now();
    const hits = await retriever.search(query.query, { k: depth });
    const ms = performance.now() - start;
    outcomes.push({ query, ranked: hits.map((h) => h.id), ms });
    options.onProgress?.(outcomes.length, queries.length);
  }
  const sources = [...new Set(outcomes.map((o) => o.query.source ?? "queries"))];
  const bySource = Object.fromEntries(
    sources.map((s) => [
      s,
      summarize(
        outcomes.filter((o) => (o.query.source ?? "queries") === s),
        ks,
      ),
    ]),
  );
  return { retriever: retriever.name, ks, depth, overall: summarize(outcomes, ks), bySource };
}

/**
 * The flat JSON object `toolgen eval retrieval --json` prints: `ndcg@k`, `ndcg_toolgen@k`, `recall@k`, `mrr`, p50/p95; then
 * `excluded_no_relevant` (queries left out of the means) and `duplicate_hits` (repeated ids, a retriever defect).
 */
export function flatFigures(figures: RetrievalFigures, ks: readonly number[]): Record<string, number> {
  const out: Record<string, number> = { queries: figures.queries };
  for (const k of ks) out[`ndcg@${k}`] = figures.ndcg[k];
  for (const k of ks) out[`ndcg_toolgen@${k}`] = figures.ndcgToolGen[k];
  for (const k of ks) out[`recall@${k}`] = figures.recall[k];
  out.mrr = figures.mrr;
  out.p50_ms = figures.p50Ms;
  out.p95_ms = figures.p95Ms;
  out.excluded_no_relevant = figures.excludedNoRelevant;
  out.duplicate_hits = figures.duplicateHits;
  return out;
}

/** `{"retriever", "queries", "ndcg@1", …, "p95_ms", "by_source": {file: {...}}}`. */
export function reportJson(report: RetrievalReport): Record<string, unknown> {
  return {
    retriever: report.retriever,
    ...flatFigures(report.overall, report.ks),
    depth: report.depth,
    by_source: Object.fromEntries(
      Object.entries(report.bySource).map(([s, f]) => [s, flatFigures(f, report.ks)]),
    ),
  };
}

/** The counts a reader must see under the table when they are not zero. */
function notes(f: RetrievalFigures): string[] {
  const out: string[] = [];
  if (f.excludedNoRelevant > 0)
    out.push(`${f.excludedNoRelevant} queries with no relevant id are left out of the figures.`, "");
  if (f.duplicateHits > 0)
    out.push(
      `The retriever returned ${f.duplicateHits} repeated ids (a defect; each id counts once, at its first rank).`,
      "",
    );
  return out;
}

/** A Markdown table: one row per query file plus the overall row. */
export function reportMarkdown(report: RetrievalReport, title = "Retrieval evaluation"): string {
  const cols = [
    ...report.ks.map((k) => `NDCG@${k}`),
    ...report.ks.map((k) => `NDCG_tg@${k}`),
    ...report.ks.map((k) => `R@${k}`),
    "MRR",
    "p50 ms",
    "p95 ms",
  ];
  const row = (name: string, f: RetrievalFigures): string =>
    `| ${name} | ${f.queries} | ` +
    [
      ...report.ks.map((k) => f.ndcg[k].toFixed(1)),
      ...report.ks.map((k) => f.ndcgToolGen[k].toFixed(1)),
      ...report.ks.map((k) => f.recall[k].toFixed(1)),
      f.mrr.toFixed(3),
      f.p50Ms.toFixed(3),
      f.p95Ms.toFixed(3),
    ].join(" | ") +
    " |";
  return [
    `# ${title}`,
    "",
    `Retriever: ${report.retriever}; depth ${report.depth}; NDCG and recall in percent, standard and ToolGen-compatible (tg).`,
    "",
    `| queries file | n | ${cols.join(" | ")} |`,
    `|---|---|${cols.map(() => "---").join("|")}|`,
    ...Object.entries(report.bySource).map(([s, f]) => row(s, f)),
    row("**all**", report.overall),
    "",
    ...notes(report.overall),
  ].join("\n");
}
