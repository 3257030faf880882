import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { presetConfig } from "../../src/nn/config.ts";
import { Llama } from "../../src/nn/llama.ts";
import { initParams } from "../../src/nn/params.ts";
import { Rng } from "../../src/nn/rng.ts";
import { packBatch, padBatch, thinUserLoss, type Sample } from "../../src/nn/train/batches.ts";
import { train } from "../../src/nn/train/trainer.ts";
import { readManifest } from "../../src/toolgen/model-folder.ts";
import { trainToolGen } from "../../src/train/pipeline.ts";
import type { StageSchedule } from "../../src/train/schedule.ts";
import { syntheticCatalog } from "../helpers/synthetic.ts";
import { tinyToolGenOptions } from "../helpers/tiny-toolgen.ts";

// a query of 8 words (droppable, all targets: a user loss) and a tool token (the assistant's target)
const sample: Sample = {
  ids: [1, 10, 11, 12, 13, 14, 15, 16, 17, 2, 30, 3],
  lossMask: [0, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1],
  droppable: [0, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0],
};

describe("user-loss thinning", () => {
  it("keeps about the fraction of the user's targets and every other target, the same per seed", () => {
    const rng = new Rng(9);
    let kept = 0;
    for (let i = 0; i < 2000; i++) {
      const out = thinUserLoss(sample, 0.25, rng);
      expect(out.ids).toBe(sample.ids);
      const mask = Array.from(out.lossMask!);
      expect(mask.slice(-2)).toEqual([1, 1]);
      expect(mask[0]).toBe(0);
      expect(mask[9]).toBe(0);
      kept += mask.slice(1, 9).filter(Boolean).length;
    }
    expect(kept / (2000 * 8)).toBeGreaterThan(0.23);
    expect(kept / (2000 * 8)).toBeLessThan(0.27);
    expect(thinUserLoss(sample, 0.5, new Rng(4))).toEqual(thinUserLoss(sample, 0.5, new Rng(4)));
  });

  it("leaves a sample whose targets would all go one of them, and a fraction of 1 changes nothing", () => {
    const userOnly: Sample = { ...sample, lossMask: sample.droppable };
    for (let seed = 0; seed < 50; seed++) {
      const mask = Array.from(thinUserLoss(userOnly, 0.01, new Rng(seed)).lossMask!);
      expect(mask.filter(Boolean)).toHaveLength(1);
    }
    expect(thinUserLoss(sample, 1, new Rng(1))).toBe(sample);
    expect(() => thinUserLoss({ ids: [1, 2], lossMask: [0, 1], droppable: [1] }, 0.5, new Rng(1))).toThrow(
      /droppable \(1\)/,
    );
  });

  const c = presetConfig("tiny", 40, {
    hiddenSize: 32,
    intermediateSize: 96,
    numLayers: 1,
    numHeads: 2,
    maxPositions: 16,
  });
  const samples = Array.from({ length: 8 }, (_, i) => ({
    ...sample,
    ids: sample.ids.map((x) => (x + i) % 40),
  }));
  async function headRows(userLossFraction?: number): Promise<number> {
    const model = new Llama(c, initParams(c, 1));
    let rows = 0;
    const forwardBackward = model.forwardBackward.bind(model);
    model.forwardBackward = (batch, grads, o) => {
      const r = forwardBackward(batch, grads, o);
      rows += r.count;
      return r;
    };
    const data = { kind: "samples" as const, samples, padId: 0 };
    await train(model, data, {
      steps: 20,
      batchSize: 8,
      lr: 1e-2,
      seed: 4,
      tokenDropout: 0.3,
      userLossFraction,
    });
    return rows;
  }

  it("runs the LM head on fewer rows, and refuses a fraction outside (0, 1]", async () => {
    const full = await headRows();
    const thin = await headRows(0.25);
    expect(await headRows(1)).toBe(full);
    // the two tool-token targets stay; the ~5.6 user targets left by the dropout fall to about a quarter
    expect(thin).toBeLessThan(full * 0.5);
    expect(thin).toBeGreaterThan(20 * 8 * 2);
    for (const bad of [0, -0.5, 1.5, NaN]) await expect(headRows(bad)).rejects.toThrow(/userLossFraction/);
  });
});

describe("the userLossFraction stage option", () => {
  const { entries, queries } = syntheticCatalog();
  /** The folder's fingerprint for a retrieval stage with these options (training stopped before a step). */
  async function fingerprint(retrieval: Partial<StageSchedule>): Promise<string> {
    const out = mkdtempSync(join(tmpdir(), "toolgen-thin-"));
    const base = tinyToolGenOptions();
    const stopped = new AbortController();
    stopped.abort();
    await expect(
      trainToolGen({
        catalog: entries,
        queries,
        out,
        ...base,
        schedule: {
          ...base.schedule,
          stages: {
            ...base.schedule!.stages,
            retrieval: { ...base.schedule!.stages!.retrieval, ...retrieval },
          },
        },
        signal: stopped.signal,
      }),
    ).rejects.toThrow(/training stopped/);
    return readManifest(out)!.fingerprint;
  }

  it("enters the fingerprint only below 1, so folders trained without it keep theirs", async () => {
    const plain = await fingerprint({ userLoss: true });
    expect(await fingerprint({ userLoss: true, userLossFraction: 1 })).toBe(plain);
    const thinned = await fingerprint({ userLoss: true, userLossFraction: 0.25 });
    expect(thinned).not.toBe(plain);
    expect(await fingerprint({ userLoss: true, userLossFraction: 0.25, userLossReweight: true })).not.toBe(
      thinned,
    );
  });

  it("is refused outside (0, 1] or without the user loss, before the folder is written", async () => {
    for (const [retrieval, message] of [
      [{ userLoss: true, userLossFraction: 0 }, /user-loss fraction must be in \(0, 1\], got 0/],
      [{ userLoss: true, userLossFraction: 2 }, /got 2/],
      [{ userLoss: false, userLossFraction: 0.5 }, /needs the user loss/],
      [
        { userLoss: true, userLossReweight: true },
        /reweighting the user loss needs .* a user-loss fraction below 1/,
      ],
    ] as const) {
      const out = join(mkdtempSync(join(tmpdir(), "toolgen-thin-")), "model");
      const base = tinyToolGenOptions();
      await expect(
        trainToolGen({
          catalog: entries,
          queries,
          out,
          ...base,
          schedule: { ...base.schedule, stages: { ...base.schedule!.stages, retrieval } },
        }),
      ).rejects.toThrow(message);
      expect(readManifest(out)).toBeUndefined();
    }
  });
});

describe("loss weights (Batch.weights)", () => {
  const c = presetConfig("tiny", 40, {
    hiddenSize: 32,
    intermediateSize: 96,
    numLayers: 1,
    numHeads: 2,
    maxPositions: 16,
  });
  const model = new Llama(c, initParams(c, 2));
  const s: Sample = { ids: [1, 7, 9, 12, 5, 30, 3], lossMask: [0, 1, 1, 1, 0, 1, 1] };

  it("weigh a row as if it were counted that many times", () => {
    // row 2 (predicting ids[3]) weighs 3: the same loss and gradients as the sample with two more copies of
    // that one target
    const weighted = padBatch([{ ...s, lossWeight: [1, 1, 1, 3, 1, 1, 1] }], 7, 0);
    expect(Array.from(weighted.weights!)).toEqual([1, 1, 3, 1, 1, 1, 1]);
    const only = { ...s, lossMask: [0, 0, 0, 1, 0, 0, 0] };
    const copies = padBatch([s, only, only], 7, 0);
    const g1 = model.params.like();
    const g2 = model.params.like();
    const a = model.forwardBackward(weighted, g1);
    const b = model.forwardBackward(copies, g2);
    expect(a.loss).toBeCloseTo(b.loss, 5);
    let worst = 0;
    for (let i = 0; i < g1.flat.length; i++) worst = Math.max(worst, Math.abs(g1.flat[i]! - g2.flat[i]!));
    expect(worst).toBeLessThan(1e-5);
    expect(g1.flat.some((x) => x !== 0)).toBe(true);
    // packed the same way
    const packed = packBatch([{ ...s, lossWeight: [1, 1, 1, 3, 1, 1, 1] }], 7);
    expect(model.loss(packed).loss).toBeCloseTo(b.loss, 5);
  });

  it("reweighted thinning weighs each kept user word 1 / fraction and leaves the others at 1", () => {
    for (let seed = 0; seed < 20; seed++) {
      const out = thinUserLoss(sample, 0.25, new Rng(seed), true);
      const mask = Array.from(out.lossMask!);
      const w = Array.from(out.lossWeight!);
      w.forEach((x, i) => expect(x).toBe(mask[i] && sample.droppable![i] ? 4 : 1));
      // the same draws as without the weights
      expect(mask).toEqual(Array.from(thinUserLoss(sample, 0.25, new Rng(seed)).lossMask!));
    }
  });
});
