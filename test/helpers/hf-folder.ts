import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CatalogEntry } from "../../src/catalog/catalog.ts";
import { encodeRow, encodeSafetensorsHeader, type StoredDtype } from "../../src/nn/io/safetensors-stream.ts";
import { Rng } from "../../src/nn/rng.ts";
import { Tokenizer } from "../../src/nn/tokenizer/index.ts";
import { CHAT_SPECIAL_TOKENS } from "../../src/toolgen/chat-encoding.ts";

/** Test fixtures: a synthetic multi-shard Hugging Face folder in any dtype, and a few catalog entries. */
export function entriesOf(ids: string[]): CatalogEntry[] {
  return ids.map((id) => {
    const [tool, api = ""] = id.split("&&");
    return { id, tool: tool!, api, description: "", parameters: { type: "object", properties: {} }, doc: {} };
  });
}

export const ENTRIES = entriesOf([
  "Weather&&Get current",
  "Stocks&&Quote",
  "calculator",
  "Youtube Hub&&Video 42",
]);

export function smallTokenizer(): Tokenizer {
  return Tokenizer.train(
    [
      "the weather today, get current weather",
      "stocks quote price calculator finish",
      "youtube hub video 42",
    ],
    300,
    { specialTokens: [...CHAT_SPECIAL_TOKENS] },
  );
}

/** Llama-3's pre-tokenizer layout (Split regex + ByteLevel without regex), which the engine does not read. */
export function llama3StyleTokenizerJson(t: Tokenizer): Record<string, unknown> {
  const json = t.toJSON();
  json.pre_tokenizer = {
    type: "Sequence",
    pretokenizers: [
      {
        type: "Split",
        pattern: {
          Regex:
            "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
        },
        behavior: "Isolated",
        invert: false,
      },
      { type: "ByteLevel", add_prefix_space: false, trim_offsets: true, use_regex: false },
    ],
  };
  return json;
}

export interface FakeTensor {
  name: string;
  dtype: StoredDtype;
  shape: number[];
  values: Float32Array;
}

export function randomTensor(name: string, dtype: StoredDtype, shape: number[], seed: number): FakeTensor {
  const rng = new Rng(seed);
  const values = new Float32Array(shape.reduce((a, b) => a * b, 1));
  for (let i = 0; i < values.length; i++) values[i] = rng.normal() * 0.5;
  return { name, dtype, shape, values };
}

export function writeShard(file: string, tensors: FakeTensor[]): void {
  const datas = tensors.map((t) => encodeRow(t.values, t.dtype));
  const { bytes } = encodeSafetensorsHeader(
    tensors.map((t, i) => ({ name: t.name, dtype: t.dtype, shape: t.shape, bytes: datas[i]!.length })),
    { format: "pt" },
  );
  writeFileSync(file, Buffer.concat([bytes, ...datas]));
}

/**
 * A three-shard folder: shard 1 holds embed_tokens and an F16 projection, shard 2 lm_head and an F32 norm,
 * shard 3 only a projection (copied as a file).
 */
export function writeShardedFolder(
  dir: string,
  dtype: StoredDtype,
  tokenizerJson: Record<string, unknown>,
  vocab: number,
  d = 8,
): FakeTensor[][] {
  mkdirSync(dir, { recursive: true });
  const shards: FakeTensor[][] = [
    [
      randomTensor("model.embed_tokens.weight", dtype, [vocab, d], 1),
      randomTensor("model.layers.0.mlp.up_proj.weight", "F16", [12, d], 2),
    ],
    [randomTensor("model.norm.weight", "F32", [d], 3), randomTensor("lm_head.weight", dtype, [vocab, d], 4)],
    [randomTensor("model.layers.0.mlp.down_proj.weight", dtype, [d, 12], 5)],
  ];
  const weightMap: Record<string, string> = {};
  let total = 0;
  shards.forEach((tensors, i) => {
    const file = `model-0000${i + 1}-of-00003.safetensors`;
    writeShard(join(dir, file), tensors);
    for (const t of tensors) {
      weightMap[t.name] = file;
      total += t.values.length * (t.dtype === "F32" ? 4 : 2);
    }
  });
  writeFileSync(
    join(dir, "model.safetensors.index.json"),
    JSON.stringify({ metadata: { total_size: total }, weight_map: weightMap }),
  );
  writeFileSync(
    join(dir, "config.json"),
    JSON.stringify({
      architectures: ["LlamaForCausalLM"],
      model_type: "llama",
      vocab_size: vocab,
      hidden_size: d,
      torch_dtype: "bfloat16",
    }),
  );
  writeFileSync(join(dir, "tokenizer.json"), JSON.stringify(tokenizerJson));
  writeFileSync(
    join(dir, "tokenizer_config.json"),
    JSON.stringify({ bos_token: "<|endoftext|>", added_tokens_decoder: {} }),
  );
  writeFileSync(join(dir, "generation_config.json"), JSON.stringify({ do_sample: false }));
  writeFileSync(join(dir, "pytorch_model.bin"), "not copied");
  return shards;
}
