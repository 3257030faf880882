import { describe, expect, it } from "vitest";
import { trainSoftmax, type SoftmaxGroup } from "../../src/models/factored/linear.ts";
import { residualScore } from "../../src/models/factored/residual.ts";
import { groupLoss, residualGrid, trainResidual } from "../../src/train/residual-train.ts";

// two features; the gold item has exactly one of them on, against both on and both off (XOR): half the groups
// want feature 0 to raise a score, the other half want it to lower one, so no weight per feature can serve both
function xorGroups(n: number): SoftmaxGroup[] {
  const groups: SoftmaxGroup[] = [];
  for (let i = 0; i < n; i++) {
    const gold = i % 2 === 0 ? [1, 0, 1] : [0, 1, 1];
    const pair = [gold, [1, 1, 1], [0, 0, 1]].map((x) => ({ block: 0, x: Float32Array.from(x) }));
    // the gold one at a varying place, so order tells nothing
    const shift = i % 3;
    const items = [...pair.slice(shift), ...pair.slice(0, shift)];
    groups.push({ items: [...items, { block: 1, x: Float32Array.from([1]) }], gold: [items.indexOf(pair[0]!)] });
  }
  return groups;
}

describe("argument scorer residual", () => {
  it("scores v·relu(U x + b) and reads no feature past its width", () => {
    const r = { hidden: 2, dim: 2, u: [1, -1, -1, 1], b: [0, 0], v: [2, 3] };
    expect(residualScore(r, [1, 0])).toBe(2);
    expect(residualScore(r, [0, 1])).toBe(3);
    expect(residualScore(r, [1, 1])).toBe(0);
    expect(residualScore(r, [1, 0, 5])).toBe(2);
  });

  it("learns what the frozen linear scorer cannot: the XOR item", () => {
    const groups = xorGroups(300);
    const linear = trainSoftmax(groups, [3, 1], { epochs: 20, lr: 0.1, l2: 1e-5, seed: 1 }).weights;
    const before = groupLoss(groups, linear, 1);
    expect(before.top).toBeLessThan(60);
    const { residual } = trainResidual(groups, linear, 1, { hidden: 8, epochs: 20, l2: 1e-5, seed: 1 });
    const after = groupLoss(groups, linear, 1, residual);
    expect(before.loss).toBeGreaterThan(0.6);
    expect(after.loss).toBeLessThan(0.2);
    expect(after.top).toBe(100);
  });

  it("chooses hidden size, L2 and epochs on held-out groups, against the linear scorer alone", () => {
    const choice = residualGrid(xorGroups(200), [[0, 0, 0], [-5]], 1, 1, [4, 8], [1e-4], 3);
    expect(choice.tried).toHaveLength(6);
    expect(choice.heldLoss).toBeLessThan(choice.linearHeldLoss);
  });
});
