import type { CatalogEntry, LabelledQuery } from "../../src/catalog/catalog.ts";
import { evaluateRetrieval, flatFigures } from "../../src/eval/retrieval.ts";
import { createRetriever } from "../../src/retrieval/create.ts";
import { KS, type Figures } from "./common.ts";

/**
 * A model scored the way `toolgen eval retrieval --catalog C --queries TEST --retriever toolgen --model DIR
 * --json` scores it (createRetriever, then evaluateRetrieval one query at a time, depth 5), next to the bench's
 * own batched decoding: the two must agree, so the figure a user reproduces with the CLI is the one reported.
 * Latency is left out (it depends on the machine's load).
 */
export async function cliPathFigures(
  catalog: readonly CatalogEntry[],
  queries: readonly LabelledQuery[],
  model: string,
  batched: Figures,
): Promise<Record<string, unknown>> {
  const retriever = await createRetriever("toolgen", { catalog, model });
  const report = await evaluateRetrieval(retriever, queries, { ks: KS });
  const { p50_ms: _p50, p95_ms: _p95, ...figures } = flatFigures(report.overall, KS);
  const compared = Object.keys(batched).filter((k) => k in figures);
  const differing = compared.filter((k) => figures[k] !== batched[k]);
  return {
    command: "toolgen eval retrieval --catalog CATALOG --queries TEST --retriever toolgen --model DIR --json",
    figures,
    agrees_with_batched: differing.length === 0,
    ...(differing.length > 0 ? { differing: differing } : {}),
  };
}
