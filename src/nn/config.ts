import { ToolgenError } from "../errors.ts";

/**
 * Model configuration: the fields of a Hugging Face `LlamaConfig` (so `config.json` reads like an HF model),
 * the presets, and validation.
 *
 * RoPE convention: the engine rotates the two *halves* of each head, pairing x[i] with x[i + headDim/2]
 * (Hugging Face's `rotate_half`). The safetensors weights are therefore exactly what HF transformers expects.
 * llama.cpp's `llama` architecture rotates adjacent pairs (x0,x1),(x2,x3)…, so a GGUF export must permute
 * the rows of q_proj and k_proj per head the way HF's convert_hf_to_gguf.py does:
 *   w.reshape(nHeads, 2, headDim/2, in).swapaxes(1, 2).reshape(out, in)
 * (i.e. new row h*headDim + 2j + s = old row h*headDim + s*headDim/2 + j). `ROPE_CONVENTION` records it.
 */
export const ROPE_CONVENTION = "rotate-half" as const;

export interface LlamaConfig {
  vocabSize: number;
  hiddenSize: number;
  intermediateSize: number;
  numLayers: number;
  numHeads: number;
  maxPositions: number;
  rmsNormEps: number;
  ropeTheta: number;
  tieWordEmbeddings: boolean;
  initStd: number;
  bosTokenId?: number;
  eosTokenId?: number;
  padTokenId?: number;
}

export type PresetName = "tiny" | "small";

/** Presets; `vocabSize` comes from the tokenizer. The intermediate size follows Llama's ≈ 8/3·d rounded to 32. */
export const PRESETS: Record<PresetName, Omit<LlamaConfig, "vocabSize">> = {
  tiny: {
    hiddenSize: 128,
    intermediateSize: 352,
    numLayers: 4,
    numHeads: 4,
    maxPositions: 256,
    rmsNormEps: 1e-5,
    ropeTheta: 10000,
    tieWordEmbeddings: false,
    initStd: 0.02,
  },
  small: {
    hiddenSize: 256,
    intermediateSize: 704,
    numLayers: 6,
    numHeads: 8,
    maxPositions: 512,
    rmsNormEps: 1e-5,
    ropeTheta: 10000,
    tieWordEmbeddings: false,
    initStd: 0.02,
  },
};

export function presetConfig(
  name: string,
  vocabSize: number,
  overrides: Partial<LlamaConfig> = {},
): LlamaConfig {
  if (!(name in PRESETS)) {
    throw new ToolgenError(
      "invalid_option",
      `unknown preset "${name}"; accepted: ${Object.keys(PRESETS).join(", ")}`,
    );
  }
  return validateConfig({ ...PRESETS[name as PresetName], vocabSize, ...overrides });
}

export function headDim(c: LlamaConfig): number {
  return c.hiddenSize / c.numHeads;
}

function positiveInt(c: LlamaConfig, key: keyof LlamaConfig): void {
  const v = c[key];
  if (typeof v !== "number" || !Number.isInteger(v) || v <= 0) {
    throw new ToolgenError(
      "invalid_option",
      `invalid model config: ${key} must be a positive integer, got ${JSON.stringify(v)}`,
    );
  }
}

/** Throws a clear error for an impossible configuration; returns the config otherwise. */
export function validateConfig(c: LlamaConfig): LlamaConfig {
  for (const k of [
    "vocabSize",
    "hiddenSize",
    "intermediateSize",
    "numLayers",
    "numHeads",
    "maxPositions",
  ] as const) {
    positiveInt(c, k);
  }
  if (c.hiddenSize % c.numHeads !== 0 || (c.hiddenSize / c.numHeads) % 2 !== 0) {
    throw new ToolgenError(
      "invalid_option",
      `invalid model config: hiddenSize (${c.hiddenSize}) must split into numHeads (${c.numHeads}) heads of even size`,
    );
  }
  for (const k of ["rmsNormEps", "ropeTheta", "initStd"] as const) {
    if (!(typeof c[k] === "number" && c[k] > 0 && Number.isFinite(c[k]))) {
      throw new ToolgenError(
        "invalid_option",
        `invalid model config: ${k} must be a positive number, got ${JSON.stringify(c[k])}`,
      );
    }
  }
  return c;
}

/** The `config.json` of a checkpoint: Hugging Face LlamaConfig field names. */
export function toHfConfig(c: LlamaConfig): Record<string, unknown> {
  return {
    architectures: ["LlamaForCausalLM"],
    model_type: "llama",
    vocab_size: c.vocabSize,
    hidden_size: c.hiddenSize,
    intermediate_size: c.intermediateSize,
    num_hidden_layers: c.numLayers,
    num_attention_heads: c.numHeads,
    num_key_value_heads: c.numHeads,
    head_dim: headDim(c),
    max_position_embeddings: c.maxPositions,
    rms_norm_eps: c.rmsNormEps,
    rope_theta: c.ropeTheta,
    hidden_act: "silu",
    tie_word_embeddings: c.tieWordEmbeddings,
    initializer_range: c.initStd,
    attention_bias: false,
    mlp_bias: false,
    torch_dtype: "float32",
    ...(c.bosTokenId !== undefined ? { bos_token_id: c.bosTokenId } : {}),
    ...(c.eosTokenId !== undefined ? { eos_token_id: c.eosTokenId } : {}),
    ...(c.padTokenId !== undefined ? { pad_token_id: c.padTokenId } : {}),
    toolgen_rope_convention: ROPE_CONVENTION,
  };
}

/** Reads an HF LlamaConfig object; rejects what the engine cannot run (grouped-query attention, biases, …). */
export function fromHfConfig(j: unknown): LlamaConfig {
  if (typeof j !== "object" || j === null || Array.isArray(j))
    throw new ToolgenError("invalid_input", "config.json: expected a JSON object");
  const o = j as Record<string, unknown>;
  const num = (k: string, fallback?: number): number => {
    const v = o[k] ?? fallback;
    if (typeof v !== "number")
      throw new ToolgenError(
        "invalid_input",
        `config.json: field "${k}" must be a number, got ${JSON.stringify(v)}`,
      );
    return v;
  };
  if (o.model_type !== undefined && o.model_type !== "llama") {
    throw new ToolgenError(
      "invalid_input",
      `config.json: model_type "${String(o.model_type)}" is not supported; accepted: llama`,
    );
  }
  const heads = num("num_attention_heads");
  if (o.num_key_value_heads !== undefined && o.num_key_value_heads !== heads) {
    throw new ToolgenError(
      "invalid_input",
      "config.json: grouped-query attention (num_key_value_heads != num_attention_heads) is not supported",
    );
  }
  if (o.hidden_act !== undefined && o.hidden_act !== "silu") {
    throw new ToolgenError(
      "invalid_input",
      `config.json: hidden_act "${String(o.hidden_act)}" is not supported; accepted: silu`,
    );
  }
  if (o.attention_bias === true || o.mlp_bias === true)
    throw new ToolgenError("invalid_input", "config.json: biases are not supported");
  if (o.toolgen_rope_convention !== undefined && o.toolgen_rope_convention !== ROPE_CONVENTION) {
    throw new ToolgenError(
      "invalid_input",
      `config.json: rope convention "${String(o.toolgen_rope_convention)}" is not supported`,
    );
  }
  const optInt = (k: string): number | undefined => (typeof o[k] === "number" ? (o[k] as number) : undefined);
  return validateConfig({
    vocabSize: num("vocab_size"),
    hiddenSize: num("hidden_size"),
    intermediateSize: num("intermediate_size"),
    numLayers: num("num_hidden_layers"),
    numHeads: heads,
    maxPositions: num("max_position_embeddings"),
    rmsNormEps: num("rms_norm_eps", 1e-6),
    ropeTheta: num("rope_theta", 10000),
    tieWordEmbeddings: o.tie_word_embeddings === true,
    initStd: num("initializer_range", 0.02),
    bosTokenId: optInt("bos_token_id"),
    eosTokenId: optInt("eos_token_id"),
    padTokenId: optInt("pad_token_id"),
  });
}
