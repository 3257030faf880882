import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { loadCheckpoint, loadTrainingState, saveCheckpoint } from "../../src/nn/checkpoint.ts";
import { gemmFamily, kernels, referenceKernels, useKernels } from "../../src/nn/kernels/index.ts";
import { presetConfig } from "../../src/nn/config.ts";
import { decodeSafetensors, encodeSafetensors } from "../../src/nn/io/safetensors.ts";
import { Llama, type Batch } from "../../src/nn/llama.ts";
import { initParams } from "../../src/nn/params.ts";
import { resizeVocab } from "../../src/nn/resize.ts";
import { Tokenizer } from "../../src/nn/tokenizer/index.ts";
import { train, type TrainData } from "../../src/nn/train/trainer.ts";

const root = mkdtempSync(join(tmpdir(), "toolgen-ckpt-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const fresh = () => join(root, `c${n++}`);

const cfg = (vocab: number) =>
  presetConfig("tiny", vocab, {
    hiddenSize: 16,
    intermediateSize: 32,
    numLayers: 2,
    numHeads: 2,
    maxPositions: 16,
  });
const batch: Batch = {
  B: 1,
  T: 6,
  tokens: Int32Array.from([1, 5, 2, 7, 3, 4]),
  targets: Int32Array.from([5, 2, 7, 3, 4, 1]),
  positions: Int32Array.from([0, 1, 2, 3, 4, 5]),
};
const data: TrainData = {
  kind: "stream",
  tokens: Int32Array.from({ length: 200 }, (_, i) => (i * 7) % 20),
  seqLen: 8,
};

describe("safetensors", () => {
  it("round-trips float32 tensors and metadata with an 8-byte aligned header", () => {
    const buf = encodeSafetensors(
      [{ name: "a", shape: [2, 2], data: Float32Array.from([1, -2, 3.5, 1e-8]) }],
      { step: "3" },
    );
    expect(Number(buf.readBigUInt64LE(0)) % 8).toBe(0);
    const { tensors, metadata } = decodeSafetensors(buf);
    expect(Array.from(tensors.get("a")!.data)).toEqual(Array.from(Float32Array.from([1, -2, 3.5, 1e-8])));
    expect(metadata).toEqual({ step: "3" });
  });

  it("reads BF16 and F16", () => {
    const header = JSON.stringify({
      b: { dtype: "BF16", shape: [2], data_offsets: [0, 4] },
      h: { dtype: "F16", shape: [2], data_offsets: [4, 8] },
    });
    const buf = Buffer.alloc(8 + header.length + 8);
    buf.writeBigUInt64LE(BigInt(header.length));
    buf.write(header, 8);
    const d = 8 + header.length;
    buf.writeUInt16LE(0x3fc0, d); // bf16 1.5
    buf.writeUInt16LE(0xc000, d + 2); // bf16 -2
    buf.writeUInt16LE(0x3c00, d + 4); // f16 1
    buf.writeUInt16LE(0xb800, d + 6); // f16 -0.5
    const { tensors } = decodeSafetensors(buf);
    expect(Array.from(tensors.get("b")!.data)).toEqual([1.5, -2]);
    expect(Array.from(tensors.get("h")!.data)).toEqual([1, -0.5]);
  });

  it("rejects truncated, garbled and inconsistent files with the reason", () => {
    const good = encodeSafetensors([{ name: "a", shape: [4], data: new Float32Array(4) }]);
    expect(() => decodeSafetensors(good.subarray(0, good.length - 4), "x")).toThrow(
      /past the end of the file/,
    );
    expect(() => decodeSafetensors(good.subarray(0, 5), "x")).toThrow(/shorter than the 8-byte/);
    const garbled = Buffer.from(good);
    garbled[9] = 0x7b;
    garbled[10] = 0x7b;
    expect(() => decodeSafetensors(garbled, "x")).toThrow(/header is not JSON/);
    const huge = Buffer.from(good);
    huge.writeBigUInt64LE(10n ** 12n);
    expect(() => decodeSafetensors(huge, "x")).toThrow(/exceeds the file size/);
    expect(() => decodeSafetensors(Buffer.concat([good, Buffer.alloc(4)]), "x")).toThrow(
      /after the last tensor/,
    );
  });
});

describe("checkpoints", () => {
  it("save → load gives identical logits, with config.json in HF field names and the tokenizer", () => {
    const tok = Tokenizer.train(["hello world, hello tools"], 300, { specialTokens: ["<|eot|>"] });
    const model = new Llama(cfg(tok.vocabSize), initParams(cfg(tok.vocabSize), 4));
    const dir = fresh();
    saveCheckpoint(dir, model, { tokenizer: tok });
    const config = JSON.parse(readFileSync(join(dir, "config.json"), "utf8"));
    expect(config).toMatchObject({
      model_type: "llama",
      hidden_size: 16,
      num_hidden_layers: 2,
      vocab_size: tok.vocabSize,
    });
    const loaded = loadCheckpoint(dir);
    expect(loaded.model.logits(batch)).toEqual(model.logits(batch));
    expect(loaded.tokenizer!.encode("hello tools")).toEqual(tok.encode("hello tools"));
    expect(readdirSync(dir).filter((f) => f.includes(".tmp-"))).toEqual([]);
  });

  it("rejects missing, corrupt and mismatched files clearly", () => {
    const model = new Llama(cfg(20), initParams(cfg(20), 4));
    const dir = fresh();
    saveCheckpoint(dir, model);
    expect(() => loadCheckpoint(join(root, "nope"))).toThrow(/does not exist/);
    const st = join(dir, "model.safetensors");
    const bytes = readFileSync(st);
    writeFileSync(st, bytes.subarray(0, bytes.length - 10));
    expect(() => loadCheckpoint(dir)).toThrow(/model.safetensors: not a valid safetensors file/);
    writeFileSync(st, bytes);
    const conf = join(dir, "config.json");
    const c = JSON.parse(readFileSync(conf, "utf8"));
    writeFileSync(conf, JSON.stringify({ ...c, hidden_size: 32, intermediate_size: 64 }));
    expect(() => loadCheckpoint(dir)).toThrow(/has shape \[20,16\], config.json implies \[20,32\]/);
    writeFileSync(conf, JSON.stringify({ ...c, num_hidden_layers: 1 }));
    expect(() => loadCheckpoint(dir)).toThrow(/unexpected tensor model.layers.1/);
    writeFileSync(conf, "{ not json");
    expect(() => loadCheckpoint(dir)).toThrow(/config.json: cannot read as JSON/);
    writeFileSync(conf, JSON.stringify({ ...c, num_key_value_heads: 1 }));
    expect(() => loadCheckpoint(dir)).toThrow(/grouped-query attention/);
  });

  it("resumes training exactly: 3 + 3 steps equal 6 steps, and same seed gives the same file", async () => {
    const opts = { steps: 6, batchSize: 2, lr: 5e-3, seed: 9 };
    const straight = new Llama(cfg(20), initParams(cfg(20), 1));
    await train(straight, data, opts);

    const first = new Llama(cfg(20), initParams(cfg(20), 1));
    const dir = fresh();
    const ctl = new AbortController();
    await train(first, data, {
      ...opts,
      signal: ctl.signal,
      onStep: (info, optimizer) => {
        if (info.step === 3) {
          saveCheckpoint(dir, first, { optimizer, trainOptions: opts });
          ctl.abort();
        }
      },
    });
    const loaded = loadCheckpoint(dir);
    const { optimizer, state } = loadTrainingState(loaded);
    expect(state.step).toBe(3);
    // the kernels' family that fixes the bits is recorded (TOOLGEN_KERNELS=native would give other bits)
    expect(state.gemm).toBe(gemmFamily(kernels().name));
    expect(["wasm", "reference"]).toContain(state.gemm);
    await train(loaded.model, data, { ...opts, optimizer });
    expect(loaded.model.params.flat).toEqual(straight.params.flat);

    const again = new Llama(cfg(20), initParams(cfg(20), 1));
    await train(again, data, opts);
    const a = fresh();
    const b = fresh();
    saveCheckpoint(a, straight);
    saveCheckpoint(b, again);
    expect(
      readFileSync(join(a, "model.safetensors")).equals(readFileSync(join(b, "model.safetensors"))),
    ).toBe(true);
  });

  it("resuming a checkpoint trained with other kernels says so on stderr, and continues", async () => {
    const model = new Llama(cfg(20), initParams(cfg(20), 1));
    const dir = fresh();
    await train(model, data, {
      steps: 1,
      batchSize: 1,
      lr: 1e-3,
      seed: 1,
      onStep: (_info, optimizer) => saveCheckpoint(dir, model, { optimizer }),
    });
    const file = join(dir, "trainer_state.json");
    const ours = gemmFamily(kernels().name);
    const other = ours === "native" ? "wasm" : "native";
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, "utf8")), gemm: other }));
    const err = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      expect(loadTrainingState(loadCheckpoint(dir)).state.step).toBe(1);
      const said = err.mock.calls.map((c) => String(c[0])).join("");
      expect(said).toMatch(
        new RegExp(
          `trained with the ${other} matrix products, this run uses ${ours}.*not byte for byte.*--kernels`,
        ),
      );
    } finally {
      err.mockRestore();
    }
  });

  it("refuses to resume from files of different steps", async () => {
    const model = new Llama(cfg(20), initParams(cfg(20), 1));
    const dir = fresh();
    await train(model, data, {
      steps: 2,
      batchSize: 1,
      lr: 1e-3,
      seed: 1,
      onStep: (info, optimizer) => {
        if (info.step === 1) saveCheckpoint(dir, model, { optimizer });
        else saveCheckpoint(dir, model); // weights only: a later step than the optimizer file
      },
    });
    expect(() => loadTrainingState(loadCheckpoint(dir))).toThrow(/different steps/);
    expect(existsSync(join(dir, "optimizer.safetensors"))).toBe(true);
  });
});

describe("vocabulary resize", () => {
  it("keeps existing rows and initialises new rows by the rule", () => {
    const model = new Llama(cfg(20), initParams(cfg(20), 2));
    const bigger = resizeVocab(model, 23, { kind: "mean", of: (id) => (id === 20 ? [3, 5] : []) });
    const d = 16;
    for (const name of ["model.embed_tokens.weight", "lm_head.weight"]) {
      const old = model.params.get(name);
      const now = bigger.params.get(name);
      expect(now.subarray(0, 20 * d)).toEqual(old);
      for (let i = 0; i < d; i++)
        expect(now[20 * d + i]).toBeCloseTo((old[3 * d + i] + old[5 * d + i]) / 2, 6);
      let mean = 0;
      for (let r = 0; r < 20; r++) mean += old[r * d] / 20;
      expect(now[21 * d]).toBeCloseTo(mean, 6);
    }
    expect(bigger.config.vocabSize).toBe(23);
    // the old vocabulary's logits are unchanged
    const l0 = model.logits(batch);
    const l1 = bigger.logits(batch);
    for (let t = 0; t < 6; t++)
      for (let v = 0; v < 20; v++) expect(l1[t * 23 + v]).toBeCloseTo(l0[t * 20 + v], 5);
    const custom = resizeVocab(model, 21, (_id, row) => row.fill(0.25));
    expect(custom.params.get("lm_head.weight")[20 * d]).toBe(0.25);
    expect(() => resizeVocab(model, 10, { kind: "normal" })).toThrow(/≥ the current vocabulary/);
    expect(() => new Llama(cfg(21), model.params)).toThrow(/model.embed_tokens.weight should be \[21,16\]/);
    expect(() => resizeVocab(model, 21, { kind: "mean", of: () => [99] })).toThrow(/not an existing token/);
  });

  it("names the kernels' family that fixes the bits, whatever the thread count", () => {
    expect(gemmFamily("wasm-simd")).toBe("wasm");
    expect(gemmFamily("wasm-simd-2threads")).toBe("wasm");
    expect(gemmFamily("native-gemm-avx512+wasm-simd-2threads")).toBe("native");
    expect(gemmFamily("native-gemm-avx2+wasm-simd")).toBe("native");
    expect(gemmFamily("js-reference")).toBe("reference");
  });

  it("says so when a run resumes on kernels of another family (other bits than an uninterrupted run)", async () => {
    const model = new Llama(cfg(20), initParams(cfg(20), 1));
    const { optimizer } = await train(model, data, { steps: 1, batchSize: 2, lr: 5e-3, seed: 9 });
    const dir = fresh();
    saveCheckpoint(dir, model, { optimizer });
    const recorded = gemmFamily(kernels().name);
    const write = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const previous = useKernels(recorded === "reference" ? kernels() : referenceKernels);
    try {
      loadTrainingState(loadCheckpoint(dir));
      const said = write.mock.calls.map((c) => String(c[0])).join("");
      if (recorded === "reference") expect(said).toBe("");
      else expect(said).toMatch(/trained with the wasm matrix products, this run uses reference/);
    } finally {
      if (previous) useKernels(previous);
      write.mockRestore();
    }
  });
});
