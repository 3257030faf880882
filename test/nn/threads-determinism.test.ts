import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { presetConfig } from "../../src/nn/config.ts";
import { emptyStats, useKernels, type MatmulKernels } from "../../src/nn/kernels/index.ts";
import { createWasmKernels, DEFAULT_WASM_PATH, type WasmKernels } from "../../src/nn/kernels/wasm.ts";
import { Llama } from "../../src/nn/llama.ts";
import { initParams } from "../../src/nn/params.ts";
import { Rng } from "../../src/nn/rng.ts";
import type { Sample } from "../../src/nn/train/batches.ts";
import { train, type TrainOptions } from "../../src/nn/train/trainer.ts";

// A whole training run on 1, 2 and 3 kernel threads, and twice on 3: every part of a step the pool shares
// (the GEMMs, alone and in batches, the weight gradients split over tokens, attention, RMSNorm forward and backward, the
// residual adds, RoPE and SwiGLU done on a product's row chunks, a layer's o, gate, up and down as one row chain
// (RoPE's backward in the attention's items), cross-entropy, the LM head's row gather and scatter, the embedding and its
// gradient, the gradient norm and clipping, AdamW (clearing the gradients it reads) and weight averaging) must give the same bits whatever the number of threads and whichever thread finishes
// first. The model is small but each job is large enough for the pool (≥ 2^15 floats) and a batch packs more
// than 512 tokens, so the weight gradients are split over two depth blocks and summed in order.

const VOCAB = 512;
const config = presetConfig("tiny", VOCAB, {
  hiddenSize: 64,
  intermediateSize: 176,
  numLayers: 2,
  numHeads: 2,
  maxPositions: 128,
});

function samples(): Sample[] {
  const rng = new Rng(11);
  return Array.from({ length: 64 }, () => {
    const n = 40 + rng.int(80);
    const ids = Array.from({ length: n }, () => rng.int(VOCAB));
    // the reply is the last third (its tokens are targets), the rest can be dropped (token dropout)
    const lossMask = ids.map((_, t) => t >= (2 * n) / 3);
    return { ids, lossMask, droppable: ids.map((_, t) => t < n / 2) };
  });
}

const hash = (x: Float32Array) =>
  createHash("sha256")
    .update(Buffer.from(x.buffer, x.byteOffset, x.byteLength))
    .digest("hex");

const made: WasmKernels[] = [];
let previous: MatmulKernels | undefined;

type Setup = { config: typeof config; data: Sample[]; options: Partial<TrainOptions>; threshold?: number };

// parallelThreshold 0: every GEMM goes to the pool; a 64-wide output is split over tokens below 64 × threads
const mixed: Setup = {
  config,
  data: samples(),
  options: { batchSize: 12, gradientAccumulation: 2, clip: 0.05, tokenDropout: 0.2, averageLast: 0.5 },
  threshold: 0,
};

async function run(threads: number, setup: Setup = mixed) {
  const k = createWasmKernels({ threads, parallelThreshold: setup.threshold });
  made.push(k);
  const until = Date.now() + 20_000;
  while (threads > 1 && !k.parallel && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  expect(k.parallel, "helper threads did not start").toBe(threads > 1);
  const before = useKernels(k);
  previous ??= before;
  const stats = emptyStats();
  k.collectStats(stats);
  const model = new Llama(setup.config, initParams(setup.config, 3));
  const norms: number[] = [];
  const { losses } = await train(
    model,
    { kind: "samples", samples: setup.data, padId: 0 },
    {
      ...{ steps: 4, batchSize: 12, lr: 3e-3, seed: 5, ...setup.options },
      onStep: (info) => void norms.push(info.gradNorm),
    },
  );
  k.collectStats();
  return { weights: hash(model.params.flat), losses, norms, shared: stats.shared };
}

describe.skipIf(!existsSync(DEFAULT_WASM_PATH))("a training run on several kernel threads", () => {
  afterAll(async () => {
    if (previous) useKernels(previous);
    await Promise.all(made.map((k) => k.close()));
  });

  it("gives the same bits on 1, 2 and 3 threads, and twice on 3", async () => {
    const one = await run(1);
    expect(one.norms.every((n) => n > 0.05)).toBe(true); // clipping ran at every step
    for (const threads of [2, 3, 3]) {
      const many = await run(threads);
      expect({ ...many, shared: undefined }, `${threads} threads`).toEqual({ ...one, shared: undefined });
      // every part of the step was shared by the pool's threads
      for (const op of [
        "matmul x·Wᵀ (forward)",
        "matmul dy·W (input gradients)",
        "matmul dyᵀ·x (weight gradients)",
        // the LM head's products, named apart (kernels statsSection)
        "matmul x·Wᵀ (forward), LM head",
        "matmul dy·W (input gradients), LM head",
        "matmul dyᵀ·x (weight gradients), LM head",
        "attention forward",
        "attention backward",
        "RMSNorm forward",
        "RMSNorm backward",
        "cross-entropy",
        "embedding rows",
        "embedding gradient",
        "LM head rows (gather, scatter)",
        "gradient norm + clipping",
        "AdamW",
        "weight averaging",
        "GEMMs in batches",
        // a layer's o, gate, up, down and the work between them, each row chunk through all four (matmulChain)
        "GEMMs in row chains",
        "row epilogues in GEMM jobs",
        "B packings shared in GEMM jobs",
        "GEMMs with graded row chunks",
        // the attention backward's items in the weight gradients' job (attentionBackwardWith)
        "tasks in GEMM jobs",
        // the q/k/v weight gradients beside the backward's chain from their input gradients (matmulChain beside)
        "GEMMs beside row chains",
      ]) {
        expect(many.shared[op] ?? 0, `${op} on ${threads} threads`).toBeGreaterThan(0);
      }
    }
    expect(one.shared).toEqual({});
  });

  it("gives the same bits on 1 and 2 threads when a GEMM split leaves rows over", async () => {
    // 30 samples of 31 tokens and one of 33 pack into 963 rows; at the tiny preset's widths (128, 352) the
    // 2-thread split of the MLP's GEMMs was 15 chunks of 64 rows and 3 left over, computed another way (other
    // bits) than the same rows in the unsplit product
    const wide = presetConfig("tiny", VOCAB, { numLayers: 1, maxPositions: 64 });
    const rng = new Rng(2);
    const data = Array.from({ length: 31 }, (_, i) => ({
      ids: Array.from({ length: i === 30 ? 33 : 31 }, () => rng.int(VOCAB)),
    }));
    const setup: Setup = { config: wide, data, options: { batchSize: 31, steps: 3 } };
    const one = await run(1, setup);
    const two = await run(2, setup);
    expect({ ...two, shared: undefined }).toEqual({ ...one, shared: undefined });
  });

  it("gives the same bits on 1 and 2 threads with the user loss thinned (userLossFraction)", async () => {
    // every token after the first is a target (a user loss), the first half droppable: thinning keeps about a
    // quarter of those as targets, drawn per batch, and the head runs on fewer rows than the full user loss
    const rng = new Rng(5);
    const data: Sample[] = Array.from({ length: 48 }, () => {
      const n = 40 + rng.int(60);
      const ids = Array.from({ length: n }, () => rng.int(VOCAB));
      return { ids, lossMask: ids.map((_, t) => t > 0), droppable: ids.map((_, t) => t > 0 && t < n / 2) };
    });
    const thinned = { tokenDropout: 0.2, userLossFraction: 0.25, userLossReweight: true };
    const setup: Setup = { config, data, options: { batchSize: 12, ...thinned }, threshold: 0 };
    const one = await run(1, setup);
    const two = await run(2, setup);
    expect({ ...two, shared: undefined }).toEqual({ ...one, shared: undefined });
    const full = await run(1, { ...setup, options: { batchSize: 12, tokenDropout: 0.2 } });
    expect(full.weights).not.toBe(one.weights);
  });

  it("gives the same bits on 1 and 2 threads with the user loss on a sampled softmax (userLossSamples)", async () => {
    // every token after the first is a target, the first half droppable: those rows take the sampled softmax
    // over the batch's targets and 64 ids drawn from the rest (the words use the first 200 ids, so ~300 are left
    // to draw from and the draws' logits are corrected), the rest the full one
    const rng = new Rng(6);
    const data: Sample[] = Array.from({ length: 48 }, () => {
      const n = 40 + rng.int(60);
      const ids = Array.from({ length: n }, () => rng.int(200));
      return { ids, lossMask: ids.map((_, t) => t > 0), droppable: ids.map((_, t) => t > 0 && t < n / 2) };
    });
    const sampled = { tokenDropout: 0.2, userLossSamples: 64 };
    const setup: Setup = { config, data, options: { batchSize: 12, ...sampled }, threshold: 0 };
    const one = await run(1, setup);
    const two = await run(2, setup);
    expect({ ...two, shared: undefined }).toEqual({ ...one, shared: undefined });
    const full = await run(1, { ...setup, options: { batchSize: 12, tokenDropout: 0.2 } });
    expect(full.weights).not.toBe(one.weights);
  });
});
