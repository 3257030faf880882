import type { LlamaConfig } from "./config.ts";
import { kernels } from "./kernels/index.ts";
import { release } from "./memory.ts";
import { Rng } from "./rng.ts";

/** One named tensor: a view into a flat buffer, with its shape ([out, in] for linear layers, like HF). */
export interface Tensor {
  name: string;
  shape: number[];
  data: Float32Array;
}

/**
 * The parameters of a model as one flat buffer (allocated by the kernels, so the fast kernels need no copies)
 * with a named view per tensor. Gradients and optimizer moments use the same layout, which makes AdamW and
 * gradient clipping one loop over `flat`.
 */
export class ParamSet {
  readonly flat: Float32Array;
  readonly tensors: Tensor[];
  private readonly byName = new Map<string, Tensor>();

  constructor(specs: { name: string; shape: number[] }[]) {
    const total = specs.reduce((s, t) => s + size(t.shape), 0);
    this.flat = kernels().alloc(total);
    let offset = 0;
    this.tensors = specs.map(({ name, shape }) => {
      const n = size(shape);
      const t = { name, shape, data: this.flat.subarray(offset, offset + n) };
      offset += n;
      this.byName.set(name, t);
      return t;
    });
  }

  get(name: string): Float32Array {
    const t = this.byName.get(name);
    if (!t) throw new Error(`no parameter named ${name}`);
    return t.data;
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  tensor(name: string): Tensor | undefined {
    return this.byName.get(name);
  }

  /** Returns the buffer to the kernels' heap; the set must not be used afterwards. */
  dispose(): void {
    release(this.flat);
  }

  /** A zeroed set with the same layout (gradients, Adam moments). */
  like(): ParamSet {
    return new ParamSet(this.tensors.map((t) => ({ name: t.name, shape: t.shape })));
  }
}

export function size(shape: number[]): number {
  return shape.reduce((a, b) => a * b, 1);
}

/** The HF Llama tensor names and shapes for a config, in a stable order. */
export function paramSpecs(c: LlamaConfig): { name: string; shape: number[] }[] {
  const d = c.hiddenSize;
  const f = c.intermediateSize;
  const specs = [{ name: "model.embed_tokens.weight", shape: [c.vocabSize, d] }];
  for (let l = 0; l < c.numLayers; l++) {
    const p = `model.layers.${l}.`;
    specs.push(
      { name: p + "input_layernorm.weight", shape: [d] },
      { name: p + "self_attn.q_proj.weight", shape: [d, d] },
      { name: p + "self_attn.k_proj.weight", shape: [d, d] },
      { name: p + "self_attn.v_proj.weight", shape: [d, d] },
      { name: p + "self_attn.o_proj.weight", shape: [d, d] },
      { name: p + "post_attention_layernorm.weight", shape: [d] },
      { name: p + "mlp.gate_proj.weight", shape: [f, d] },
      { name: p + "mlp.up_proj.weight", shape: [f, d] },
      { name: p + "mlp.down_proj.weight", shape: [d, f] },
    );
  }
  specs.push({ name: "model.norm.weight", shape: [d] });
  if (!c.tieWordEmbeddings) specs.push({ name: "lm_head.weight", shape: [c.vocabSize, d] });
  return specs;
}

/**
 * Initialisation as in HF Llama: norms at 1, every matrix N(0, initStd²); the output projections of each
 * residual branch (o_proj, down_proj) scaled by 1/√(2·layers) as in GPT-2, which trains small models faster.
 * The order of draws is the spec order, so a seed fixes every weight.
 */
export function initParams(c: LlamaConfig, seed: number): ParamSet {
  const params = new ParamSet(paramSpecs(c));
  const rng = new Rng(seed);
  const residualScale = 1 / Math.sqrt(2 * c.numLayers);
  for (const t of params.tensors) {
    if (t.shape.length === 1) {
      t.data.fill(1);
      continue;
    }
    const isResidualOut = t.name.endsWith("o_proj.weight") || t.name.endsWith("down_proj.weight");
    const std = c.initStd * (isResidualOut ? residualScale : 1);
    for (let i = 0; i < t.data.length; i++) t.data[i] = rng.normal() * std;
  }
  return params;
}
