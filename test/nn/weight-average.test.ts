import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadCheckpoint, loadTrainingState, saveCheckpoint } from "../../src/nn/checkpoint.ts";
import { presetConfig } from "../../src/nn/config.ts";
import { Llama } from "../../src/nn/llama.ts";
import { initParams } from "../../src/nn/params.ts";
import { train, type TrainData } from "../../src/nn/train/trainer.ts";

const root = mkdtempSync(join(tmpdir(), "toolgen-avg-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const cfg = presetConfig("tiny", 20, {
  hiddenSize: 16,
  intermediateSize: 32,
  numLayers: 2,
  numHeads: 2,
  maxPositions: 16,
});
const data: TrainData = {
  kind: "stream",
  tokens: Int32Array.from({ length: 200 }, (_, i) => (i * 7) % 20),
  seqLen: 8,
};
const opts = { steps: 8, batchSize: 2, lr: 5e-3, seed: 4 };

describe("tail weight averaging", () => {
  it("returns the mean of the weights after each of the last updates", async () => {
    const model = new Llama(cfg, initParams(cfg, 1));
    const snapshots: Float32Array[] = [];
    await train(model, data, {
      ...opts,
      averageLast: 0.25,
      onStep: (info) => {
        if (info.step > 6) snapshots.push(model.params.flat.slice());
      },
    });
    expect(snapshots).toHaveLength(2);
    const mean = snapshots[0]!.map((v, i) => (v + snapshots[1]![i]!) / 2);
    for (let i = 0; i < mean.length; i += 97) expect(model.params.flat[i]).toBeCloseTo(mean[i]!, 6);
    // the last weights alone are not what is returned
    expect(model.params.flat).not.toEqual(snapshots[1]);
  });

  it("0 keeps the last weights; a fraction outside [0, 1) is refused before training", async () => {
    const plain = new Llama(cfg, initParams(cfg, 1));
    const zero = new Llama(cfg, initParams(cfg, 1));
    await train(plain, data, opts);
    await train(zero, data, { ...opts, averageLast: 0 });
    expect(zero.params.flat).toEqual(plain.params.flat);
    const before = zero.params.flat.slice();
    await expect(train(zero, data, { ...opts, averageLast: 1 })).rejects.toThrow(
      /averageLast must be in \[0, 1\)/,
    );
    expect(zero.params.flat).toEqual(before);
  });

  it("resumes exactly from a checkpoint taken while averaging", async () => {
    const avg = { ...opts, averageLast: 0.5 };
    const straight = new Llama(cfg, initParams(cfg, 1));
    await train(straight, data, avg);

    const first = new Llama(cfg, initParams(cfg, 1));
    const dir = join(root, "mid");
    const ctl = new AbortController();
    await train(first, data, {
      ...avg,
      signal: ctl.signal,
      onStep: (info, optimizer) => {
        if (info.step === 6) {
          saveCheckpoint(dir, first, { optimizer });
          ctl.abort();
        }
      },
    });
    const loaded = loadCheckpoint(dir);
    const { optimizer, state } = loadTrainingState(loaded);
    expect(state.averaged).toBe(2);
    await train(loaded.model, data, { ...avg, optimizer });
    expect(loaded.model.params.flat).toEqual(straight.params.flat);
  });
});
