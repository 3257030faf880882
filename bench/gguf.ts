/**
 * The same ToolGen model on the TS engine and on llama.cpp (our GGUF export, F32 and F16), side by side in one
 * run: retrieval latency (one query = chat prompt + one forward pass over the tool tokens), prompt
 * processing, and greedy generation tokens/s. The model is the tiny preset trained briefly on the 20-tool
 * synthetic catalog of the tests (speed does not depend on how well it is trained).
 *   npm run bench:gguf [-- --quick]
 */
import { mkdtempSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { writeBenchResult } from "./lib/result.ts";
import { BuiltinTokenModel } from "../src/models/builtin.ts";
import { LlamaCppModel } from "../src/models/llamacpp.ts";
import { exportCheckpointToGguf } from "../src/nn/gguf/export.ts";
import { InferenceSession } from "../src/nn/infer/session.ts";
import { createRetriever } from "../src/retrieval/create.ts";
import { trainToolGen } from "../src/train/pipeline.ts";
import { syntheticCatalog } from "../test/helpers/synthetic.ts";

const quick = process.argv.includes("--quick");
const GEN_TOKENS = quick ? 32 : 128;
const ROUNDS = quick ? 1 : 3;

function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

const round = (x: number, digits = 2) => Number(x.toFixed(digits));

async function retrievalLatency(model: string, catalog: ReturnType<typeof syntheticCatalog>) {
  const retriever = await createRetriever("toolgen", { catalog: catalog.entries, model });
  const times: number[] = [];
  let hits = 0;
  await retriever.search(catalog.queries[0]!.query, { k: 5 }); // warm-up
  for (let r = 0; r < ROUNDS; r++) {
    for (const q of catalog.queries) {
      const t0 = performance.now();
      const res = await retriever.search(q.query, { k: 5 });
      times.push(performance.now() - t0);
      if (r === 0 && res[0]?.id === q.relevant[0]) hits++;
    }
  }
  const inner = (retriever as unknown as { model?: { dispose?: () => Promise<void> } }).model;
  if (inner instanceof LlamaCppModel) await inner.dispose();
  return {
    queries: times.length,
    p50_ms: round(percentile(times, 50)),
    p95_ms: round(percentile(times, 95)),
    mean_ms: round(times.reduce((a, b) => a + b, 0) / times.length),
    top1: round(hits / catalog.queries.length, 3),
  };
}

function argmax(v: Float32Array): number {
  let best = 0;
  for (let i = 1; i < v.length; i++) if (v[i]! > v[best]!) best = i;
  return best;
}

/** Prompt processing and greedy decoding on the engine's KV cache. */
function engineGeneration(dir: string, prompt: number[]) {
  const { model } = BuiltinTokenModel.load(dir);
  let prefill = Infinity;
  let rate = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const s = new InferenceSession(model);
    const t0 = performance.now();
    let logits = s.append(prompt);
    const t1 = performance.now();
    for (let i = 0; i < GEN_TOKENS; i++) logits = s.append([argmax(logits)]);
    const t2 = performance.now();
    s.dispose();
    prefill = Math.min(prefill, t1 - t0);
    rate = Math.max(rate, GEN_TOKENS / ((t2 - t1) / 1000));
  }
  return {
    prompt_tokens: prompt.length,
    prefill_ms: round(prefill),
    generated: GEN_TOKENS,
    tokens_per_s: round(rate, 1),
  };
}

/** The same on llama.cpp; generation runs on through end-of-text tokens, as the engine loop does. */
async function llamaCppGeneration(file: string, prompt: number[], threads: number) {
  const model = await LlamaCppModel.load(`gguf:${file}`, { threads });
  let prefill = Infinity;
  let rate = 0;
  try {
    for (let r = 0; r < ROUNDS; r++) {
      const other = [...prompt.slice(0, -1), (prompt[prompt.length - 1]! + 1) % model.vocabSize];
      await model.logits(other.slice(0, 1)); // drop the cached prompt so prefill is measured in full
      const t0 = performance.now();
      await model.logits(prompt);
      const t1 = performance.now();
      const out = await model.generateTokens(prompt, { maxTokens: GEN_TOKENS, ignoreEog: true });
      const t2 = performance.now();
      if (out.ids.length !== GEN_TOKENS)
        throw new Error(`llama.cpp made ${out.ids.length} tokens, not ${GEN_TOKENS}`);
      prefill = Math.min(prefill, t1 - t0);
      rate = Math.max(rate, GEN_TOKENS / ((t2 - t1) / 1000));
    }
  } finally {
    await model.dispose();
  }
  return {
    threads,
    prompt_tokens: prompt.length,
    prefill_ms: round(prefill),
    generated: GEN_TOKENS,
    tokens_per_s: round(rate, 1),
  };
}

async function main(): Promise<void> {
  const catalog = syntheticCatalog();
  const dir = mkdtempSync(join(tmpdir(), "bench-gguf-"));
  const t0 = performance.now();
  await trainToolGen({
    catalog: catalog.entries,
    queries: catalog.queries,
    out: dir,
    preset: "tiny",
    seed: 1,
    progress: false,
    log: () => {},
    schedule: {
      tokenizerVocab: 1000,
      batchSize: 16,
      stages: {
        memorization: { epochs: quick ? 2 : 8 },
        retrieval: { epochs: quick ? 4 : 20, lr: 3e-3, tokenDropout: 0 },
      },
    },
  });
  const trainSeconds = (performance.now() - t0) / 1000;
  const f32 = join(dir, "model-f32.gguf");
  const f16 = join(dir, "model-f16.gguf");
  exportCheckpointToGguf(dir, f32, { type: "f32" });
  exportCheckpointToGguf(dir, f16, { type: "f16" });
  process.stderr.write(`trained in ${trainSeconds.toFixed(1)} s; measuring…\n`);

  const builtin = BuiltinTokenModel.load(dir);
  const prompt = builtin.tokenize(
    "<|im_start|>user\nI need the forecast for my weather, and show me flights and hotels for the trip next week please<|im_end|>\n<|im_start|>assistant\n",
  );
  const threads = [...new Set([1, availableParallelism()])];
  const retrieval: Record<string, unknown> = { engine: await retrievalLatency(`builtin:${dir}`, catalog) };
  retrieval.llamacpp_f32 = await retrievalLatency(`gguf:${f32}`, catalog);
  retrieval.llamacpp_f16 = await retrievalLatency(`gguf:${f16}`, catalog);
  const generation: Record<string, unknown> = { engine: engineGeneration(dir, prompt) };
  for (const t of threads) {
    generation[`llamacpp_f32_threads${t}`] = await llamaCppGeneration(f32, prompt, t);
    generation[`llamacpp_f16_threads${t}`] = await llamaCppGeneration(f16, prompt, t);
  }
  const c = builtin.model.config;
  writeBenchResult("gguf", `npm run bench:gguf${quick ? " -- --quick" : ""}`, {
    model: {
      preset: "tiny",
      hidden: c.hiddenSize,
      layers: c.numLayers,
      heads: c.numHeads,
      vocab: c.vocabSize,
      tools: catalog.entries.length,
      train_seconds: round(trainSeconds, 1),
    },
    notes:
      "retrieval: toolgen retriever search(k=5) per query (prompt + one forward pass), same queries on each backend, " +
      "llama.cpp default threads (half the cores); generation: greedy decoding of a fixed number of tokens (through end-of-text tokens) " +
      "after the prompt, best of rounds; engine kernels as configured by src/nn/kernels. " +
      "llama.cpp contexts: no flash attention, F32 KV cache (exact parity settings).",
    retrieval,
    generation,
  });
}

await main();
