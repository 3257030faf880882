import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BuiltinTokenModel } from "../../src/models/builtin.ts";
import { trainOnText, type TextTrainingOptions } from "../../src/nn/train/text.ts";

const root = mkdtempSync(join(tmpdir(), "toolgen-cli-train-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const textFile = join(root, "corpus.txt");
writeFileSync(
  textFile,
  Array.from(
    { length: 40 },
    (_, i) => `Paragraph ${i}: the weather tool returns the temperature in Lisbon.\n\n`,
  ).join(""),
);
const base: TextTrainingOptions = {
  text: textFile,
  out: "",
  preset: "tiny",
  steps: 4,
  seed: 3,
  resume: false,
  vocabSize: 300,
  batchSize: 2,
  seqLen: 16,
  lr: 3e-3,
  saveEvery: 0,
  progress: false,
};

describe("toolgen train --text", () => {
  it("the CLI trains a tiny model into a loadable checkpoint and prints one JSON object", () => {
    const out = join(root, "cli");
    const stdout = execFileSync(
      process.execPath,
      [
        "bin/toolgen.mjs",
        "train",
        "--text",
        textFile,
        "--out",
        out,
        "--steps",
        "3",
        "--seq-len",
        "16",
        "--batch-size",
        "2",
        "--vocab-size",
        "300",
        "--json",
      ],
      { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
    );
    const result = JSON.parse(stdout);
    expect(result).toMatchObject({ steps: 3, preset: "tiny", out });
    expect(Number.isFinite(result.finalLoss)).toBe(true);
    const m = BuiltinTokenModel.load(out);
    expect(m.detokenize(m.tokenize("the weather tool"))).toBe("the weather tool");
    expect(JSON.parse(readFileSync(join(out, "config.json"), "utf8")).hidden_size).toBe(128);
  }, 60_000);

  it("a resumed run ends with the same weights as an uninterrupted one", async () => {
    const a = join(root, "a");
    const b = join(root, "b");
    await trainOnText({ ...base, out: a });
    await trainOnText({ ...base, out: b, steps: 2 });
    const resumed = await trainOnText({ ...base, out: b, resume: true });
    expect(resumed.resumedFromStep).toBe(2);
    expect(
      readFileSync(join(b, "model.safetensors")).equals(readFileSync(join(a, "model.safetensors"))),
    ).toBe(true);
    await expect(trainOnText({ ...base, out: b, resume: true, steps: 6, seed: 4 })).rejects.toThrow(
      /seed was 3, now 4/,
    );
    await expect(trainOnText({ ...base, out: b, resume: true })).rejects.toThrow(/already at step 4/);
    await expect(trainOnText({ ...base, out: b, text: join(root, "none.txt") })).rejects.toThrow(
      /is not a file/,
    );
  }, 60_000);
});

describe("interrupting a run", () => {
  it("stops at the signal, writes a resumable checkpoint, and resuming finishes like an uninterrupted run", async () => {
    const { trainWithCheckpoints, resumeRun } = await import("../../src/nn/train/run.ts");
    const { presetConfig } = await import("../../src/nn/config.ts");
    const { Llama } = await import("../../src/nn/llama.ts");
    const { initParams } = await import("../../src/nn/params.ts");
    const { Tokenizer } = await import("../../src/nn/tokenizer/index.ts");
    const tok = Tokenizer.train(["a b c d e f g"], 270);
    const c = presetConfig("tiny", tok.vocabSize, {
      hiddenSize: 16,
      intermediateSize: 32,
      numLayers: 1,
      numHeads: 2,
      maxPositions: 16,
    });
    const data = {
      kind: "stream" as const,
      tokens: Int32Array.from({ length: 100 }, (_, i) => (i * 5) % 20),
      seqLen: 8,
    };
    const opts = { steps: 5, batchSize: 2, lr: 1e-3, seed: 2, progress: false, saveEvery: 0 };
    const full = join(root, "int-full");
    await trainWithCheckpoints(new Llama(c, initParams(c, 1)), tok, data, { ...opts, out: full });
    const out = join(root, "int");
    const stop = new AbortController();
    const r = await trainWithCheckpoints(new Llama(c, initParams(c, 1)), tok, data, {
      ...opts,
      out,
      signal: stop.signal,
      onStep: (info) => info.step === 2 && stop.abort(),
    });
    expect(r).toMatchObject({ steps: 2, interrupted: true });
    const resumed = resumeRun(out, { seed: 2, batchSize: 2, lr: 1e-3 });
    expect(resumed.optimizer.step).toBe(2);
    const r2 = await trainWithCheckpoints(resumed.model, resumed.tokenizer, data, {
      ...opts,
      out,
      optimizer: resumed.optimizer,
    });
    expect(r2).toMatchObject({ steps: 5, interrupted: false });
    expect(
      readFileSync(join(out, "model.safetensors")).equals(readFileSync(join(full, "model.safetensors"))),
    ).toBe(true);
  });
});
