import type { CatalogEntry } from "../catalog/catalog.ts";
import type { SynthRng } from "./rng.ts";

/**
 * How synth offers a question's tools: the called ones plus `distractors` others (catalog ids), shuffled. Near
 * tools make harder distractors: half are drawn from the called tools' neighbours (the same tool's other APIs,
 * else the same category) where the catalog has them. Shared with labelled questions written elsewhere (people's
 * questions, src/train/written-questions.ts), so that they are offered as synth's are.
 */
export function distractorOffer(
  catalog: readonly CatalogEntry[],
  distractors: number,
  rng: SynthRng,
): (called: readonly string[]) => string[] {
  const neighbours = new Map<string, CatalogEntry[]>();
  for (const e of catalog) {
    for (const key of [`tool:${e.tool}`, `category:${e.category ?? ""}`]) {
      const list = neighbours.get(key) ?? [];
      list.push(e);
      neighbours.set(key, list);
    }
  }
  const byId = new Map(catalog.map((e) => [e.id, e]));
  return (called) => {
    const others = new Set<string>();
    const pool = catalog.length - new Set(called).size;
    const near = called.flatMap((id) => {
      const e = byId.get(id)!;
      const sameTool = neighbours.get(`tool:${e.tool}`)!;
      return sameTool.length > 1 ? sameTool : e.category ? neighbours.get(`category:${e.category}`)! : [];
    });
    for (let tries = 0; others.size < Math.min(distractors, pool) && tries < distractors * 20; tries++) {
      const from = near.length > 0 && rng.chance(0.5) ? near : catalog;
      const id = from[rng.int(from.length)]!.id;
      if (!called.includes(id)) others.add(id);
    }
    return rng.shuffle([...new Set(called), ...others]);
  };
}
