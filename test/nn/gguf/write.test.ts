import { readFileSync } from "node:fs";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gguf } from "@huggingface/gguf";
import { beforeAll, describe, expect, it } from "vitest";
import { fromHalf, permuteRopeRows, toHalf, ggufTensorName } from "../../../src/nn/gguf/index.ts";
import { exportCheckpointToGguf } from "../../../src/nn/gguf/export.ts";
import {
  CHATML,
  SPECIALS,
  TOOL_TOKENS,
  trainedFixture,
  type TrainedFixture,
} from "../../helpers/gguf-fixture.ts";

describe("f16 conversion", () => {
  it("round-trips exactly representable values and rounds to nearest even", () => {
    for (const x of [0, 1, -2, 0.5, 65504, -65504, 2 ** -14, 2 ** -24, 1.5, 3.140625])
      expect(fromHalf(toHalf(x))).toBe(x);
    expect(toHalf(1 + 2 ** -11)).toBe(toHalf(1)); // a tie rounds to the even mantissa
    expect(toHalf(1 + 3 * 2 ** -11)).toBe(toHalf(1 + 2 ** -9));
    expect(fromHalf(toHalf(1e6))).toBe(Infinity);
    expect(fromHalf(toHalf(65520))).toBe(Infinity);
    expect(Number.isNaN(fromHalf(toHalf(NaN)))).toBe(true);
    expect(fromHalf(toHalf(1e-9))).toBe(0);
    for (const x of [0.1, -0.3333, 123.456, 1e-5, 7e-7])
      expect(Math.abs(fromHalf(toHalf(x)) - x)).toBeLessThanOrEqual(Math.abs(x) * 2 ** -11 + 2 ** -25);
  });
});

describe("tensor names and RoPE permutation", () => {
  it("maps HF Llama names to llama.cpp names", () => {
    expect(ggufTensorName("model.embed_tokens.weight")).toBe("token_embd.weight");
    expect(ggufTensorName("model.layers.3.self_attn.k_proj.weight")).toBe("blk.3.attn_k.weight");
    expect(ggufTensorName("model.layers.0.mlp.down_proj.weight")).toBe("blk.0.ffn_down.weight");
    expect(ggufTensorName("lm_head.weight")).toBe("output.weight");
    expect(() => ggufTensorName("model.layers.0.self_attn.q_proj.bias")).toThrow(/no llama.cpp name/);
  });

  it("interleaves the two halves of each head", () => {
    // 2 heads of dim 4, 1 column: rows [h0: a0 a1 b0 b1, h1: c0 c1 d0 d1] -> [a0 b0 a1 b1, c0 d0 c1 d1]
    const rows = Float32Array.from([0, 1, 10, 11, 20, 21, 30, 31]);
    expect(Array.from(permuteRopeRows(rows, 2, 4, 1))).toEqual([0, 10, 1, 11, 20, 30, 21, 31]);
  });
});

describe("GGUF writer", () => {
  let fx: TrainedFixture;
  let dir: string;
  beforeAll(async () => {
    fx = await trainedFixture(2);
    dir = mkdtempSync(join(tmpdir(), "gguf-out-"));
  });

  it("writes a file that @huggingface/gguf reads back: hparams, tokenizer, chat template, tensors", async () => {
    const file = join(dir, "model-f32.gguf");
    const summary = exportCheckpointToGguf(fx.dir, file);
    const c = fx.model.config;
    const parsed = await gguf(file, { allowLocalFile: true });
    const { tensorInfos, tensorDataOffset } = parsed;
    const md = parsed.metadata as Record<string, unknown>;
    expect(md.version).toBe(3);
    expect(md["general.architecture"]).toBe("llama");
    expect(md["general.file_type"]).toBe(0);
    expect(md["llama.embedding_length"]).toBe(c.hiddenSize);
    expect(md["llama.block_count"]).toBe(c.numLayers);
    expect(md["llama.feed_forward_length"]).toBe(c.intermediateSize);
    expect(md["llama.attention.head_count"]).toBe(c.numHeads);
    expect(md["llama.attention.head_count_kv"]).toBe(c.numHeads);
    expect(md["llama.rope.dimension_count"]).toBe(c.hiddenSize / c.numHeads);
    expect(md["llama.context_length"]).toBe(c.maxPositions);
    expect(md["llama.attention.layer_norm_rms_epsilon"]).toBeCloseTo(c.rmsNormEps, 10);
    expect(md["llama.rope.freq_base"]).toBe(c.ropeTheta);
    expect(md["tokenizer.ggml.model"]).toBe("gpt2");
    expect(md["tokenizer.ggml.pre"]).toBe("gpt-2");
    expect(md["tokenizer.chat_template"]).toBe(CHATML);
    const tokens = md["tokenizer.ggml.tokens"] as string[];
    const types = md["tokenizer.ggml.token_type"] as number[];
    expect(tokens.length).toBe(c.vocabSize);
    for (let i = 0; i < fx.tokenizer.vocabSize; i++) expect(tokens[i]).toBe(fx.tokenizer.idToToken(i));
    for (const s of SPECIALS) expect(types[fx.tokenizer.tokenToId(s)!]).toBe(3); // control
    for (const t of TOOL_TOKENS) expect(types[fx.tokenizer.tokenToId(t)!]).toBe(4); // user-defined
    expect(types[fx.tokenizer.tokenToId("Ġthe") ?? fx.tokenizer.tokenToId("a")!]).toBe(1);
    const merges = md["tokenizer.ggml.merges"] as string[];
    expect(merges).toEqual(fx.tokenizer.mergeList().map(([a, b]) => `${a} ${b}`));
    expect(md["tokenizer.ggml.bos_token_id"]).toBe(fx.tokenizer.tokenToId("<|endoftext|>"));
    expect(md["tokenizer.ggml.eos_token_id"]).toBe(fx.tokenizer.tokenToId("<|im_end|>"));

    expect(tensorInfos.length).toBe(summary.tensors);
    expect(tensorInfos.length).toBe(fx.model.params.tensors.length);
    const bytes = readFileSync(file);
    const byName = new Map(tensorInfos.map((t) => [t.name, t]));
    // The embedding is stored as is: dims reversed ([d, vocab]), data identical.
    const emb = byName.get("token_embd.weight")!;
    expect(emb.shape.map(Number)).toEqual([c.hiddenSize, c.vocabSize]);
    const start = Number(tensorDataOffset + emb.offset);
    const stored = new Float32Array(
      bytes.buffer.slice(bytes.byteOffset + start, bytes.byteOffset + start + c.vocabSize * c.hiddenSize * 4),
    );
    expect(stored).toEqual(fx.model.params.get("model.embed_tokens.weight"));
    // q is permuted: row 1 of head 0 in the file is row hd/2 of the engine's q_proj.
    const q = byName.get("blk.0.attn_q.weight")!;
    const qStart = Number(tensorDataOffset + q.offset);
    const row1 = new Float32Array(
      bytes.buffer.slice(
        bytes.byteOffset + qStart + c.hiddenSize * 4,
        bytes.byteOffset + qStart + 2 * c.hiddenSize * 4,
      ),
    );
    const hd = c.hiddenSize / c.numHeads;
    const engineQ = fx.model.params.get("model.layers.0.self_attn.q_proj.weight");
    expect(row1).toEqual(engineQ.subarray((hd / 2) * c.hiddenSize, (hd / 2 + 1) * c.hiddenSize));
    for (const t of tensorInfos) expect(Number(t.offset) % 32).toBe(0);
  });

  it("writes F16 matrices and keeps norm vectors F32", async () => {
    const f32 = exportCheckpointToGguf(fx.dir, join(dir, "a.gguf"));
    const file = join(dir, "model-f16.gguf");
    const f16 = exportCheckpointToGguf(fx.dir, file, { type: "f16" });
    expect(f16.bytes).toBeLessThan(f32.bytes * 0.6);
    const { metadata, tensorInfos } = await gguf(file, { allowLocalFile: true });
    expect((metadata as Record<string, unknown>)["general.file_type"]).toBe(1);
    for (const t of tensorInfos) expect(t.dtype).toBe(t.n_dims === 1 ? 0 : 1);
  });

  it("rejects bad input with a clear error", () => {
    expect(() => exportCheckpointToGguf(join(dir, "nope"), join(dir, "x.gguf"))).toThrow(/does not exist/);
    expect(() => exportCheckpointToGguf(fx.dir, join(dir, "x.gguf"), { type: "q4" as "f32" })).toThrow(
      /accepted: f32, f16/,
    );
  });
});
