import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { LabelledQuery } from "../../src/catalog/catalog.ts";
import { writeFileAtomic } from "../../src/io/atomic.ts";
import type { Tuned } from "./baselines.ts";

const HERE = dirname(fileURLToPath(import.meta.url));

/**
 * A tuned baseline kept between runs: the softmax regression's grid costs minutes to tens of minutes on a shared
 * machine and is deterministic (seeded), so a run with the same queries, grid, seed and baseline code reads the
 * previous result instead of recomputing it. The key hashes all of these, including the source files named, so
 * a change to the learner recomputes; the results JSON says when a result came from the cache.
 */
export function cachedTuning<C>(
  work: string,
  name: string,
  inputs: {
    parts: ReadonlyArray<readonly LabelledQuery[]>;
    settings: unknown;
    /** Source files (relative to bench/toolgen) whose code decides the result. */
    sources: readonly string[];
  },
  compute: () => Tuned<C>,
): Tuned<C> & { cache: { file: string; hit: boolean; computed: string } } {
  const h = createHash("sha256");
  h.update(JSON.stringify(inputs.settings));
  for (const part of inputs.parts) {
    h.update("\u0003");
    for (const q of part) h.update(`\u0000${q.query}\u0001${q.relevant.join("\u0002")}`);
  }
  for (const f of inputs.sources) h.update(`\u0000${f}\u0001`).update(readFileSync(join(HERE, f)));
  const file = join(work, "baselines", `${name}-${h.digest("hex").slice(0, 16)}.json`);
  if (existsSync(file)) {
    const stored = JSON.parse(readFileSync(file, "utf8")) as Tuned<C> & { computed: string };
    const { computed, ...tuned } = stored;
    return { ...tuned, cache: { file, hit: true, computed } };
  }
  const tuned = compute();
  const computed = new Date().toISOString();
  mkdirSync(dirname(file), { recursive: true });
  writeFileAtomic(file, JSON.stringify({ ...tuned, computed }) + "\n");
  return { ...tuned, cache: { file, hit: false, computed } };
}
