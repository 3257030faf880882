import { headDim } from "../config.ts";
import { kernels } from "../kernels/index.ts";
import { softmaxCausalRow } from "../layers/attention.ts";
import { rotate } from "../layers/rope.ts";
import { rmsnormForward } from "../layers/rmsnorm.ts";
import { swigluForward } from "../layers/swiglu.ts";
import type { Llama } from "../llama.ts";
import { Arena } from "../memory.ts";
import { ToolgenError } from "../../errors.ts";

/**
 * Incremental decoding over a KV cache: `append(ids)` runs only the new tokens, attending to the cached keys
 * and values of the prefix, and returns the next-token logits after the last one. The cache holds, per layer,
 * K and V (after RoPE) as [heads, maxPositions, headDim], so each head's keys are one contiguous matrix:
 *   scores = q·Kᵀ   matmulABt(S, q, K, n, hd, L+n)     out = P·V   matmulAB(O, P, V, n, L+n, hd)
 * with n new tokens and L cached ones. `fork()` copies the cache (beam search branches with it).
 */
export class InferenceSession {
  private readonly arena = new Arena();
  private readonly kCache: Float32Array[];
  private readonly vCache: Float32Array[];
  private len = 0;
  private disposed = false;

  constructor(readonly model: Llama) {
    const c = model.config;
    const size = c.maxPositions * c.hiddenSize;
    this.kCache = Array.from({ length: c.numLayers }, () => this.arena.alloc(size));
    this.vCache = Array.from({ length: c.numLayers }, () => this.arena.alloc(size));
  }

  /** Tokens in the cache. */
  get length(): number {
    return this.len;
  }

  /** An independent session with a copy of this one's cache. */
  fork(): InferenceSession {
    this.check();
    const s = new InferenceSession(this.model);
    const hd = headDim(this.model.config);
    const ctx = this.model.config.maxPositions;
    for (let l = 0; l < this.kCache.length; l++) {
      for (let h = 0; h < this.model.config.numHeads; h++) {
        const from = h * ctx * hd;
        const to = from + this.len * hd;
        s.kCache[l].set(this.kCache[l].subarray(from, to), from);
        s.vCache[l].set(this.vCache[l].subarray(from, to), from);
      }
    }
    s.len = this.len;
    return s;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.arena.releaseAll();
  }

  private check(): void {
    if (this.disposed) throw new ToolgenError("invalid_option", "the inference session was disposed");
  }

  /** Feeds tokens; returns the logits [vocab] after the last one (`all`: every new position, [n, vocab]). */
  append(ids: readonly number[], all = false): Float32Array {
    this.check();
    const m = this.model;
    const c = m.config;
    const n = ids.length;
    if (n === 0) throw new ToolgenError("invalid_option", "append needs at least one token");
    if (this.len + n > c.maxPositions) {
      throw new ToolgenError(
        "invalid_option",
        `context full: ${this.len} + ${n} tokens exceed the model's ${c.maxPositions} positions`,
      );
    }
    const k = kernels();
    const d = c.hiddenSize;
    const f = c.intermediateSize;
    const H = c.numHeads;
    const hd = headDim(c);
    const ctx = c.maxPositions;
    const L = this.len;
    const total = L + n;
    const P = m.params;
    const scratch = new Arena();
    try {
      const x = scratch.alloc(n * d);
      const h = scratch.alloc(n * d);
      const tmp = scratch.alloc(n * d);
      const inv = new Float32Array(n);
      const qh = scratch.alloc(n * d);
      const oh = scratch.alloc(n * d);
      const att = scratch.alloc(n * d);
      const scores = scratch.alloc(n * total);
      const g = scratch.alloc(n * f);
      const u = scratch.alloc(n * f);
      const emb = P.get("model.embed_tokens.weight");
      ids.forEach((id, i) => {
        if (!(Number.isInteger(id) && id >= 0 && id < c.vocabSize)) {
          throw new ToolgenError(
            "invalid_input",
            `token id ${id} outside the vocabulary (size ${c.vocabSize})`,
          );
        }
        x.set(emb.subarray(id * d, (id + 1) * d), i * d);
      });
      const scale = 1 / Math.sqrt(hd);
      for (let l = 0; l < c.numLayers; l++) {
        const pre = `model.layers.${l}.`;
        rmsnormForward(h, inv, x, P.get(pre + "input_layernorm.weight"), n, d, c.rmsNormEps);
        const K = this.kCache[l];
        const V = this.vCache[l];
        // q into head-major [H, n, hd]; k and v straight into the cache at positions L..L+n-1
        k.matmulABt(tmp, h, P.get(pre + "self_attn.q_proj.weight"), n, d, d);
        for (let i = 0; i < n; i++)
          for (let hh = 0; hh < H; hh++)
            rotate(m.rope, qh, (hh * n + i) * hd, tmp, i * d + hh * hd, L + i, false);
        k.matmulABt(tmp, h, P.get(pre + "self_attn.k_proj.weight"), n, d, d);
        for (let i = 0; i < n; i++)
          for (let hh = 0; hh < H; hh++)
            rotate(m.rope, K, (hh * ctx + L + i) * hd, tmp, i * d + hh * hd, L + i, false);
        k.matmulABt(tmp, h, P.get(pre + "self_attn.v_proj.weight"), n, d, d);
        for (let i = 0; i < n; i++)
          for (let hh = 0; hh < H; hh++)
            V.set(tmp.subarray(i * d + hh * hd, i * d + (hh + 1) * hd), (hh * ctx + L + i) * hd);
        for (let hh = 0; hh < H; hh++) {
          const Kh = K.subarray(hh * ctx * hd, (hh * ctx + total) * hd);
          const Vh = V.subarray(hh * ctx * hd, (hh * ctx + total) * hd);
          k.matmulABt(scores, qh.subarray(hh * n * hd, (hh + 1) * n * hd), Kh, n, hd, total);
          for (let i = 0; i < n; i++) softmaxCausalRow(scores, i * total, L + i, total, scale);
          k.matmulAB(oh.subarray(hh * n * hd, (hh + 1) * n * hd), scores, Vh, n, total, hd);
        }
        for (let i = 0; i < n; i++)
          for (let hh = 0; hh < H; hh++)
            att.set(oh.subarray((hh * n + i) * hd, (hh * n + i + 1) * hd), i * d + hh * hd);
        k.matmulABt(tmp, att, P.get(pre + "self_attn.o_proj.weight"), n, d, d);
        for (let i = 0; i < n * d; i++) x[i] += tmp[i];
        rmsnormForward(h, inv, x, P.get(pre + "post_attention_layernorm.weight"), n, d, c.rmsNormEps);
        k.matmulABt(g, h, P.get(pre + "mlp.gate_proj.weight"), n, d, f);
        k.matmulABt(u, h, P.get(pre + "mlp.up_proj.weight"), n, d, f);
        swigluForward(g, g, u, n * f);
        k.matmulABt(tmp, g, P.get(pre + "mlp.down_proj.weight"), n, f, d);
        for (let i = 0; i < n * d; i++) x[i] += tmp[i];
      }
      this.len = total;
      const rows = all ? n : 1;
      const last = x.subarray((n - rows) * d, n * d);
      rmsnormForward(h, inv, last, P.get("model.norm.weight"), rows, d, c.rmsNormEps);
      const logits = new Float32Array(rows * c.vocabSize);
      k.matmulABt(logits, h, m.lmHead, rows, d, c.vocabSize);
      return logits;
    } finally {
      scratch.releaseAll();
    }
  }
}
