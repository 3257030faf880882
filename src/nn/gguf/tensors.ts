import { ToolgenError } from "../../errors.ts";

/**
 * Hugging Face Llama tensor names -> llama.cpp's GGUF names, and the q/k row permutation between RoPE
 * conventions: the engine rotates halves (x[i], x[i + hd/2]); llama.cpp's `llama` architecture rotates
 * adjacent pairs (x[2j], x[2j+1]). Reordering each head's rows of q_proj and k_proj so that old row
 * s·hd/2 + j becomes new row 2j + s makes the two compute the same attention scores.
 */
const LAYER_NAMES: Record<string, string> = {
  "input_layernorm.weight": "attn_norm.weight",
  "self_attn.q_proj.weight": "attn_q.weight",
  "self_attn.k_proj.weight": "attn_k.weight",
  "self_attn.v_proj.weight": "attn_v.weight",
  "self_attn.o_proj.weight": "attn_output.weight",
  "post_attention_layernorm.weight": "ffn_norm.weight",
  "mlp.gate_proj.weight": "ffn_gate.weight",
  "mlp.up_proj.weight": "ffn_up.weight",
  "mlp.down_proj.weight": "ffn_down.weight",
};

const TOP_NAMES: Record<string, string> = {
  "model.embed_tokens.weight": "token_embd.weight",
  "model.norm.weight": "output_norm.weight",
  "lm_head.weight": "output.weight",
};

/** The GGUF name of an HF Llama tensor; throws for a name llama.cpp's `llama` architecture has no place for. */
export function ggufTensorName(hfName: string): string {
  const top = TOP_NAMES[hfName];
  if (top) return top;
  const m = /^model\.layers\.(\d+)\.(.+)$/.exec(hfName);
  const rest = m ? LAYER_NAMES[m[2]!] : undefined;
  if (!m || !rest)
    throw new ToolgenError("invalid_input", `GGUF export: no llama.cpp name for tensor "${hfName}"`);
  return `blk.${m[1]}.${rest}`;
}

/** Rows of a [nHeads·hd, in] projection reordered from rotate-half to adjacent-pair RoPE. */
export function permuteRopeRows(
  data: Float32Array,
  nHeads: number,
  headDim: number,
  cols: number,
): Float32Array {
  if (data.length !== nHeads * headDim * cols) {
    throw new ToolgenError(
      "invalid_input",
      `GGUF export: q/k projection has ${data.length} values, expected ${nHeads}·${headDim}·${cols}`,
    );
  }
  const out = new Float32Array(data.length);
  const half = headDim / 2;
  for (let h = 0; h < nHeads; h++) {
    for (let j = 0; j < half; j++) {
      for (let s = 0; s < 2; s++) {
        const from = (h * headDim + s * half + j) * cols;
        const to = (h * headDim + 2 * j + s) * cols;
        out.set(data.subarray(from, from + cols), to);
      }
    }
  }
  return out;
}

export const isRopeProjection = (hfName: string): boolean => /\.self_attn\.(q|k)_proj\.weight$/.test(hfName);
