import { describe, expect, it } from "vitest";
import { presetConfig } from "../../src/nn/config.ts";
import { Llama } from "../../src/nn/llama.ts";
import { initParams } from "../../src/nn/params.ts";
import { Rng } from "../../src/nn/rng.ts";
import { dropTokens, type Sample } from "../../src/nn/train/batches.ts";
import { train } from "../../src/nn/train/trainer.ts";

const sample: Sample = {
  ids: [1, 10, 11, 12, 13, 14, 15, 16, 17, 2, 30, 3],
  lossMask: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1],
  droppable: [0, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0],
};

describe("token dropout", () => {
  it("removes only droppable tokens, keeps the loss mask aligned, and drops about p of them", () => {
    const rng = new Rng(7);
    let dropped = 0;
    for (let i = 0; i < 2000; i++) {
      const out = dropTokens(sample, 0.3, rng);
      expect(out.ids.slice(0, 1)).toEqual([1]);
      expect(out.ids.slice(-3)).toEqual([2, 30, 3]);
      expect(out.lossMask).toHaveLength(out.ids.length);
      expect(Array.from(out.lossMask!).slice(-2)).toEqual([1, 1]);
      // what is left of the user's words is a subsequence, in order
      const words = out.ids.slice(1, -3);
      expect(words).toEqual([...words].sort((a, b) => a - b));
      expect(words.length).toBeGreaterThanOrEqual(1);
      dropped += 8 - words.length;
    }
    expect(dropped / (2000 * 8)).toBeGreaterThan(0.27);
    expect(dropped / (2000 * 8)).toBeLessThan(0.33);
  });

  it("always keeps one droppable token, even at p close to 1", () => {
    const rng = new Rng(3);
    for (let i = 0; i < 200; i++) expect(dropTokens(sample, 0.999, rng).ids).toHaveLength(5);
  });

  it("leaves samples without a droppable mask (or p = 0) as they are, and refuses a mask of the wrong length", () => {
    const plain = { ids: [1, 2, 3] };
    expect(dropTokens(plain, 0.5, new Rng(1))).toBe(plain);
    expect(dropTokens(sample, 0, new Rng(1))).toBe(sample);
    expect(() => dropTokens({ ids: [1, 2], droppable: [1] }, 0.5, new Rng(1))).toThrow(/droppable length 1/);
  });

  it("training with token dropout is deterministic per seed and refuses p outside [0, 1)", async () => {
    const c = presetConfig("tiny", 40, {
      hiddenSize: 32,
      intermediateSize: 96,
      numLayers: 1,
      numHeads: 2,
      maxPositions: 16,
    });
    const samples = [sample, { ...sample, ids: sample.ids.map((x) => (x + 5) % 40) }];
    const run = async (tokenDropout = 0.5) => {
      const model = new Llama(c, initParams(c, 1));
      const data = { kind: "samples" as const, samples, padId: 0 };
      await train(model, data, { steps: 5, batchSize: 2, lr: 1e-2, seed: 4, tokenDropout });
      return Array.from(model.params.flat.slice(0, 64));
    };
    expect(await run()).toEqual(await run());
    expect(await run()).not.toEqual(await run(0));
    const model = new Llama(c, initParams(c, 1));
    await expect(
      train(
        model,
        { kind: "samples", samples, padId: 0 },
        { steps: 1, batchSize: 2, lr: 1e-2, seed: 1, tokenDropout: 1 },
      ),
    ).rejects.toThrow(/tokenDropout must be in \[0, 1\)/);
  });
});
