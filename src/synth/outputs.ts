import type { LabelledQuery } from "../catalog/catalog.ts";
import type { SynthItem, SynthTrajectory } from "./types.ts";

/** ToolGen agent-stage trajectories for the items (README.md). */
export function synthTrajectories(items: readonly SynthItem[]): SynthTrajectory[] {
  void items;
  return [];
}

/** The retrieval stage's labelled queries: each answerable item and the tools it calls. */
export function synthQueries(items: readonly SynthItem[]): LabelledQuery[] {
  return items.flatMap((item) =>
    item.calls.length === 0
      ? []
      : [{ id: item.id, query: item.question, relevant: [...new Set(item.calls.map((c) => c.name))] }],
  );
}
