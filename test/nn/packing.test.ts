import { describe, expect, it } from "vitest";
import { presetConfig } from "../../src/nn/config.ts";
import { Llama } from "../../src/nn/llama.ts";
import { initParams } from "../../src/nn/params.ts";
import { Rng } from "../../src/nn/rng.ts";
import { packBatch, padBatch, type Sample } from "../../src/nn/train/batches.ts";
import { train } from "../../src/nn/train/trainer.ts";

// Query blocks of 64 rows: samples up to 80 tokens exercise a span with two blocks.
const config = presetConfig("tiny", 50, {
  hiddenSize: 32,
  intermediateSize: 96,
  numLayers: 2,
  numHeads: 2,
  maxPositions: 96,
});

function chatSamples(lengths: number[], seed: number): Sample[] {
  const rng = new Rng(seed);
  return lengths.map((n) => {
    const ids = Array.from({ length: n }, () => rng.int(50));
    // a chat-like mask: the last third is the reply
    const lossMask = ids.map((_, t) => t >= Math.floor((2 * n) / 3));
    return { ids, lossMask };
  });
}

const maxAbsDiff = (a: Float32Array, b: Float32Array) =>
  a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i]!)), 0);
const maxAbs = (a: Float32Array) => a.reduce((m, v) => Math.max(m, Math.abs(v)), 0);

describe("sequence packing", () => {
  it("lays samples back to back: positions restart, spans tile the row, no target crosses a sample", () => {
    const b = packBatch(
      [
        { ids: [1, 2, 3], lossMask: [0, 1, 1] },
        { ids: [4, 5], lossMask: [0, 1] },
      ],
      96,
    );
    expect(b.B).toBe(1);
    expect(b.T).toBe(5);
    expect(Array.from(b.tokens)).toEqual([1, 2, 3, 4, 5]);
    expect(Array.from(b.positions)).toEqual([0, 1, 2, 0, 1]);
    expect(Array.from(b.targets)).toEqual([2, 3, -1, 5, -1]);
    expect(Array.from(b.spans!)).toEqual([0, 3, 3, 2]);
  });

  it("gives the loss and gradients of the samples run one by one", () => {
    const model = new Llama(config, initParams(config, 3));
    const samples = chatSamples([7, 80, 3, 19, 2, 33], 11);
    const packed = model.params.like();
    const r = model.forwardBackward(packBatch(samples, 96), packed);
    // one by one: each sample's mean loss weighted by its share of the targets
    const alone = model.params.like();
    let total = 0;
    samples.forEach((s, i) => {
      const count = Array.from(s.lossMask!).slice(1).filter(Boolean).length;
      const one = model.forwardBackward(padBatch([s], s.ids.length, 0), alone, {
        accumulate: i > 0,
        lossScale: count / r.count,
      });
      expect(one.count).toBe(count);
      total += one.loss * count;
    });
    expect(r.loss).toBeCloseTo(total / r.count, 5);
    for (const t of packed.tensors) {
      const a = packed.get(t.name);
      const b = alone.get(t.name);
      expect(maxAbsDiff(a, b), t.name).toBeLessThanOrEqual(1e-5 * Math.max(1, maxAbs(b)));
    }
    expect(maxAbs(packed.get("model.layers.0.self_attn.q_proj.weight"))).toBeGreaterThan(0);
    packed.dispose();
    alone.dispose();
  });

  it("matches the padded batch of the same samples", () => {
    const model = new Llama(config, initParams(config, 4));
    const samples = chatSamples([12, 40, 5, 64, 9], 12);
    const a = model.loss(packBatch(samples, 96));
    const b = model.loss(padBatch(samples, 64, 0));
    expect(a.count).toBe(b.count);
    expect(a.loss).toBeCloseTo(b.loss, 5);
  });

  it("rejects spans that do not tile the row", () => {
    const model = new Llama(config, initParams(config, 5));
    const b = packBatch(chatSamples([4, 4], 1), 96);
    expect(() => model.loss({ ...b, spans: Int32Array.from([0, 4, 5, 3]) })).toThrow(/tiling/);
    expect(() => model.loss({ ...b, spans: Int32Array.from([0, 4]) })).toThrow(/cover 4 of 8/);
  });

  it("trains deterministically with packed batches (the default for samples)", async () => {
    const samples = chatSamples([5, 9, 14, 6, 30, 8, 11, 7], 13);
    const run = async (pack: boolean) => {
      const model = new Llama(config, initParams(config, 6));
      const r = await train(
        model,
        { kind: "samples", samples, padId: 0, pack },
        { steps: 4, batchSize: 4, lr: 1e-2, seed: 2 },
      );
      return { losses: r.losses, w: Float32Array.from(model.params.flat) };
    };
    const a = await run(true);
    const b = await run(true);
    expect(b.losses).toEqual(a.losses);
    expect(Buffer.from(b.w.buffer).equals(Buffer.from(a.w.buffer))).toBe(true);
    const padded = await run(false);
    padded.losses.forEach((l, i) => expect(l).toBeCloseTo(a.losses[i]!, 4));
  });
});
