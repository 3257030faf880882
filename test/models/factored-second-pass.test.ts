import { describe, expect, it } from "vitest";
import { trainSoftmax, type SoftmaxGroup } from "../../src/models/factored/linear.ts";
import { holdFeatures } from "../../src/train/factored-train.ts";
import { NULL_BLOCK } from "../../src/models/factored/decide.ts";

// two candidates and a "leave it out" per group: feature 1 says which candidate is gold, feature 2 half the time
const groups = (): SoftmaxGroup[] =>
  Array.from({ length: 40 }, (_, g) => {
    const item = (gold: boolean) => ({ block: 0, x: Float32Array.from([1, gold ? 0.5 : 0, gold && g % 2 === 0 ? 1 : 0]) });
    return { items: [item(true), item(false), { block: NULL_BLOCK, x: Float32Array.from([1, 1, 1]) }], gold: [0] };
  });
const dims = [3, 3, 3, 3, 3, 3];
const opts = { epochs: 3, lr: 0.1, l2: 1e-5, seed: 7 };

describe("factored caller: a second pass in which only later features learn (--second-pass)", () => {
  it("trains the first pass as if the held features were not there, then puts them back", () => {
    const held = groups();
    const hold = holdFeatures(held, [2]);
    const without = groups().map((g) => ({ ...g, items: g.items.map((it) => ({ ...it, x: it.block === NULL_BLOCK ? it.x : Float32Array.from([it.x[0]!, it.x[1]!, 0]) })) }));
    expect(trainSoftmax(held, dims, opts).weights).toEqual(trainSoftmax(without, dims, opts).weights);
    // the null's features are never held
    expect(held[0]!.items[2]!.x[2]).toBe(1);
    hold.restore();
    expect(held.map((g) => g.items[0]!.x[2])).toEqual(groups().map((g) => g.items[0]!.x[2]));
  });

  it("starts the second pass from the first's weights and moves only the features it names", () => {
    const gs = groups();
    const hold = holdFeatures(gs, [2]);
    const first = trainSoftmax(gs, dims, opts);
    hold.restore();
    const second = trainSoftmax(gs, dims, { ...opts, init: first.weights, learn: new Set([2]) });
    first.weights.forEach((block, b) =>
      block.forEach((v, d) => {
        if (d !== 2) expect(second.weights[b]![d]).toBe(v);
      }),
    );
    expect(first.weights[0]![2]).toBe(0);
    expect(second.weights[0]![2]).toBeGreaterThan(0);
    // without `learn`, every weight moves from the start
    const all = trainSoftmax(gs, dims, { ...opts, init: first.weights });
    expect(all.weights[0]![1]).not.toBe(first.weights[0]![1]);
  });
});
