import { describe, expect, it } from "vitest";
import { presetConfig } from "../../src/nn/config.ts";
import { Llama } from "../../src/nn/llama.ts";
import { initParams } from "../../src/nn/params.ts";
import { Rng } from "../../src/nn/rng.ts";
import { packBatch, padBatch, type Sample } from "../../src/nn/train/batches.ts";
import { sampleUserCandidates } from "../../src/nn/train/sampled-user-loss.ts";
import { train } from "../../src/nn/train/trainer.ts";

const V = 60;
const c = presetConfig("tiny", V, {
  hiddenSize: 32,
  intermediateSize: 96,
  numLayers: 1,
  numHeads: 2,
  maxPositions: 16,
});
// a query of 6 words (droppable, all targets: a user loss) and a tool token with an end token (full softmax)
const base: Sample = {
  ids: [1, 10, 11, 12, 13, 14, 15, 2, 50, 3],
  lossMask: [0, 1, 1, 1, 1, 1, 1, 0, 1, 1],
  droppable: [0, 1, 1, 1, 1, 1, 1, 0, 0, 0],
};
const samples = Array.from({ length: 4 }, (_, i) => ({
  ...base,
  ids: base.ids.map((x, t) => (base.droppable![t] ? (x + 7 * i) % 48 : x)),
}));

describe("the sampled user loss's candidates", () => {
  const batch = packBatch(samples, 16, { userRows: true });

  it("marks the rows that predict a user's word, and only on request", () => {
    expect(packBatch(samples, 16).userRows).toBeUndefined();
    // per sample: rows 0-5 predict the words, row 7 the tool token, row 8 the end token
    expect(Array.from(batch.userRows!.subarray(0, 10))).toEqual([1, 1, 1, 1, 1, 1, 0, 0, 0, 0]);
    const padded = padBatch(samples, 12, 0, { userRows: true });
    expect(Array.from(padded.userRows!.subarray(12, 24))).toEqual([1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0]);
  });

  it("holds every target of the batch surely and the drawn ids with their log chance", () => {
    const out = sampleUserCandidates(batch, 8, new Rng(3), V);
    const s = out.sampled!;
    const targets = new Set(Array.from(batch.targets).filter((t) => t >= 0));
    expect(s.ids.length).toBe(targets.size + 8);
    expect(Array.from(s.ids)).toEqual([...s.ids].sort((a, b) => a - b));
    s.ids.forEach((id, j) => {
      if (targets.has(id)) expect(s.logQ[j]).toBe(0);
      else expect(s.logQ[j]).toBeCloseTo(Math.log(8 / (V - targets.size)), 6);
    });
    expect(s.rows).toBe(batch.userRows);
    // the same draw per seed, another with another seed
    expect(sampleUserCandidates(batch, 8, new Rng(3), V).sampled!.ids).toEqual(s.ids);
    expect(sampleUserCandidates(batch, 8, new Rng(4), V).sampled!.ids).not.toEqual(s.ids);
    // as many as the rest of the vocabulary: all of it, nothing corrected
    const all = sampleUserCandidates(batch, 1000, new Rng(3), V).sampled!;
    expect(Array.from(all.ids)).toEqual([...Array(V).keys()]);
    expect(all.logQ.every((x) => x === 0)).toBe(true);
    expect(() => sampleUserCandidates(batch, 0, new Rng(1), V)).toThrow(/positive integer/);
    expect(() => sampleUserCandidates(packBatch(samples, 16), 8, new Rng(1), V)).toThrow(/userRows/);
  });
});

describe("the sampled softmax in the model", () => {
  const model = new Llama(c, initParams(c, 2));

  function gradients(batch: ReturnType<typeof packBatch>) {
    const g = model.params.like();
    const r = model.forwardBackward(batch, g);
    return { ...r, flat: g.flat };
  }

  it("is the full softmax when the candidates are the whole vocabulary (packed and padded)", () => {
    for (const batch of [
      packBatch(samples, 16, { userRows: true }),
      padBatch(samples, 12, 0, { userRows: true }),
    ]) {
      const full = gradients(batch);
      const whole = gradients(sampleUserCandidates(batch, V, new Rng(1), V));
      expect(whole.count).toBe(full.count);
      expect(whole.loss).toBeCloseTo(full.loss, 5);
      let worst = 0;
      for (let i = 0; i < full.flat.length; i++)
        worst = Math.max(worst, Math.abs(full.flat[i]! - whole.flat[i]!));
      expect(worst).toBeLessThan(1e-6);
      expect(full.flat.some((x) => x !== 0)).toBe(true);
    }
  });

  it("trains the head rows of the candidates alone from the user rows, and refuses loss weights", () => {
    // only the user's words in the loss: the head's gradient is zero outside the candidates
    const userOnly = samples.map((s) => ({ ...s, lossMask: s.droppable }));
    const batch = sampleUserCandidates(packBatch(userOnly, 16, { userRows: true }), 4, new Rng(2), V);
    const g = model.params.like();
    const r = model.forwardBackward(batch, g);
    expect(Number.isFinite(r.loss)).toBe(true);
    const head = g.get("lm_head.weight");
    const d = c.hiddenSize;
    const candidates = new Set(batch.sampled!.ids);
    for (let id = 0; id < V; id++) {
      const row = head.subarray(id * d, (id + 1) * d);
      expect(
        row.some((x) => x !== 0),
        `row ${id}`,
      ).toBe(candidates.has(id));
    }
    const weighted = { ...batch, weights: new Float32Array(batch.T).fill(1) };
    expect(() => model.forwardBackward(weighted, g)).toThrow(/loss weights and a sampled softmax/);
  });

  it("trains through the trainer option, and refuses a bad count or a thinned user loss beside it", async () => {
    const m = new Llama(c, initParams(c, 1));
    const data = { kind: "samples" as const, samples, padId: 0 };
    const { losses } = await train(m, data, {
      steps: 30,
      batchSize: 4,
      lr: 1e-2,
      seed: 4,
      tokenDropout: 0.2,
      userLossSamples: 8,
    });
    expect(losses.every(Number.isFinite)).toBe(true);
    expect(losses.at(-1)!).toBeLessThan(losses[0]!);
    const opts = { steps: 1, batchSize: 4, lr: 1e-2, seed: 4 };
    for (const bad of [0, 2.5, -1])
      await expect(train(m, data, { ...opts, userLossSamples: bad })).rejects.toThrow(
        /userLossSamples must be a positive integer/,
      );
    await expect(train(m, data, { ...opts, userLossSamples: 8, userLossFraction: 0.5 })).rejects.toThrow(
      /do not combine/,
    );
  });
});
