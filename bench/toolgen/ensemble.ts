import type { RetrievalHit } from "../../src/retrieval/retriever.ts";

/**
 * Seed ensembles measured beside the single models: the plans in each entry, evaluated in the same run, with
 * their tool-token log-probabilities averaged. Not a product configuration (two models cost twice the training
 * and the inference); it says how much of the gap between one tiny model and the regression is run-to-run
 * variance.
 */
export const ENSEMBLES: ReadonlyArray<readonly string[]> = [["tiny-v8192", "tiny-v8192-seed1"]];

/** The name an ensemble's system has in the paired table. */
export function ensembleName(members: readonly string[]): string {
  return `toolgen_ensemble_${members.join("+")}`;
}

/**
 * Each member's scores (atomic ids: logits of the tool tokens) turned into log-probabilities over the hits it
 * returned, averaged per id; an id one member did not return gets that member's lowest log-probability. Hits
 * best first, `depth` of them.
 */
export function averageLogProbs(
  members: ReadonlyArray<readonly RetrievalHit[]>,
  depth: number,
): RetrievalHit[] {
  const sums = new Map<string, number>();
  const perMember = members.map((hits) => {
    const max = Math.max(...hits.map((h) => h.score));
    const z = max + Math.log(hits.reduce((a, h) => a + Math.exp(h.score - max), 0));
    const lp = new Map(hits.map((h) => [h.id, h.score - z]));
    for (const id of lp.keys()) sums.set(id, 0);
    return { lp, floor: Math.min(...lp.values()) };
  });
  for (const id of sums.keys())
    sums.set(id, perMember.reduce((a, m) => a + (m.lp.get(id) ?? m.floor), 0) / members.length);
  return [...sums]
    .map(([id, score]) => ({ id, score }))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
    .slice(0, depth);
}
