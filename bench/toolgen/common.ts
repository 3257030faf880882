import { join, resolve } from "node:path";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import type { CatalogEntry, LabelledQuery } from "../../src/catalog/catalog.ts";
import { summarize, flatFigures, type QueryOutcome } from "../../src/eval/retrieval.ts";
import { quantile } from "../../src/eval/metrics.ts";
import type { Retriever } from "../../src/retrieval/retriever.ts";
import type { GenerativeRetriever } from "../../src/retrieval/generative.ts";
import { openToolGenRetriever } from "../../src/retrieval/toolgen-open.ts";
import { trainToolGen, type ToolGenTrainOptions } from "../../src/train/pipeline.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
/** Trained models are kept here between runs (the pipeline resumes, so a rerun only evaluates). */
export const WORK = process.env.TOOLGEN_BENCH_WORK ?? join(ROOT, ".cache", "toolgen-bench");
export const KS = [1, 3, 5];

export type Figures = Record<string, number>;

/** Figures for rankings computed in bulk (the CLI contract's keys; latency is measured separately). */
export function figuresOf(queries: readonly LabelledQuery[], rankings: readonly string[][]): Figures {
  const outcomes: QueryOutcome[] = queries.map((query, i) => ({ query, ranked: rankings[i]!, ms: 0 }));
  const { p50_ms: _p50, p95_ms: _p95, ...rest } = flatFigures(summarize(outcomes, KS), KS);
  return rest;
}

/** Per-query latency of single searches over the first `n` queries, in ms. */
export async function latency(
  retriever: Retriever,
  queries: readonly LabelledQuery[],
  n = 200,
): Promise<Figures> {
  const ms: number[] = [];
  for (const q of queries.slice(0, n)) {
    const t = performance.now();
    await retriever.search(q.query, { k: 5 });
    ms.push(performance.now() - t);
  }
  const r = (x: number) => Math.round(x * 100) / 100;
  return { latency_queries: ms.length, p50_ms: r(quantile(ms, 0.5)), p95_ms: r(quantile(ms, 0.95)) };
}

export async function evaluateRetriever(
  retriever: Retriever,
  queries: readonly LabelledQuery[],
): Promise<Figures> {
  const rankings: string[][] = [];
  for (const q of queries) rankings.push((await retriever.search(q.query, { k: 5 })).map((h) => h.id));
  return figuresOf(queries, rankings);
}

export interface Variant {
  name: string;
  options: Omit<ToolGenTrainOptions, "out" | "catalog" | "queries">;
}

/** Trains (or resumes) a variant into WORK/name; returns the training manifest. */
export async function trainVariant(
  group: string,
  variant: Variant,
  catalog: readonly CatalogEntry[],
  queries: readonly LabelledQuery[],
) {
  const out = join(WORK, group, variant.name);
  const t = performance.now();
  const manifest = await trainToolGen({
    ...variant.options,
    catalog,
    queries,
    out,
    log: (l) => process.stderr.write(`[${variant.name}] ${l}\n`),
  });
  return { out, manifest, wallSeconds: (performance.now() - t) / 1000 };
}

/** Opens a trained folder as a retriever (batched scoring for atomic ids). */
export function openRetriever(out: string, constrained = true, beams = 5): GenerativeRetriever {
  return openToolGenRetriever(out, undefined, { constrained, beams });
}

/** Rankings of a generative retriever in bulk (batched for atomic ids). */
export async function rankAll(
  retriever: GenerativeRetriever,
  queries: readonly LabelledQuery[],
  k = 5,
): Promise<string[][]> {
  const hits = await retriever.searchMany(
    queries.map((q) => q.query),
    { k },
  );
  return hits.map((h) => h.map((x) => x.id));
}
