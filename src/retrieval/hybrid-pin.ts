import type { RetrievalHit } from "./retriever.ts";

/**
 * The hybrid's rule for tools ToolGen has no training queries for ("unqueried": `toolgen train` memorised them from
 * their documents at most, or never saw them): each one the lexical part ranks in its top k keeps that rank, and
 * the gate's ranking fills the other places with the tools ToolGen was trained to name. ToolGen's scores say
 * nothing about an unqueried tool (its retrieval training only ever pushed mass towards queried ones), so when such
 * a tool is the answer it is confidently wrong (MetaTool split by tool: the right unqueried tool is in its top 5 for
 * none of 309 dev queries). With the rule, on a query whose relevant tools are all unqueried the hybrid's NDCG@k is
 * at least the lexical part's for every cutoff up to k, whatever the gate: each relevant tool the lexical part
 * places is at the same rank, and anything else can only add. The price is paid on queries about queried tools
 * where the lexical part ranks an unqueried tool above the right one (that place is no longer ToolGen's to give).
 */
export function pinUnqueried(
  fused: readonly RetrievalHit[],
  lexical: readonly RetrievalHit[],
  k: number,
  queried: ReadonlySet<string>,
): RetrievalHit[] {
  const places: Array<string | undefined> = lexical
    .slice(0, k)
    .map((h) => (queried.has(h.id) ? undefined : h.id));
  const used = new Set(places.filter((id): id is string => id !== undefined));
  // The gate's queried tools in its order, then whatever is left (lexical order first), so the list reaches k
  // where the parts have k tools between them.
  const fill = [
    ...fused.filter((h) => queried.has(h.id)).map((h) => h.id),
    ...lexical.map((h) => h.id),
    ...fused.map((h) => h.id),
  ];
  const out: string[] = [];
  let next = 0;
  for (let i = 0; i < k; i++) {
    const pinned = places[i];
    if (pinned !== undefined) {
      out.push(pinned);
      continue;
    }
    while (next < fill.length && used.has(fill[next]!)) next++;
    if (next >= fill.length) break;
    used.add(fill[next]!);
    out.push(fill[next++]!);
  }
  // Scores fall with rank (the two parts' scales cannot be mixed).
  return out.map((id, i) => ({ id, score: out.length - i }));
}
