import type { CatalogEntry, LabelledQuery } from "../catalog/catalog.ts";
import { chooseGateByParts, writeGate, type GateOptions } from "../retrieval/hybrid-gate.ts";
import type { RetrievalHit } from "../retrieval/retriever.ts";
import { RankerRetriever } from "../retrieval/ranker.ts";
import { openToolGenRetriever } from "../retrieval/toolgen-open.ts";
import type { GateReport } from "../toolgen/model-folder.ts";

/** How deep each part's ranking is read for the fusion (as `GatedHybridRetriever` reads it). */
const DEPTH = 100;

/**
 * Standard NDCG@k with binary relevance (the eval layer's `ndcgAtK`, which training may not import): the ideal
 * ranks every relevant id first; an id listed twice counts once.
 */
export function ndcgAt(ranked: readonly string[], relevant: readonly string[], k: number): number {
  const set = new Set(relevant);
  const seen = new Set<string>();
  let dcg = 0;
  ranked.slice(0, k).forEach((id, i) => {
    if (set.has(id) && !seen.has(id)) dcg += 1 / Math.log2(i + 2);
    seen.add(id);
  });
  let ideal = 0;
  for (let i = 0; i < Math.min(k, set.size); i++) ideal += 1 / Math.log2(i + 2);
  return ideal === 0 ? 0 : dcg / ideal;
}

/**
 * After training: the hybrid's gate chosen on the dev queries the run held out (`dev-split.ts`), written to the
 * model folder (`toolgen-gate.json`), where `--retriever hybrid` reads it. The lexical part is the default
 * retriever (the shipped ranker): on tools no training query named it is the stronger one (MetaTool split by tool,
 * dev NDCG@5 57.45 vs BM25's 44.08), and those are the queries where the hybrid must lean on it. The grid holds
 * "ToolGen alone" and "the ranker alone"; with both dev parts the gate maximises the worst part's ratio to its
 * better plain retriever (`chooseGateByParts`), with one part (every tool has queries) it is `chooseGate`'s.
 * `queried` (the tools the retrieval stage trained on queries for) is written beside the gate, and every gate is
 * scored as the hybrid then runs it: the other tools keep the ranker's ranks (`pinUnqueried`), so on queries about
 * them the hybrid is never below the ranker, whatever the gate.
 */
export async function chooseModelGate(
  dir: string,
  catalog: readonly CatalogEntry[],
  dev: { seen: readonly LabelledQuery[]; unseen: readonly LabelledQuery[] },
  k: number,
  queried?: ReadonlySet<string>,
): Promise<GateReport> {
  const queries = [...dev.seen, ...dev.unseen];
  const part = [...dev.seen.map(() => "seen"), ...dev.unseen.map(() => "unseen")];
  const toolgen = openToolGenRetriever(dir, catalog);
  const texts = queries.map((q) => q.query);
  const tg: RetrievalHit[][] = await toolgen.searchMany(texts, { k: DEPTH });
  const ranker = new RankerRetriever(catalog);
  const lexical: RetrievalHit[][] = texts.map((q) => ranker.searchSync(q, { k: DEPTH }));
  const choice = chooseGateByParts(
    tg,
    lexical,
    (ranked, i) => ndcgAt(ranked, queries[i]!.relevant, k),
    part,
    { k, ...(queried ? { queried } : {}) },
  );
  const gate: GateOptions = { ...choice.gate, lexical: "ranker" };
  const report: GateReport = {
    metric: `ndcg@${k}`,
    gate: { ...gate, threshold: jsonNumber(gate.threshold) },
    parts: choice.parts.map((p) => ({
      ...p,
      toolgen: round(p.toolgen),
      lexical: round(p.lexical),
      chosen: round(p.chosen),
    })),
    tried: choice.tried.length,
    ...(queried ? { queried: catalog.filter((e) => queried.has(e.id)).length } : {}),
  };
  writeGate(dir, gate, "toolgen train: the dev queries it held out of training (toolgen.json: dev)", {
    metric: report.metric,
    dev: report.parts,
    // catalog order, so the same training writes the same file
    ...(queried ? { queried: catalog.map((e) => e.id).filter((id) => queried.has(id)) } : {}),
  });
  return report;
}

/**
 * The tools the retrieval stage trained ToolGen to name: the labels of its training queries that the model has an
 * id for (the same pairs as data/retrieval.jsonl; labels outside the catalog are skipped there or refused).
 */
export function queriedTools(queries: readonly LabelledQuery[], ids: ReadonlySet<string>): Set<string> {
  return new Set(queries.flatMap((q) => q.relevant).filter((id) => ids.has(id)));
}

const round = (x: number) => Math.round(x * 1e4) / 1e4;
/** ±∞ (always / never ToolGen) as strings: JSON has no infinity. */
const jsonNumber = (x: number): number | string => (Number.isFinite(x) ? x : String(x));
