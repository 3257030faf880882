import type { LlamaConfig } from "./config.ts";
import { QUERY_BLOCK } from "./layers/attention.ts";
import { Arena } from "./memory.ts";

/** What one layer keeps from the forward for its backward. */
export interface LayerActs {
  x: Float32Array; // residual input [N, d]
  inv1: Float32Array;
  h1: Float32Array;
  q: Float32Array; // [N, d] after RoPE (each head its hd columns; the attention reads them there)
  k: Float32Array;
  v: Float32Array;
  p: Float32Array; // attention probabilities, causal blocks (layers/attention.ts)
  att: Float32Array; // merged attention output [N, d]
  x2: Float32Array; // residual after attention
  inv2: Float32Array;
  h2: Float32Array;
  g: Float32Array; // [N, f]
  u: Float32Array;
  a: Float32Array;
  sg: Float32Array; // σ(g), kept by the forward for the SwiGLU backward (no second exp and division)
}

/** Buffers for one batch shape, reused while B and T stay the same. */
export interface Workspace {
  B: number;
  T: number;
  layers: LayerActs[];
  xOut: Float32Array; // output of the last layer [N, d]
  invF: Float32Array;
  hF: Float32Array;
  // scratch
  rowsD: Float32Array[]; // 5 × [N, d] (the fifth: the backward row chain's dh, llama.ts)
  headsD: Float32Array[]; // 3 × [N, d]: the attention's dQ, dK, dV (each head's columns in the rows)
  rowsF: Float32Array[]; // 3 × [N, f]
  tt: Float32Array; // [QUERY_BLOCK, T]: the attention backward's scratch
}

/** The buffers behind the workspaces, sized for N rows, P attention probabilities, T positions. */
export interface WorkspaceStore {
  N: number;
  P: number;
  T: number;
  arena: Arena;
  raw: Workspace;
  // the loss head's rows (grown on demand): gathered hidden states, their gradient, logits
  head?: { rows: number; hSel: Float32Array; dhSel: Float32Array; logits: Float32Array };
  // the sampled softmax's rows and candidates (grown on demand; layers/sampled-head.ts)
  sampledHead?: {
    rows: number;
    candidates: number;
    h: Float32Array;
    dh: Float32Array;
    logits: Float32Array;
    w: Float32Array;
    dw: Float32Array;
  };
}

/** Buffers for N rows, P attention probabilities and T positions, from the kernels' allocator. */
export function allocateWorkspace(c: LlamaConfig, N: number, P: number, T: number): WorkspaceStore {
  const d = c.hiddenSize;
  const f = c.intermediateSize;
  const arena = new Arena();
  const al = (n: number) => arena.alloc(n);
  const layers: LayerActs[] = [];
  for (let l = 0; l < c.numLayers; l++) {
    layers.push({
      x: al(N * d),
      inv1: al(N),
      h1: al(N * d),
      q: al(N * d),
      k: al(N * d),
      v: al(N * d),
      p: al(P),
      att: al(N * d),
      x2: al(N * d),
      inv2: al(N),
      h2: al(N * d),
      g: al(N * f),
      u: al(N * f),
      a: al(N * f),
      sg: al(N * f),
    });
  }
  const raw: Workspace = {
    B: 0,
    T,
    layers,
    xOut: al(N * d),
    invF: al(N),
    hF: al(N * d),
    rowsD: [al(N * d), al(N * d), al(N * d), al(N * d), al(N * d)],
    headsD: [al(N * d), al(N * d), al(N * d)],
    rowsF: [al(N * f), al(N * f), al(N * f)],
    tt: al(QUERY_BLOCK * T),
  };
  return { N, P, T, arena, raw };
}

/** A B×T workspace as views into a store that is large enough (every view has exactly the batch's size). */
export function workspaceView(
  c: LlamaConfig,
  st: WorkspaceStore,
  B: number,
  T: number,
  P: number,
): Workspace {
  const N = B * T;
  const d = c.hiddenSize;
  const f = c.intermediateSize;
  const cut = (a: Float32Array, n: number) => a.subarray(0, n);
  const r = st.raw;
  return {
    B,
    T,
    layers: r.layers.map((L) => ({
      x: cut(L.x, N * d),
      inv1: cut(L.inv1, N),
      h1: cut(L.h1, N * d),
      q: cut(L.q, N * d),
      k: cut(L.k, N * d),
      v: cut(L.v, N * d),
      p: cut(L.p, P),
      att: cut(L.att, N * d),
      x2: cut(L.x2, N * d),
      inv2: cut(L.inv2, N),
      h2: cut(L.h2, N * d),
      g: cut(L.g, N * f),
      u: cut(L.u, N * f),
      a: cut(L.a, N * f),
      sg: cut(L.sg, N * f),
    })),
    xOut: cut(r.xOut, N * d),
    invF: cut(r.invF, N),
    hF: cut(r.hF, N * d),
    rowsD: r.rowsD.map((a) => cut(a, N * d)),
    headsD: r.headsD.map((a) => cut(a, N * d)),
    rowsF: r.rowsF.map((a) => cut(a, N * f)),
    tt: cut(r.tt, QUERY_BLOCK * T),
  };
}
