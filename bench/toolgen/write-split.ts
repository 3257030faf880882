import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { LabelledQuery } from "../../src/catalog/catalog.ts";
import { writeFileAtomic } from "../../src/io/atomic.ts";
import { metaToolData, stableToolBenchData } from "./plans.ts";

/**
 * Writes the bench's train / dev / test parts as JSONL query files (`{"query", "relevant", "id"}` per line), so
 * `toolgen train --queries` and `toolgen eval retrieval --queries` see exactly the bench's rows:
 * `npx tsx bench/toolgen/write-split.ts stabletoolbench DIR` → DIR/stb-g1-train.jsonl, stb-g1-dev.jsonl,
 * stb-g2-test.jsonl (for MetaTool, `toolgen eval split --seed 1` writes the same rows as CSV; this writes
 * mt-train.jsonl, mt-dev.jsonl, mt-test.jsonl).
 */
const [group, dir] = process.argv.slice(2);
if ((group !== "metatool" && group !== "stabletoolbench") || !dir) {
  process.stderr.write("usage: tsx bench/toolgen/write-split.ts metatool|stabletoolbench DIR\n");
  process.exit(1);
}
const data = group === "metatool" ? metaToolData() : stableToolBenchData();
if (!data) {
  process.stderr.write(
    `bench/toolgen/write-split.ts: the ${group} data is absent (set TOOLGEN_BENCH_DATA)\n`,
  );
  process.exit(1);
}
const names =
  group === "metatool"
    ? { train: "mt-train", dev: "mt-dev", test: "mt-test" }
    : { train: "stb-g1-train", dev: "stb-g1-dev", test: "stb-g2-test" };
const jsonl = (rows: readonly LabelledQuery[]) =>
  rows.map((q) => JSON.stringify({ query: q.query, relevant: q.relevant, id: q.id })).join("\n") + "\n";
mkdirSync(dir, { recursive: true });
for (const part of ["train", "dev", "test"] as const) {
  const file = join(dir, `${names[part]}.jsonl`);
  writeFileAtomic(file, jsonl(data[part]));
  process.stdout.write(`${part}: ${data[part].length} queries → ${file}\n`);
}
