import { describe, expect, it } from "vitest";
import { presetConfig } from "../../src/nn/config.ts";
import { Llama } from "../../src/nn/llama.ts";
import { initParams } from "../../src/nn/params.ts";
import { Rng } from "../../src/nn/rng.ts";
import { cosineLr } from "../../src/nn/train/adamw.ts";
import { padBatch, samplesForStep, type Sample } from "../../src/nn/train/batches.ts";
import { train } from "../../src/nn/train/trainer.ts";

const small = (vocab: number) =>
  presetConfig("tiny", vocab, {
    hiddenSize: 32,
    intermediateSize: 96,
    numLayers: 2,
    numHeads: 2,
    maxPositions: 32,
  });

function randomSamples(n: number, len: number, vocab: number, seed: number): Sample[] {
  const rng = new Rng(seed);
  return Array.from({ length: n }, (_, i) => ({
    ids: [i % vocab, ...Array.from({ length: len - 1 }, () => rng.int(vocab))],
  }));
}

describe("training", () => {
  it("overfits 32 sequences to loss < 0.05", async () => {
    const c = small(40);
    const model = new Llama(c, initParams(c, 1));
    const samples = randomSamples(32, 12, 40, 5);
    const { losses } = await train(
      model,
      { kind: "samples", samples, padId: 0 },
      { steps: 300, batchSize: 32, lr: 1e-2, seed: 1 },
    );
    const final = model.loss(padBatch(samples, 12, 0)).loss;
    expect(losses[0]).toBeGreaterThan(3);
    expect(final).toBeLessThan(0.05);
  });

  it("takes the loss only on the masked span", () => {
    const c = small(20);
    const model = new Llama(c, initParams(c, 2));
    const ids = [1, 2, 3, 4, 5, 6];
    const masked = padBatch([{ ids, lossMask: [0, 0, 0, 1, 1, 0] }], 8, 0);
    expect(Array.from(masked.targets)).toEqual([-1, -1, 4, 5, -1, -1, -1, -1]);
    const full = padBatch([{ ids }], 8, 0);
    expect(Array.from(full.targets)).toEqual([2, 3, 4, 5, 6, -1, -1, -1]);
    // the masked loss equals the mean over exactly those two positions of the full logits
    const logits = model.logits(full);
    const nll = (row: number, target: number) => {
      const r = logits.subarray(row * 20, row * 20 + 20);
      const max = Math.max(...r);
      return -(r[target] - max - Math.log(r.reduce((s, v) => s + Math.exp(v - max), 0)));
    };
    expect(model.loss(masked).loss).toBeCloseTo((nll(2, 4) + nll(3, 5)) / 2, 4);
  });

  it("right padding does not change the loss (length-bucketed batches are exact)", () => {
    const c = small(40);
    const model = new Llama(c, initParams(c, 3));
    const samples = randomSamples(4, 7, 40, 8);
    const a = model.loss(padBatch(samples, 7, 0));
    const b = model.loss(padBatch(samples, 32, 0));
    expect(b.count).toBe(a.count);
    expect(b.loss).toBeCloseTo(a.loss, 5);
    // a short batch after a long one runs in views of the grown buffers: same loss and gradients as fresh
    const g1 = model.params.like();
    model.forwardBackward(padBatch(samples, 7, 0), g1);
    const fresh = new Llama(c, model.params);
    const g2 = model.params.like();
    fresh.forwardBackward(padBatch(samples, 7, 0), g2);
    expect(g1.flat).toEqual(g2.flat);
  });

  it("accumulating two half batches gives the gradient of the whole batch", () => {
    const c = small(30);
    const model = new Llama(c, initParams(c, 4));
    const samples = randomSamples(4, 9, 30, 2); // equal lengths: the mean of the halves' means is the mean
    const whole = model.params.like();
    model.forwardBackward(padBatch(samples, 9, 0), whole);
    const acc = model.params.like();
    model.forwardBackward(padBatch(samples.slice(0, 2), 9, 0), acc, { lossScale: 0.5 });
    model.forwardBackward(padBatch(samples.slice(2), 9, 0), acc, { accumulate: true, lossScale: 0.5 });
    for (let i = 0; i < whole.flat.length; i += 97) expect(acc.flat[i]).toBeCloseTo(whole.flat[i], 6);
  });

  it("is deterministic for a seed", async () => {
    const run = async (seed: number) => {
      const c = small(30);
      const model = new Llama(c, initParams(c, seed));
      await train(
        model,
        { kind: "samples", samples: randomSamples(10, 8, 30, 3), padId: 0 },
        { steps: 5, batchSize: 4, lr: 3e-3, seed },
      );
      return model.params.flat.slice();
    };
    const a = await run(11);
    expect(await run(11)).toEqual(a);
    expect(await run(12)).not.toEqual(a);
  });

  it("rejects samples with nothing to predict or unknown ids before training", async () => {
    const c = small(20);
    const model = new Llama(c, initParams(c, 1));
    const run = (samples: Sample[]) =>
      train(model, { kind: "samples", samples, padId: 0 }, { steps: 1, batchSize: 1, lr: 1e-3, seed: 1 });
    await expect(run([{ ids: [1, 2, 3] }, { ids: [4, 5], lossMask: [1, 0] }])).rejects.toThrow(
      /sample 1 has no token to predict/,
    );
    await expect(run([{ ids: [1, 25] }])).rejects.toThrow(/sample 0: token id 25 outside the vocabulary/);
    await expect(run([])).rejects.toThrow(/no training samples/);
  });

  it("cosine schedule with 3 % linear warm-up", () => {
    expect(cosineLr(0, 100, 1)).toBeCloseTo(1 / 3);
    expect(cosineLr(2, 100, 1)).toBeCloseTo(1);
    expect(cosineLr(99, 100, 1, 0.03, 0.1)).toBeCloseTo(0.1, 2);
    expect(cosineLr(51, 100, 1, 0.03, 0)).toBeCloseTo(0.5, 1);
  });

  it("visits every sample once per epoch in a seeded order", () => {
    const samples = randomSamples(10, 3, 10, 1);
    const epoch = [0, 1, 2, 3, 4].flatMap((s) => samplesForStep(samples, s, 2, 9));
    expect(new Set(epoch).size).toBe(10);
    expect(samplesForStep(samples, 3, 2, 9)).toEqual(samplesForStep(samples, 3, 2, 9));
  });
});
