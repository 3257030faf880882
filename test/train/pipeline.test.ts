import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createRetriever } from "../../src/retrieval/create.ts";
import type { GenerativeRetriever } from "../../src/retrieval/generative.ts";
import { trainToolGen } from "../../src/train/pipeline.ts";
import { syntheticCatalog } from "../helpers/synthetic.ts";
import { tinyToolGenOptions } from "../helpers/tiny-toolgen.ts";

describe("toolgen training pipeline", () => {
  it(
    "a 20-tool synthetic catalog trains to recall@1 ≥ 0.9 on its training queries",
    { timeout: 120_000 },
    async () => {
      const { entries, queries } = syntheticCatalog();
      const out = mkdtempSync(join(tmpdir(), "toolgen-train-"));
      const started = performance.now();
      const manifest = await trainToolGen({
        catalog: entries,
        queries,
        out,
        ...tinyToolGenOptions(),
      });
      const seconds = (performance.now() - started) / 1000;
      expect(manifest.done.map((r) => r.stage)).toEqual(["memorization", "retrieval"]);
      expect(seconds).toBeLessThan(60);
      for (const f of [
        "config.json",
        "model.safetensors",
        "tokenizer.json",
        "toolgen-index.json",
        "toolgen.json",
      ]) {
        expect(existsSync(join(out, f))).toBe(true);
      }
      // Each stage records its loss curve (≤ 200 points, ending at the last step), and the loss went down.
      for (const r of manifest.done) {
        const curve = r.lossCurve!;
        expect(curve.length).toBeGreaterThan(1);
        expect(curve.length).toBeLessThanOrEqual(200);
        expect(curve.at(-1)!.step).toBe(r.steps);
        expect(curve.at(-1)!.loss).toBeLessThan(curve[0]!.loss);
      }
      expect(readFileSync(join(out, "data", "retrieval.jsonl"), "utf8").split("\n")).toHaveLength(
        queries.length + 1,
      );

      const retriever = (await createRetriever("toolgen", {
        catalog: entries,
        model: `builtin:${out}`,
      })) as GenerativeRetriever;
      const results = await retriever.searchMany(
        queries.map((q) => q.query),
        { k: 5 },
      );
      const hits = results.filter((r, i) => r[0]?.id === queries[i]!.relevant[0]).length;
      expect(hits / queries.length).toBeGreaterThanOrEqual(0.9);
      // The single-query path (one forward pass through the KV-cache model) agrees with the batched one.
      const one = await retriever.search(queries[7]!.query, { k: 5 });
      expect(one.map((h) => h.id)).toEqual(results[7]!.map((h) => h.id));

      // Running again resumes: every stage is already done, nothing is retrained.
      const again = await trainToolGen({
        catalog: entries,
        queries,
        out,
        ...tinyToolGenOptions(),
      });
      expect(again.done).toEqual(manifest.done);
      await expect(
        trainToolGen({ catalog: entries.slice(1), queries, out, progress: false, log: () => {} }),
      ).rejects.toThrow(/different training run/);
    },
  );
});
