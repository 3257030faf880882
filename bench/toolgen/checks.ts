import type { CatalogEntry, LabelledQuery } from "../../src/catalog/catalog.ts";
import { describeLabelProblems, labelProblems, overlapCount } from "../../src/eval/split-checks.ts";

/** What the protocol checked about its parts (all zero, or the bench stopped). */
export interface ProtocolChecks {
  /** Queries of each later part whose text (`queryKey`) an earlier part already has. */
  overlap: Record<string, number>;
  noRelevant: number;
  unknownTool: number;
}

/**
 * Refuses a protocol split that would score something it should not: a dev or test query that an earlier part
 * (train, or train + dev) already holds, a query with no relevant tool, a label naming no catalog tool. The
 * parts are given in order (train first); the counts go into the results JSON.
 */
export function checkProtocolParts(
  parts: ReadonlyArray<readonly [string, readonly LabelledQuery[]]>,
  catalog: readonly Pick<CatalogEntry, "id">[],
): ProtocolChecks {
  const overlap: Record<string, number> = {};
  const seen: string[] = [];
  parts.forEach(([name, rows], i) => {
    if (i > 0) overlap[name] = overlapCount(rows, seen);
    for (const q of rows) seen.push(q.query);
  });
  const labels = labelProblems(
    parts.flatMap(([, rows]) => rows),
    catalog,
  );
  const problems = [
    ...Object.entries(overlap)
      .filter(([, n]) => n > 0)
      .map(([name, n]) => `${n} ${name} queries repeat an earlier part's query`),
    ...[describeLabelProblems(labels, catalog.length)].filter((t) => t !== undefined),
  ];
  if (problems.length > 0) throw new Error(`the protocol's split cannot be scored: ${problems.join("; ")}`);
  return { overlap, noRelevant: labels.noRelevant, unknownTool: labels.unknownTool };
}
