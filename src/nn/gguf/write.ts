/**
 * Writes a model of the engine (HF Llama tensors + config + byte-level BPE tokenizer) as a GGUF file for
 * llama.cpp's `llama` architecture: hparams, the gpt2 tokenizer (tokens, types, merges, bos/eos), the chat
 * template, and F32 or F16 tensors (norm vectors stay F32, as llama.cpp's converter does). q/k rows are
 * permuted to llama.cpp's RoPE convention. The file is written to a temporary name and renamed.
 */
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import type { LlamaConfig } from "../config.ts";
import type { Tokenizer } from "../tokenizer/index.ts";
import { toHalfArray } from "./f16.ts";
import {
  alignUp,
  bool,
  encodeHeader,
  f32,
  GgmlType,
  int32s,
  str,
  strings,
  TokenType,
  u32,
  type MetaValue,
  type TensorInfo,
} from "./format.ts";
import type { NamedTensor } from "../io/safetensors.ts";
import { ggufTensorName, isRopeProjection, permuteRopeRows } from "./tensors.ts";
import { ToolgenError } from "../../errors.ts";

export type GgufFloatType = "f32" | "f16";

export interface GgufExportInput {
  config: LlamaConfig;
  /** HF Llama names and shapes (`model.layers.0.self_attn.q_proj.weight`, …). */
  tensors: NamedTensor[];
  tokenizer: Tokenizer;
  /** Jinja chat template (tokenizer.chat_template). */
  chatTemplate?: string;
  /** general.name */
  name?: string;
  /** Token strings for bos/eos when the config has no ids (tokenizer_config.json's bos_token, eos_token). */
  bosToken?: string;
  eosToken?: string;
  /** Extra string metadata (e.g. `toolgen.index`, how a ToolGen model writes each tool id, as JSON). */
  extra?: Record<string, string>;
  /** Tensor type of the matrices (default f32). */
  type?: GgufFloatType;
}

export interface GgufExportSummary {
  file: string;
  bytes: number;
  tensors: number;
  vocabSize: number;
  type: GgufFloatType;
}

/** Token types for llama.cpp: special tokens are control tokens, other added tokens (tool tokens) user-defined. */
function tokenTypes(tokenizer: Tokenizer, n: number): Int32Array {
  const types = new Int32Array(n).fill(TokenType.NORMAL);
  for (const a of tokenizer.addedTokens())
    types[a.id] = a.special ? TokenType.CONTROL : TokenType.USER_DEFINED;
  for (let i = tokenizer.vocabSize; i < n; i++) types[i] = TokenType.UNUSED;
  return types;
}

function namedId(tokenizer: Tokenizer, token: string | undefined, what: string): number | undefined {
  if (token === undefined) return undefined;
  const id = tokenizer.tokenToId(token);
  if (id === undefined)
    throw new ToolgenError(
      "invalid_input",
      `GGUF export: the ${what} token ${JSON.stringify(token)} is not in the vocabulary`,
    );
  return id;
}

/** The end-of-sequence id: the config's, the named token, else a well-known end marker among the special tokens. */
function eosId(input: GgufExportInput): number | undefined {
  const { config, tokenizer } = input;
  if (config.eosTokenId !== undefined) return config.eosTokenId;
  const named = namedId(tokenizer, input.eosToken, "eos");
  if (named !== undefined) return named;
  for (const t of ["<|im_end|>", "<|eot_id|>", "<|endoftext|>", "</s>", "<|end|>"]) {
    const id = tokenizer.tokenToId(t);
    if (id !== undefined && tokenizer.isSpecial(id)) return id;
  }
  return undefined;
}

export function ggufMetadata(input: GgufExportInput): [string, MetaValue][] {
  const { config: c, tokenizer } = input;
  if (tokenizer.vocabSize > c.vocabSize) {
    throw new ToolgenError(
      "invalid_input",
      `GGUF export: the tokenizer has ${tokenizer.vocabSize} tokens but the model only ${c.vocabSize} embedding rows`,
    );
  }
  const tokens: string[] = [];
  for (let i = 0; i < c.vocabSize; i++) tokens.push(tokenizer.idToToken(i) ?? `[PAD${i}]`);
  const eos = eosId(input);
  const bos = c.bosTokenId ?? namedId(tokenizer, input.bosToken, "bos") ?? eos;
  const md: [string, MetaValue][] = [
    ["general.architecture", str("llama")],
    ["general.name", str(input.name ?? "toolgen")],
    ["general.file_type", u32(input.type === "f16" ? 1 : 0)],
    ["general.alignment", u32(32)],
    ["llama.vocab_size", u32(c.vocabSize)],
    ["llama.context_length", u32(c.maxPositions)],
    ["llama.embedding_length", u32(c.hiddenSize)],
    ["llama.block_count", u32(c.numLayers)],
    ["llama.feed_forward_length", u32(c.intermediateSize)],
    ["llama.rope.dimension_count", u32(c.hiddenSize / c.numHeads)],
    ["llama.rope.freq_base", f32(c.ropeTheta)],
    ["llama.attention.head_count", u32(c.numHeads)],
    ["llama.attention.head_count_kv", u32(c.numHeads)],
    ["llama.attention.layer_norm_rms_epsilon", f32(c.rmsNormEps)],
    ["tokenizer.ggml.model", str("gpt2")],
    ["tokenizer.ggml.pre", str("gpt-2")],
    ["tokenizer.ggml.tokens", strings(tokens)],
    ["tokenizer.ggml.token_type", int32s(tokenTypes(tokenizer, c.vocabSize))],
    ["tokenizer.ggml.merges", strings(tokenizer.mergeList().map(([a, b]) => `${a} ${b}`))],
    ["tokenizer.ggml.add_bos_token", bool(false)],
    ["tokenizer.ggml.add_eos_token", bool(false)],
  ];
  if (bos !== undefined) md.push(["tokenizer.ggml.bos_token_id", u32(bos)]);
  if (eos !== undefined) md.push(["tokenizer.ggml.eos_token_id", u32(eos)]);
  if (c.padTokenId !== undefined) md.push(["tokenizer.ggml.padding_token_id", u32(c.padTokenId)]);
  if (input.chatTemplate) md.push(["tokenizer.chat_template", str(input.chatTemplate)]);
  for (const [key, value] of Object.entries(input.extra ?? {})) md.push([key, str(value)]);
  return md;
}

interface PreparedTensor {
  info: TensorInfo;
  bytes: Uint8Array;
}

function prepareTensors(input: GgufExportInput): PreparedTensor[] {
  const { config: c } = input;
  const headDim = c.hiddenSize / c.numHeads;
  let offset = 0;
  return input.tensors.map((t) => {
    const count = t.shape.reduce((a, b) => a * b, 1);
    if (count !== t.data.length) {
      throw new ToolgenError(
        "invalid_input",
        `GGUF export: tensor ${t.name} has shape [${t.shape}] but ${t.data.length} values`,
      );
    }
    const values = isRopeProjection(t.name)
      ? permuteRopeRows(t.data, c.numHeads, headDim, t.shape[1]!)
      : t.data;
    const half = input.type === "f16" && t.shape.length >= 2;
    const typed = half ? toHalfArray(values) : values;
    const bytes = new Uint8Array(typed.buffer, typed.byteOffset, typed.byteLength);
    const info = {
      name: ggufTensorName(t.name),
      dims: t.shape.slice().reverse(),
      type: half ? GgmlType.F16 : GgmlType.F32,
      offset,
    };
    offset = alignUp(offset + bytes.length);
    return { info, bytes };
  });
}

/** fs.writeSync may write less than asked; loop until all bytes are out. */
function writeAll(fd: number, bytes: Uint8Array): void {
  let done = 0;
  while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
}

export function writeGguf(file: string, input: GgufExportInput): GgufExportSummary {
  const prepared = prepareTensors(input);
  const header = encodeHeader(
    ggufMetadata(input),
    prepared.map((p) => p.info),
  );
  const tmp = `${file}.tmp-${process.pid}-${Date.now()}`;
  const fd = openSync(tmp, "w");
  let written = 0;
  try {
    writeAll(fd, header);
    written += header.length;
    for (const p of prepared) {
      writeAll(fd, p.bytes);
      const padding = alignUp(p.bytes.length) - p.bytes.length;
      if (padding > 0) writeAll(fd, new Uint8Array(padding));
      written += p.bytes.length + padding;
    }
    fsyncSync(fd);
    closeSync(fd);
    renameSync(tmp, file);
  } catch (e) {
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
    rmSync(tmp, { force: true });
    throw e;
  }
  return {
    file,
    bytes: written,
    tensors: prepared.length,
    vocabSize: input.config.vocabSize,
    type: input.type ?? "f32",
  };
}
