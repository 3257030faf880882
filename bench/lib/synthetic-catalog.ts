import type { CatalogEntry } from "../../src/catalog/catalog.ts";
import { mulberry32 } from "../../src/eval/split.ts";

/**
 * A large catalog grown from a real one for latency and memory figures: copies with seeded word drops (seed 47)
 * and a variant tag per copy, so each copy has its own (realistic) text and id.
 */
export function synthesize(base: readonly CatalogEntry[], size: number): CatalogEntry[] {
  const rand = mulberry32(47);
  const out: CatalogEntry[] = [];
  for (let copy = 0; out.length < size; copy++) {
    for (const entry of base) {
      if (out.length >= size) break;
      const words = entry.description.split(/\s+/).filter(() => copy === 0 || rand() > 0.2);
      const tool = copy === 0 ? entry.tool : `${entry.tool} v${copy}`;
      out.push({
        ...entry,
        id: `${tool}&&${entry.api}`,
        tool,
        description: words.join(" "),
        doc: { ...(entry.doc as object), tool_name: tool, api_description: words.join(" ") },
      });
    }
  }
  return out;
}
