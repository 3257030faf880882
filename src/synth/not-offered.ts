import type { CatalogEntry } from "../catalog/catalog.ts";
import { SynthRng } from "./rng.ts";
import type { SynthItem } from "./types.ts";

/**
 * Declines for a model that sees only the offered tools (a function caller, BFCL's "irrelevance"): answerable
 * questions offered with other tools of the catalog only, so no offered tool answers them (`calls: []`). Not for
 * ToolGen, whose model sees the whole catalog: there a tool does answer them (`synthTrajectories` and
 * `synthQueries` must not get these items). `share` of the answerable items are copied this way, each offered
 * `offered` other tools (at least one).
 */
export function notOfferedDeclines(
  items: readonly SynthItem[],
  catalog: readonly CatalogEntry[],
  options: { share: number; seed: number; offered?: number },
): SynthItem[] {
  const rng = new SynthRng(options.seed ^ 0x2545f491);
  const offered = Math.max(1, options.offered ?? 3);
  const out: SynthItem[] = [];
  for (const item of items) {
    if (item.calls.length === 0 || !rng.chance(options.share)) continue;
    const called = new Set(item.calls.map((c) => c.name));
    const others = new Set<string>();
    const pool = catalog.length - called.size;
    for (let tries = 0; others.size < Math.min(offered, pool) && tries < offered * 20; tries++) {
      const id = catalog[rng.int(catalog.length)]!.id;
      if (!called.has(id)) others.add(id);
    }
    if (others.size === 0) continue;
    out.push({ id: `${item.id}-not-offered`, question: item.question, calls: [], tools: [...others] });
  }
  return out;
}
