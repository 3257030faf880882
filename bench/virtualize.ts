/**
 * bench:virtualize — `toolgen virtualize` on a folder shaped like Llama-3-8B's vocabulary matrices (128,256 ×
 * 4,096 bf16 embed_tokens and lm_head in two shards, plus a third shard of other weights) with the paper's
 * 46,985 tool tokens: wall time and peak resident memory, to show the shards are streamed (memory stays far
 * below the 2+ GB the matrices occupy). The weights are synthetic (random bf16), the layout is real.
 */
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CatalogEntry } from "../src/catalog/catalog.ts";
import { Tokenizer } from "../src/nn/tokenizer/index.ts";
import { SequentialWriter, encodeSafetensorsHeader } from "../src/nn/io/safetensors-stream.ts";
import { virtualizeHfModel } from "../src/train/virtualize-hf.ts";
import { writeBenchResult } from "./lib/result.ts";

const VOCAB = 128_256;
const HIDDEN = 4_096;
const TOOLS = 46_985;
const WORDS = [
  "weather",
  "stock",
  "video",
  "news",
  "flight",
  "hotel",
  "music",
  "search",
  "get",
  "list",
  "details",
  "price",
];

/** Writes one shard of bf16 tensors filled with small random values, in 16 MiB chunks. */
function writeShard(file: string, tensors: { name: string; shape: number[] }[]): void {
  const layout = tensors.map((t) => ({ ...t, dtype: "BF16", bytes: t.shape.reduce((a, b) => a * b, 1) * 2 }));
  const w = new SequentialWriter(file);
  w.write(encodeSafetensorsHeader(layout, { format: "pt" }).bytes);
  const chunk = new Uint16Array(8 * 2 ** 20);
  let seed = 1;
  for (const t of layout) {
    for (let left = t.bytes / 2; left > 0; left -= chunk.length) {
      const n = Math.min(chunk.length, left);
      for (let i = 0; i < n; i++) {
        seed = (seed * 1103515245 + 12345) >>> 0;
        chunk[i] = 0x3c00 + (seed >>> 22) + (seed & 0x8000); // |x| in [2^-7, 2^-6), random sign
      }
      w.write(new Uint8Array(chunk.buffer, 0, n * 2));
    }
  }
  w.close();
}

function main(): Promise<void> {
  return (async () => {
    const dir = mkdtempSync(join(tmpdir(), "bench-virtualize-"));
    try {
      const base = join(dir, "base");
      mkdirSync(base);
      // A byte-level tokenizer whose ids cover every row, like Llama-3's (reserved tokens fill the rest).
      const t = Tokenizer.train([WORDS.join(" ").repeat(20)], 400, { specialTokens: ["<|begin_of_text|>"] });
      const json = t.toJSON() as { added_tokens: unknown[] };
      for (let id = t.vocabSize; id < VOCAB; id++)
        json.added_tokens.push({
          id,
          content: `<|reserved_${id}|>`,
          single_word: false,
          lstrip: false,
          rstrip: false,
          normalized: false,
          special: true,
        });
      writeFileSync(join(base, "tokenizer.json"), JSON.stringify(json));
      writeFileSync(
        join(base, "config.json"),
        JSON.stringify({
          model_type: "llama",
          vocab_size: VOCAB,
          hidden_size: HIDDEN,
          torch_dtype: "bfloat16",
        }),
      );
      const shards = [
        [
          { name: "model.embed_tokens.weight", shape: [VOCAB, HIDDEN] },
          { name: "model.layers.0.mlp.up_proj.weight", shape: [14_336, HIDDEN] },
        ],
        [
          { name: "model.norm.weight", shape: [HIDDEN] },
          { name: "lm_head.weight", shape: [VOCAB, HIDDEN] },
        ],
        [{ name: "model.layers.0.mlp.down_proj.weight", shape: [HIDDEN, 14_336] }],
      ];
      const weightMap: Record<string, string> = {};
      shards.forEach((tensors, i) => {
        const file = `model-0000${i + 1}-of-00003.safetensors`;
        writeShard(join(base, file), tensors);
        for (const x of tensors) weightMap[x.name] = file;
      });
      writeFileSync(
        join(base, "model.safetensors.index.json"),
        JSON.stringify({ metadata: {}, weight_map: weightMap }),
      );
      const inputBytes = Object.values(weightMap)
        .filter((f, i, all) => all.indexOf(f) === i)
        .reduce((n, f) => n + statSync(join(base, f)).size, 0);
      const entries: CatalogEntry[] = Array.from({ length: TOOLS }, (_, i) => {
        const tool = `${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]} hub ${i}`;
        const api = `${WORDS[(i * 3) % WORDS.length]} ${WORDS[(i * 5) % WORDS.length]}`;
        return {
          id: `${tool}&&${api}`,
          tool,
          api,
          description: "",
          parameters: { type: "object", properties: {} },
          doc: {},
        };
      });
      const rssBefore = process.memoryUsage().rss;
      const started = performance.now();
      const summary = await virtualizeHfModel({ base, out: join(dir, "out"), entries });
      const seconds = (performance.now() - started) / 1000;
      const peakRss = process.resourceUsage().maxRSS * 1024;
      writeBenchResult("virtualize", "npm run bench:virtualize", {
        shape: { vocab: VOCAB, hidden: HIDDEN, dtype: "BF16", tools: TOOLS, shards: summary.shards },
        input_gib: +(inputBytes / 2 ** 30).toFixed(2),
        vocab_matrices_gib: +((2 * VOCAB * HIDDEN * 2) / 2 ** 30).toFixed(2),
        output_vocab: summary.vocab,
        seconds: +seconds.toFixed(1),
        mib_per_second: +(summary.bytes / 2 ** 20 / seconds).toFixed(0),
        rss_before_virtualize_mib: Math.round(rssBefore / 2 ** 20),
        peak_rss_mib: Math.round(peakRss / 2 ** 20),
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  })();
}

await main();
