import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { presetConfig } from "../../src/nn/config.ts";
import { useKernels, type MatmulKernels } from "../../src/nn/kernels/index.ts";
import { createWasmKernels, DEFAULT_WASM_PATH, type WasmKernels } from "../../src/nn/kernels/wasm.ts";
import { crossEntropyInPlace } from "../../src/nn/layers/cross-entropy.ts";
import {
  checkSoftTarget,
  softCrossEntropyRow,
  type SoftTarget,
} from "../../src/nn/layers/soft-cross-entropy.ts";
import { Llama } from "../../src/nn/llama.ts";
import { initParams } from "../../src/nn/params.ts";
import { Rng } from "../../src/nn/rng.ts";
import { dropTokens, packBatch, padBatch, type Sample } from "../../src/nn/train/batches.ts";
import { train } from "../../src/nn/train/trainer.ts";

// Distillation's loss (soft targets beside the label, src/nn/layers/soft-cross-entropy.ts): its gradient, its
// place in the batches, and a training run with it giving the same bits on any number of threads.

const soft = (at: number, weight: number, temperature: number): SoftTarget => ({
  at,
  ids: Int32Array.from([3, 5, 9]),
  probs: Float32Array.from([0.6, 0.3, 0.1]),
  weight,
  temperature,
});

describe("softCrossEntropyRow", () => {
  const rng = new Rng(4);
  const V = 12;
  const z = Float32Array.from({ length: V }, () => rng.normal() * 2);

  it.each([
    [0.5, 1],
    [0.7, 2.5],
    [1, 0.5],
  ])("has the gradient of its loss (weight %f, temperature %f)", (w, T) => {
    const grad = new Float32Array(V);
    const s = soft(1, w, T);
    softCrossEntropyRow(z, grad, 5, s, 0.5);
    const f = (x: Float32Array) => softCrossEntropyRow(x, new Float32Array(V), 5, s, 1).loss * 0.5;
    for (let i = 0; i < V; i++) {
      const up = Float32Array.from(z);
      const down = Float32Array.from(z);
      up[i]! += 1e-2;
      down[i]! -= 1e-2;
      expect(grad[i]!).toBeCloseTo((f(up) - f(down)) / 2e-2, 3);
    }
  });

  it.each([
    [0.5, 1],
    [0.7, 2.5],
  ])("has the gradient of its loss with the soft term over a scope (weight %f, temperature %f)", (w, T) => {
    const over = Int32Array.from([1, 3, 5, 8, 9]);
    const s = { ...soft(1, w, T), over };
    const grad = new Float32Array(V);
    softCrossEntropyRow(z, grad, 5, s, 0.5);
    const f = (x: Float32Array) => softCrossEntropyRow(x, new Float32Array(V), 5, s, 1).loss * 0.5;
    for (let i = 0; i < V; i++) {
      const up = Float32Array.from(z);
      const down = Float32Array.from(z);
      up[i]! += 1e-2;
      down[i]! -= 1e-2;
      expect(grad[i]!).toBeCloseTo((f(up) - f(down)) / 2e-2, 3);
    }
    // A token outside the scope gets the label term's gradient alone, (1 − w)·q: the soft term never lowers it.
    const plain = Float32Array.from(z);
    crossEntropyInPlace(plain, [5], 1, V, 0.5);
    for (const i of [0, 2, 4, 6, 7, 10, 11]) expect(grad[i]!).toBeCloseTo((1 - w) * plain[i]!, 6);
    // Over the whole vocabulary as its scope it is the unscoped loss.
    const whole = { ...soft(1, w, T), over: Int32Array.from({ length: V }, (_, i) => i) };
    const a = softCrossEntropyRow(z, new Float32Array(V), 5, whole, 1);
    const b = softCrossEntropyRow(z, new Float32Array(V), 5, soft(1, w, T), 1);
    expect(a.loss).toBeCloseTo(b.loss, 5);
  });

  it("refuses a scope that leaves out a token of the target, names a token twice or leaves the vocabulary", () => {
    const s = soft(1, 0.5, 1);
    expect(checkSoftTarget({ ...s, over: Int32Array.from([3, 5]) }, V)).toMatch(/outside its scope/);
    expect(checkSoftTarget({ ...s, over: Int32Array.from([3, 5, 9, 9]) }, V)).toMatch(/twice/);
    expect(checkSoftTarget({ ...s, over: Int32Array.from([3, 5, 9, V]) }, V)).toMatch(
      /outside the vocabulary/,
    );
    expect(checkSoftTarget({ ...s, over: Int32Array.from([3, 5, 9]) }, V)).toBeUndefined();
  });

  it("is the plain cross-entropy at weight 0", () => {
    const grad = new Float32Array(V);
    const { loss, hard } = softCrossEntropyRow(z, grad, 7, soft(1, 0, 2), 0.25);
    const plain = Float32Array.from(z);
    const total = crossEntropyInPlace(plain, [7], 1, V, 0.25);
    expect(loss).toBeCloseTo(total, 5);
    expect(hard).toBeCloseTo(total, 5);
    for (let i = 0; i < V; i++) expect(grad[i]!).toBeCloseTo(plain[i]!, 6);
  });
});

describe("soft targets in batches", () => {
  const a: Sample = { ids: [1, 2, 3, 4, 5], lossMask: [0, 0, 0, 1, 1], soft: soft(3, 0.5, 1) };
  const b: Sample = {
    ids: [6, 7, 8, 9],
    lossMask: [0, 0, 1, 1],
    droppable: [1, 1, 0, 0],
    soft: soft(2, 0.5, 1),
  };

  it("sit at the row that predicts their token, packed or padded", () => {
    const packed = packBatch([a, b], 16);
    expect([...packed.soft!.keys()]).toEqual([2, 5 + 1]);
    expect(packed.targets[2]).toBe(4);
    const padded = padBatch([a, b], 8, 0);
    expect([...padded.soft!.keys()]).toEqual([2, 8 + 1]);
    expect(packBatch([{ ids: [1, 2, 3] }], 8).soft).toBeUndefined();
  });

  it("follow their token when token dropout removes words before it", () => {
    const dropped = dropTokens(b, 0.99, new Rng(1));
    expect(dropped.ids).toHaveLength(3);
    expect(dropped.soft!.at).toBe(1);
    expect(dropped.ids[dropped.soft!.at]).toBe(8);
  });
});

const VOCAB = 256;
const config = presetConfig("tiny", VOCAB, {
  hiddenSize: 64,
  intermediateSize: 176,
  numLayers: 2,
  numHeads: 2,
  maxPositions: 64,
});

function samples(withSoft: boolean): Sample[] {
  const rng = new Rng(13);
  return Array.from({ length: 48 }, (_, i) => {
    const n = 20 + rng.int(30);
    const ids = Array.from({ length: n }, () => rng.int(VOCAB));
    const lossMask = ids.map((_, t) => t >= n - 2);
    const s: Sample = { ids, lossMask, droppable: ids.map((_, t) => t < n / 2) };
    if (withSoft && i % 2 === 0) {
      const top = [ids[n - 2]!, (ids[n - 2]! + 1) % VOCAB, (ids[n - 2]! + 7) % VOCAB];
      s.soft = {
        at: n - 2,
        ids: Int32Array.from(new Set(top)),
        probs: Float32Array.from(new Set(top), (_, k) => [0.5, 0.3, 0.2][k]!),
        weight: 0.6,
        temperature: 2,
      };
    }
    return s;
  });
}

const made: WasmKernels[] = [];
let previous: MatmulKernels | undefined;

async function run(threads: number, data: Sample[]) {
  const k = createWasmKernels({ threads, parallelThreshold: 0 });
  made.push(k);
  const until = Date.now() + 20_000;
  while (threads > 1 && !k.parallel && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  const before = useKernels(k);
  previous ??= before;
  const model = new Llama(config, initParams(config, 3));
  const { losses } = await train(
    model,
    { kind: "samples", samples: data, padId: 0 },
    { steps: 4, batchSize: 12, lr: 3e-3, seed: 5, tokenDropout: 0.2 },
  );
  const weights = createHash("sha256")
    .update(Buffer.from(model.params.flat.buffer, model.params.flat.byteOffset, model.params.flat.byteLength))
    .digest("hex");
  return { weights, losses };
}

describe.skipIf(!existsSync(DEFAULT_WASM_PATH))("a training run with soft targets", () => {
  afterAll(async () => {
    if (previous) useKernels(previous);
    await Promise.all(made.map((k) => k.close()));
  });

  it("gives the same bits on 1 and 3 threads, and differs from the labels alone", async () => {
    const one = await run(1, samples(true));
    expect(await run(3, samples(true))).toEqual(one);
    const plain = await run(1, samples(false));
    expect(plain.weights).not.toBe(one.weights);
  });
});
