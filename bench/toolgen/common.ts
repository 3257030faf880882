import { join, resolve } from "node:path";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import type { CatalogEntry, LabelledQuery } from "../../src/catalog/catalog.ts";
import { summarize, flatFigures, type QueryOutcome } from "../../src/eval/retrieval.ts";
import { trainToolGen, type ToolGenTrainOptions } from "../../src/train/pipeline.ts";
import { readyManifest } from "./provenance.ts";

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

/**
 * Model folders trained elsewhere, by plan: TOOLGEN_BENCH_MODELS="metatool/tiny-preset=DIR,stabletoolbench/…=DIR"
 * (e.g. the folders `toolgen train --preset tiny` wrote). Such a folder is only read: it must be finished, and
 * its fingerprint (data, options) must be the one the bench computes for the plan, else the bench stops.
 */
export function modelDirOverrides(spec = process.env.TOOLGEN_BENCH_MODELS ?? ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of spec.split(",").filter((p) => p.trim() !== "")) {
    const eq = part.indexOf("=");
    const key = part.slice(0, eq).trim();
    if (eq < 0 || !/^(metatool|stabletoolbench)\/[^/]+$/.test(key) || part.slice(eq + 1).trim() === "")
      throw new Error(`TOOLGEN_BENCH_MODELS expects GROUP/PLAN=DIR pairs, comma-separated; got "${part}"`);
    out.set(key, resolve(part.slice(eq + 1).trim()));
  }
  return out;
}

/** Where a plan's model is: its TOOLGEN_BENCH_MODELS folder, else WORK/GROUP/PLAN. */
export function modelDir(group: string, plan: string): { out: string; external: boolean } {
  const external = modelDirOverrides().get(`${group}/${plan}`);
  return external ? { out: external, external: true } : { out: join(WORK, group, plan), external: false };
}

/**
 * Trains (or resumes) a variant into its model folder; returns the training manifest. A finished folder with the
 * same fingerprint is only read (trainToolGen checks the fingerprint, loads the model and skips every stage); a
 * folder given in TOOLGEN_BENCH_MODELS must be finished, so the bench never trains into someone else's folder.
 */
export async function trainVariant(
  group: string,
  variant: Variant,
  catalog: readonly CatalogEntry[],
  queries: readonly LabelledQuery[],
) {
  const { out, external } = modelDir(group, variant.name);
  const stages = variant.options.stages ?? ["memorization", "retrieval"];
  if (external && !readyManifest(out, stages))
    throw new Error(
      `TOOLGEN_BENCH_MODELS: ${out} is not a finished ToolGen training run (${stages.join(", ")})`,
    );
  const t = performance.now();
  const manifest = await trainToolGen({
    ...variant.options,
    catalog,
    queries,
    out,
    log: (l) => process.stderr.write(`[${variant.name}] ${l}\n`),
  }).catch((error: unknown) => {
    if (!external) throw error;
    throw new Error(
      `TOOLGEN_BENCH_MODELS: ${out} is not this plan's model (${(error as Error).message}); train it with ` +
        `the bench's data and options (${group}/${variant.name})`,
      { cause: error },
    );
  });
  return { out, manifest, wallSeconds: (performance.now() - t) / 1000 };
}
