/**
 * StableToolBench's G1 queries as unlabelled questions for the caller's pseudo-labels (src/train/pseudo-labels.ts):
 * each query offered exactly its relevant APIs, as the caller's functions. G1 only: G2 (instruction, category) is
 * the retrieval test set of bench/toolgen/plans.ts and bench/lib/tool-disjoint.ts and stays out of training. The
 * queries are split by the parity of their query_id (each file numbers its own): `even` for training, `odd` held out
 * to look at the labels a choice makes.
 */
import { join } from "node:path";
import { loadCatalog, loadQueries } from "../src/catalog/load.ts";
import { entryToolJson } from "../src/train/caller-data.ts";
import type { UnlabelledQuestion } from "../src/train/pseudo-labels.ts";

export const G1_FILES = ["G1_instruction", "G1_category", "G1_tool"];

export function stbUnlabelled(dir: string, split: "even" | "odd" | "all"): UnlabelledQuestion[] {
  const catalog = loadCatalog(join(dir, "apis.json"));
  const byId = new Map(catalog.map((e) => [e.id, e]));
  const out: UnlabelledQuestion[] = [];
  for (const file of G1_FILES)
    for (const q of loadQueries(join(dir, `${file}.json`), catalog)) {
      const n = Number(q.id);
      if (split !== "all" && (!Number.isInteger(n) || n % 2 !== (split === "even" ? 0 : 1))) continue;
      const entries = q.relevant.map((id) => byId.get(id));
      if (entries.length === 0 || entries.some((e) => e === undefined)) continue;
      const tools = entries.map((e) => entryToolJson(e!));
      if (new Set(tools.map((t) => t.function.name)).size !== tools.length) continue;
      out.push({ id: `${file}/${q.id}`, question: q.query, tools });
    }
  return out;
}
