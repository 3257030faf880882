import { describe, expect, it } from "vitest";
import { presetConfig } from "../../src/nn/config.ts";
import { beamSearch, generateTokens, pickToken } from "../../src/nn/infer/decode.ts";
import { InferenceSession } from "../../src/nn/infer/session.ts";
import { logSoftmax } from "../../src/nn/layers/cross-entropy.ts";
import { Llama } from "../../src/nn/llama.ts";
import { initParams } from "../../src/nn/params.ts";
import { Rng } from "../../src/nn/rng.ts";

const V = 24;
const c = presetConfig("tiny", V, {
  hiddenSize: 16,
  intermediateSize: 40,
  numLayers: 2,
  numHeads: 2,
  maxPositions: 20,
  initStd: 0.3,
});
const model = new Llama(c, initParams(c, 5));

/** Logits at every position from the training forward (no cache). */
function fullLogits(ids: number[]): Float32Array {
  const T = ids.length;
  return model.logits({
    B: 1,
    T,
    tokens: Int32Array.from(ids),
    targets: new Int32Array(T).fill(-1),
    positions: Int32Array.from({ length: T }, (_, i) => i),
  });
}

function expectClose(a: Float32Array, b: Float32Array, tol = 1e-4): void {
  expect(a.length).toBe(b.length);
  for (let i = 0; i < a.length; i++) expect(Math.abs(a[i] - b[i])).toBeLessThan(tol);
}

describe("KV-cache inference", () => {
  const ids = [3, 1, 4, 1, 5, 9, 2, 6];

  it("matches the training forward, whether fed at once or token by token", () => {
    const full = fullLogits(ids);
    const s1 = new InferenceSession(model);
    expectClose(s1.append(ids, true), full);
    const s2 = new InferenceSession(model);
    s2.append(ids.slice(0, 3));
    for (let t = 3; t < ids.length; t++) expectClose(s2.append([ids[t]]), full.subarray(t * V, (t + 1) * V));
    expect(s2.length).toBe(ids.length);
  });

  it("matches the training forward past one attention query block (T = 150)", () => {
    const long = presetConfig("tiny", V, {
      hiddenSize: 16,
      intermediateSize: 40,
      numLayers: 1,
      numHeads: 2,
      maxPositions: 160,
    });
    const m = new Llama(long, initParams(long, 6));
    const seq = Array.from({ length: 150 }, (_, i) => (i * 7) % V);
    const full = m.logits({
      B: 1,
      T: 150,
      tokens: Int32Array.from(seq),
      targets: new Int32Array(150).fill(-1),
      positions: Int32Array.from(seq.keys()),
    });
    expectClose(new InferenceSession(m).append(seq, true), full);
  });

  it("logitsAt equals the matching rows of the full logits", () => {
    const full = fullLogits(ids);
    const at = model.logitsAt(
      {
        B: 1,
        T: ids.length,
        tokens: Int32Array.from(ids),
        targets: new Int32Array(ids.length).fill(-1),
        positions: Int32Array.from(ids.keys()),
      },
      [7, 2],
    );
    expectClose(at.subarray(0, V), full.subarray(7 * V, 8 * V), 1e-6);
    expectClose(at.subarray(V), full.subarray(2 * V, 3 * V), 1e-6);
  });

  it("forks are independent copies of the cache", () => {
    const s = new InferenceSession(model);
    s.append(ids.slice(0, 4));
    const f = s.fork();
    const a = s.append([7]);
    const b = f.append([8]);
    expectClose(a, fullLogits([...ids.slice(0, 4), 7]).subarray(4 * V));
    expectClose(b, fullLogits([...ids.slice(0, 4), 8]).subarray(4 * V));
    f.dispose();
    expect(() => f.append([1])).toThrow(/disposed/);
    s.dispose();
  });

  it("refuses to run past the context or with unknown ids", () => {
    const s = new InferenceSession(model);
    expect(() => s.append(new Array(21).fill(1))).toThrow(/context full/);
    expect(() => s.append([V])).toThrow(/outside the vocabulary/);
  });
});

describe("decoding", () => {
  it("greedy picks the argmax, respects the allowed set, stops at a stop id", () => {
    const logits = Float32Array.from([0.1, 2, -1, 1.5]);
    expect(pickToken(logits, {}, new Rng(1))).toBe(1);
    expect(pickToken(logits, {}, new Rng(1), [0, 3])).toBe(3);
    const prompt = [2, 3];
    const { ids } = generateTokens(new InferenceSession(model), prompt, { maxTokens: 5 });
    let ctx = [...prompt];
    for (const id of ids) {
      const l = fullLogits(ctx).subarray((ctx.length - 1) * V);
      expect(id).toBe(l.indexOf(Math.max(...l)));
      ctx = [...ctx, id];
    }
    const stopped = generateTokens(new InferenceSession(model), prompt, { maxTokens: 5, stopIds: [ids[1]] });
    expect(stopped).toEqual({ ids: ids.slice(0, 2), finishReason: "stop" });
  });

  it("samples with temperature and top-p in proportion to the probabilities, reproducibly for a seed", () => {
    const logits = Float32Array.from([Math.log(0.5), Math.log(0.3), Math.log(0.15), Math.log(0.05)]);
    const rng = new Rng(3);
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < 4000; i++) counts[pickToken(logits, { temperature: 1 }, rng)]++;
    expect(counts[0] / 4000).toBeCloseTo(0.5, 1);
    expect(counts[3] / 4000).toBeCloseTo(0.05, 1);
    const nucleus = new Set<number>();
    for (let i = 0; i < 500; i++) nucleus.add(pickToken(logits, { temperature: 1, topP: 0.75 }, rng));
    expect([...nucleus].sort()).toEqual([0, 1]);
    const a = generateTokens(new InferenceSession(model), [1], { maxTokens: 6, temperature: 1, seed: 4 });
    const b = generateTokens(new InferenceSession(model), [1], { maxTokens: 6, temperature: 1, seed: 4 });
    expect(a).toEqual(b);
  });

  it("beam search: width 1 is greedy; scores are the sequences' true log-probabilities, best first", () => {
    const prompt = [4, 2];
    const greedy = generateTokens(new InferenceSession(model), prompt, { maxTokens: 4 }).ids;
    expect(beamSearch(model, prompt, { beams: 1, maxTokens: 4 })[0].ids).toEqual(greedy);
    const beams = beamSearch(model, prompt, { beams: 4, maxTokens: 4, lengthPenalty: 0 });
    expect(beams).toHaveLength(4);
    for (const b of beams) {
      const all = fullLogits([...prompt, ...b.ids]);
      let lp = 0;
      b.ids.forEach(
        (id, i) => (lp += logSoftmax(all.subarray((prompt.length - 1 + i) * V, (prompt.length + i) * V))[id]),
      );
      expect(b.logProb).toBeCloseTo(lp, 4);
    }
    for (let i = 1; i < beams.length; i++) expect(beams[i - 1].score).toBeGreaterThanOrEqual(beams[i].score);
    const greedyLp = beamSearch(model, prompt, { beams: 1, maxTokens: 4, lengthPenalty: 0 })[0].logProb;
    expect(beams[0].logProb).toBeGreaterThanOrEqual(greedyLp - 1e-6);
  });
});
