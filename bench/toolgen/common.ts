import { join, resolve } from "node:path";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import type { CatalogEntry, LabelledQuery } from "../../src/catalog/catalog.ts";
import { summarize, flatFigures, type QueryOutcome } from "../../src/eval/retrieval.ts";
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
