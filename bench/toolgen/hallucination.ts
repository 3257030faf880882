import type { LabelledQuery } from "../../src/catalog/catalog.ts";
import { openRetriever } from "./common.ts";

/**
 * Hallucination (paper §5.4): how often the model writes an id that is not in the catalog. Each dev query is one
 * greedy generation of an id after the query (the same decoding step as the agent's action turn), once over the
 * whole vocabulary and once restricted by the trie; the constrained count must be exactly 0.
 */
export async function runHallucination(
  models: ReadonlyArray<{ name: string; out: string }>,
  queries: readonly LabelledQuery[],
  n = 1000,
): Promise<Record<string, unknown>> {
  const sample = queries.slice(0, n);
  const results: Record<string, unknown> = {};
  for (const { name, out } of models) {
    const free = openRetriever(out, false, 1);
    const held = openRetriever(out, true, 1);
    const valid = new Set(Object.keys(held.index.texts));
    let constrainedInvalid = 0;
    let constrainedCorrect = 0;
    let freeCorrect = 0;
    const t = performance.now();
    for (const q of sample) {
      const [top] = await held.search(q.query, { k: 1 });
      if (!top || !valid.has(top.id)) constrainedInvalid++;
      else if (q.relevant.includes(top.id)) constrainedCorrect++;
      const [freeTop] = await free.search(q.query, { k: 1 });
      if (freeTop && q.relevant.includes(freeTop.id)) freeCorrect++;
    }
    const pct = (x: number) => Math.round((10000 * x) / sample.length) / 100;
    results[name] = {
      generations: sample.length,
      unconstrained_invalid: free.hallucinations.invalid,
      unconstrained_invalid_pct: pct(free.hallucinations.invalid),
      constrained_invalid: constrainedInvalid,
      unconstrained_top1_correct_pct: pct(freeCorrect),
      constrained_top1_correct_pct: pct(constrainedCorrect),
      seconds: Math.round((performance.now() - t) / 100) / 10,
    };
    process.stderr.write(`hallucination ${name}: ${JSON.stringify(results[name])}\n`);
  }
  return results;
}
