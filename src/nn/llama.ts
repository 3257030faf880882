import { headDim, type LlamaConfig } from "./config.ts";
import { kernels } from "./kernels/index.ts";
import type { MatmulCall, MatmulKernels, RowWork } from "./kernels/api.ts";
import {
  attentionBackwardRows,
  attentionBackwardRowsWith,
  attentionForwardRows,
  attentionProbsSize,
  type AttentionShape,
} from "./layers/attention.ts";
import { crossEntropyInPlace } from "./layers/cross-entropy.ts";
import { softCrossEntropyRow, type SoftTarget } from "./layers/soft-cross-entropy.ts";
import { sampledHeadLoss, type SampledHeadBuffers, type SampledSoftmax } from "./layers/sampled-head.ts";
import { ropeTable, rotateRows, type RopeTable } from "./layers/rope.ts";
import { rmsnorm, rmsnormGrad } from "./layers/rmsnorm.ts";
import { swigluBackward, swigluForward } from "./layers/swiglu.ts";
import { paramSpecs, type ParamSet } from "./params.ts";
import { allocateWorkspace, workspaceView, type Workspace, type WorkspaceStore } from "./workspace.ts";
import { ToolgenError } from "../errors.ts";

/** Room a packed batch's buffers get beyond its size (Llama.workspace). */
const PACKED_HEADROOM = 1.25;

/**
 * Products in one hand-off to the kernel threads when the kernels can, else one by one in list order (a later one
 * may add into an earlier one's output: MatmulKernels.matmulMany).
 */
function matmuls(k: MatmulKernels, list: MatmulCall[]): void {
  if (k.matmulMany) return k.matmulMany(list);
  for (const m of list) k[`matmul${m.shape}`](m.out, m.a, m.b, m.M, m.K, m.N, m.accumulate);
}

/** A layer's parameter (or gradient) arrays by role. */
interface LayerTensors {
  q: Float32Array;
  k: Float32Array;
  v: Float32Array;
  o: Float32Array;
  gate: Float32Array;
  up: Float32Array;
  down: Float32Array;
  norm1: Float32Array;
  norm2: Float32Array;
}

/**
 * Each layer's arrays of a ParamSet (its tensors are fixed views of its buffer), looked up once per set: a step
 * looked up ~60 names built by concatenation (issue 40: JS between kernel calls is serial).
 */
const layerCache = new WeakMap<ParamSet, LayerTensors[]>();
function layerTensors(P: ParamSet, layers: number): LayerTensors[] {
  let list = layerCache.get(P);
  if (!list || list.length !== layers) {
    list = [];
    for (let l = 0; l < layers; l++) {
      const pre = `model.layers.${l}.`;
      list.push({
        q: P.get(pre + "self_attn.q_proj.weight"),
        k: P.get(pre + "self_attn.k_proj.weight"),
        v: P.get(pre + "self_attn.v_proj.weight"),
        o: P.get(pre + "self_attn.o_proj.weight"),
        gate: P.get(pre + "mlp.gate_proj.weight"),
        up: P.get(pre + "mlp.up_proj.weight"),
        down: P.get(pre + "mlp.down_proj.weight"),
        norm1: P.get(pre + "input_layernorm.weight"),
        norm2: P.get(pre + "post_attention_layernorm.weight"),
      });
    }
    layerCache.set(P, list);
  }
  return list;
}

/**
 * Products each followed by row work on its output (MatmulKernels.matmulThen) in one hand-off when the kernels
 * can; else the products, then `otherwise()` (the same work as separate calls). Returns whether matmulThen did it.
 */
function matmulsThen(
  k: MatmulKernels,
  list: MatmulCall[],
  then: (RowWork | undefined)[],
  otherwise: () => void,
): boolean {
  if (k.matmulThen?.(list, then)) return true;
  matmuls(k, list);
  otherwise();
  return false;
}

/** y = x·Wᵀ [rows, out] (a linear layer), as a MatmulCall. */
const linear = (y: Float32Array, x: Float32Array, W: Float32Array, rows: number, inF: number, outF: number) =>
  ({ shape: "ABt", out: y, a: x, b: W, M: rows, K: inF, N: outF }) as const;
/** dx (+)= dy·W [rows, in]. */
const inputGrad = (
  dx: Float32Array,
  dy: Float32Array,
  W: Float32Array,
  rows: number,
  outF: number,
  inF: number,
  accumulate = false,
) => ({ shape: "AB", out: dx, a: dy, b: W, M: rows, K: outF, N: inF, accumulate }) as const;
/** dW += dyᵀ·x [out, in]. */
const weightGrad = (
  dW: Float32Array,
  dy: Float32Array,
  x: Float32Array,
  outF: number,
  rows: number,
  inF: number,
) => ({ shape: "AtB", out: dW, a: dy, b: x, M: outF, K: rows, N: inF, accumulate: true }) as const;

/**
 * A training batch: B rows of T tokens. `targets[i]` is the id to predict at position i, or −1 where no loss
 * is taken (padding, prompt tokens: the loss mask). `positions` are RoPE positions (they restart per row, or
 * per sample in a packed row). `spans`, for packed rows, lists the samples as (start, length) pairs over the
 * flat index b·T + t, tiling the rows: attention stays inside each span (AttentionShape.spans).
 */
export interface Batch {
  B: number;
  T: number;
  tokens: Int32Array;
  targets: Int32Array;
  positions: Int32Array;
  spans?: Int32Array;
  /**
   * Distributions to learn beside the target token at some positions (flat index → SoftTarget): those rows
   * take the mixed loss of softCrossEntropyRow; a batch without them takes exactly the plain cross-entropy.
   */
  soft?: ReadonlyMap<number, SoftTarget>;
  /**
   * The weight of each position's loss (flat index; absent: 1 everywhere): the loss is then Σ w·ℓ / Σ w over the
   * positions with a target. A position kept out of many by sampling can stand for them (`thinUserLoss`).
   */
  weights?: Float32Array;
  /** Per flat row: 1 where the target is one of the user's words (built on request: `BatchExtras.userRows`). */
  userRows?: Uint8Array;
  /**
   * A sampled softmax for some rows (the sampled user loss): their loss is over a shared set of candidates
   * instead of the whole vocabulary (`layers/sampled-head.ts`), so the LM head costs candidates·d per row instead
   * of V·d. Not with `weights`, nor on a row with a soft target.
   */
  sampled?: SampledSoftmax;
}

/**
 * The Llama model for training: forward and backward over a batch, written out per layer. Every matmul goes
 * through the kernels: y = x·Wᵀ is matmulABt(y, x, W, N, in, out) with N = B·T rows; dx = dy·W is
 * matmulAB(dx, dy, W, N, out, in); dW += dyᵀ·x is matmulAtB(dW, dy, x, out, N, in, true).
 * The lm_head runs only on the rows that have a target, which is what makes loss masking cheap.
 */
export class Llama {
  readonly rope: RopeTable;
  private readonly k: MatmulKernels = kernels();
  private store: WorkspaceStore | undefined;
  /** Per layer: whether the last forward's SwiGLU kept σ(g) in the workspace (the backward then reads it). */
  private readonly sgKept: boolean[] = [];

  constructor(
    readonly config: LlamaConfig,
    readonly params: ParamSet,
  ) {
    const expected = paramSpecs(config);
    const mismatch = expected.find((t) => params.tensor(t.name)?.shape.join(",") !== t.shape.join(","));
    if (mismatch || params.tensors.length !== expected.length) {
      throw new Error(
        `parameters do not fit the config${mismatch ? `: ${mismatch.name} should be [${mismatch.shape}]` : ""}`,
      );
    }
    this.rope = ropeTable(config.maxPositions, headDim(config), config.ropeTheta);
  }

  get lmHead(): Float32Array {
    return this.params.get(this.config.tieWordEmbeddings ? "model.embed_tokens.weight" : "lm_head.weight");
  }

  /**
   * The activation buffers for a B×T batch: views into buffers allocated for the largest batch seen so far
   * (they only grow), so length-bucketed batches of varying T reuse one allocation. A packed batch (spans) gets
   * PACKED_HEADROOM more than it needs: its row count changes from step to step (the retrieval stage's 32
   * samples: 969–1,217 rows over 150 steps), and each new maximum reallocated and zeroed the ~50 MB of
   * buffers, 17–24 ms on the 2-core machine, 8 times in those 150 steps (issue 40).
   */
  private workspace(s: AttentionShape): Workspace {
    const { B, T } = s;
    const N = B * T;
    const P = attentionProbsSize(s);
    let st = this.store;
    if (!st || N > st.N || P > st.P || T > st.T) {
      const room = (x: number) => (s.spans ? Math.ceil(x * PACKED_HEADROOM) : x);
      const grown = {
        N: Math.max(room(N), st?.N ?? 0),
        P: Math.max(room(P), st?.P ?? 0),
        T: Math.max(room(T), st?.T ?? 0),
      };
      this.releaseWorkspace(); // free the old buffers before allocating bigger ones
      st = this.store = allocateWorkspace(this.config, grown.N, grown.P, grown.T);
    }
    return workspaceView(this.config, st, B, T, P);
  }

  private shape(batch: Batch): AttentionShape {
    const { B, T, spans } = batch;
    return { B, H: this.config.numHeads, T, hd: headDim(this.config), ...(spans ? { spans } : {}) };
  }

  /** Runs the layers and the final norm; leaves activations in the workspace. Returns hF [N, d]. */
  private trunk(batch: Batch): Workspace {
    const { B, T, tokens, positions } = batch;
    const c = this.config;
    if (!batch.spans && T > c.maxPositions)
      throw new ToolgenError(
        "invalid_input",
        `sequence length ${T} exceeds the model context (${c.maxPositions})`,
      );
    for (let i = 0; i < B * T; i++) {
      const t = positions[i];
      if (!(t >= 0 && t < c.maxPositions))
        throw new ToolgenError(
          "invalid_input",
          `position ${t} outside the model context (0..${c.maxPositions - 1})`,
        );
    }
    const s = this.shape(batch);
    const ws = this.workspace(s);
    const P = this.params;
    const k = this.k;
    const N = B * T;
    const d = c.hiddenSize;
    const f = c.intermediateSize;
    const emb = P.get("model.embed_tokens.weight");
    const x0 = ws.layers.length > 0 ? ws.layers[0].x : ws.xOut;
    for (let i = 0; i < N; i++) {
      const id = tokens[i];
      if (!(id >= 0 && id < c.vocabSize))
        throw new ToolgenError(
          "invalid_input",
          `token id ${id} outside the vocabulary (size ${c.vocabSize})`,
        );
    }
    if (!k.embeddingForward?.(x0, emb, tokens, N, d))
      for (let i = 0; i < N; i++) x0.set(emb.subarray(tokens[i] * d, (tokens[i] + 1) * d), i * d);
    const tmp = ws.rowsD[0];
    const eps = c.rmsNormEps;
    // the RMSNorm after each residual add: the next layer's input norm, after the last layer the final one
    const normAfter = (l: number) =>
      l + 1 < c.numLayers
        ? {
            out: ws.layers[l + 1].h1,
            inv: ws.layers[l + 1].inv1,
            w: layers[l + 1]!.norm1,
            eps,
          }
        : { out: ws.hF, inv: ws.invF, w: P.get("model.norm.weight"), eps };
    // whether the last residual add also computed the norm after it (kernels with matmulThen), and whether the
    // last layer's row chain also computed this layer's q, k, v
    let normed = false;
    let qkvDone = false;
    const layers = layerTensors(P, c.numLayers);
    for (let l = 0; l < c.numLayers; l++) {
      const A = ws.layers[l];
      const W = layers[l]!;
      const next = l + 1 < c.numLayers ? ws.layers[l + 1].x : ws.xOut;
      if (!normed) rmsnorm(k, A.h1, A.inv1, A.x, W.norm1, N, d, eps);
      // q, k, v stay in the rows [N, d] (the attention reads each head's columns there): RoPE on q and k in
      // place, on each row chunk right after it (matmulThen), else one job for both
      const rope: RowWork = { kind: "rope", rope: this.rope, positions, H: c.numHeads, inverse: false };
      if (!qkvDone)
        matmulsThen(
          k,
          [linear(A.q, A.h1, W.q, N, d, d), linear(A.k, A.h1, W.k, N, d, d), linear(A.v, A.h1, W.v, N, d, d)],
          [rope, rope, undefined],
          () => rotateRows(k, this.rope, positions, N, c.numHeads, false, A.q, A.k),
        );
      attentionForwardRows(k, A.att, A.p, A.q, A.k, A.v, s);
      const norm2 = { out: A.h2, inv: A.inv2, w: W.norm2, eps };
      const norm = normAfter(l);
      // The rest of the layer reads each row alone: o, gate, up, down and the work between them in one hand-off
      // when the kernels can (matmulChain), each thread going through the whole layer on its rows, and on to the
      // next layer's q, k, v (+ RoPE), which read only the rows of the norm down's work just wrote
      const list: MatmulCall[] = [
        linear(tmp, A.att, W.o, N, d, d),
        linear(A.g, A.h2, W.gate, N, d, f),
        linear(A.u, A.h2, W.up, N, d, f),
        linear(tmp, A.a, W.down, N, f, d),
      ];
      const then: (RowWork | undefined)[] = [
        { kind: "residual", sum: A.x2, x: A.x, norm: norm2 },
        undefined,
        { kind: "swiglu", a: A.a, g: A.g, u: A.u, sg: A.sg },
        { kind: "residual", sum: next, x: A.x2, norm },
      ];
      const B1 = ws.layers[l + 1];
      const W1 = layers[l + 1];
      if (B1 && W1) {
        list.push(linear(B1.q, B1.h1, W1.q, N, d, d), linear(B1.k, B1.h1, W1.k, N, d, d));
        list.push(linear(B1.v, B1.h1, W1.v, N, d, d));
        then.push(rope, rope, undefined);
      }
      // (kernels that cannot take the longer chain may take the layer's own)
      const chained = !!k.matmulChain?.(list, then);
      qkvDone = chained && list.length > 4;
      if (chained || (list.length > 4 && k.matmulChain?.(list.slice(0, 4), then.slice(0, 4)))) {
        this.sgKept[l] = true;
        normed = true;
        continue;
      }
      // else: x2 = x + o_proj(att), then h2 = its norm: on the product's row chunks when the kernels can
      matmulsThen(
        k,
        [linear(tmp, A.att, W.o, N, d, d)],
        [{ kind: "residual", sum: A.x2, x: A.x, norm: norm2 }],
        () => {
          if (!k.add?.(A.x2, A.x, tmp, N * d)) for (let i = 0; i < N * d; i++) A.x2[i] = A.x[i] + tmp[i];
          rmsnorm(k, A.h2, A.inv2, A.x2, norm2.w, N, d, eps);
        },
      );
      // gate, up, then a = silu(g)·u keeping σ(g) for the backward (no second exponential there): on each row
      // chunk of the two products when the kernels can, else a job of its own
      const fused = matmulsThen(
        k,
        [linear(A.g, A.h2, W.gate, N, d, f), linear(A.u, A.h2, W.up, N, d, f)],
        [undefined, { kind: "swiglu", a: A.a, g: A.g, u: A.u, sg: A.sg }],
        () => {
          if (k.swigluForward) this.sgKept[l] = k.swigluForward(A.a, A.g, A.u, N * f, A.sg) === true;
          else swigluForward(A.a, A.g, A.u, N * f);
        },
      );
      if (fused) this.sgKept[l] = true;
      // the residual stream's next rows, then the norm after them
      normed = matmulsThen(
        k,
        [linear(tmp, A.a, W.down, N, f, d)],
        [{ kind: "residual", sum: next, x: A.x2, norm }],
        () => {
          if (!k.add?.(next, A.x2, tmp, N * d)) for (let i = 0; i < N * d; i++) next[i] = A.x2[i] + tmp[i];
        },
      );
    }
    if (!normed) rmsnorm(k, ws.hF, ws.invF, ws.xOut, P.get("model.norm.weight"), N, d, eps);
    return ws;
  }

  /** Logits for every position [B·T, V] (tests, evaluation). */
  logits(batch: Batch): Float32Array {
    const ws = this.trunk(batch);
    const N = batch.B * batch.T;
    const out = new Float32Array(N * this.config.vocabSize);
    this.k.matmulABt(out, ws.hF, this.lmHead, N, this.config.hiddenSize, this.config.vocabSize);
    return out;
  }

  /**
   * Logits at chosen rows only (row = b·T + t), [rows.length, V]: the lm_head runs on those rows alone, so
   * scoring the next token of many padded prompts costs one trunk pass and rows·V·d for the head.
   */
  logitsAt(batch: Batch, rows: readonly number[]): Float32Array {
    const d = this.config.hiddenSize;
    const h = this.hiddenAt(batch, rows);
    const out = new Float32Array(rows.length * this.config.vocabSize);
    this.k.matmulABt(out, h, this.lmHead, rows.length, d, this.config.vocabSize);
    return out;
  }

  /** The final hidden states (after the last norm: what the lm_head reads) at chosen rows, [rows.length, d]. */
  hiddenAt(batch: Batch, rows: readonly number[]): Float32Array {
    const ws = this.trunk(batch);
    const d = this.config.hiddenSize;
    const N = batch.B * batch.T;
    const h = new Float32Array(rows.length * d);
    rows.forEach((r, j) => {
      if (!(Number.isInteger(r) && r >= 0 && r < N))
        throw new Error(`hiddenAt: row ${r} outside the batch (0..${N - 1})`);
      h.set(ws.hF.subarray(r * d, (r + 1) * d), j * d);
    });
    return h;
  }

  /** Mean cross-entropy over the positions with a target, without gradients. */
  loss(batch: Batch): { loss: number; count: number } {
    return this.run(batch, undefined);
  }

  /**
   * Forward and backward: writes the gradients of (lossScale × mean loss over positions with a target) into
   * `grads`, overwriting them, or adding to them with `accumulate` (gradient accumulation over micro-batches).
   * Returns the mean loss and `count`, the number of positions with a target.
   */
  forwardBackward(
    batch: Batch,
    grads: ParamSet,
    o: { accumulate?: boolean; lossScale?: number } = {},
  ): { loss: number; count: number } {
    return this.run(batch, grads, o.accumulate ?? false, o.lossScale ?? 1);
  }

  private run(
    batch: Batch,
    grads: ParamSet | undefined,
    accumulate = false,
    lossScale = 1,
  ): { loss: number; count: number } {
    const c = this.config;
    const d = c.hiddenSize;
    const N = batch.B * batch.T;
    const sampled = batch.sampled;
    if (sampled && batch.weights)
      throw new ToolgenError("invalid_input", "a batch cannot have both loss weights and a sampled softmax");
    // rows with a target: those on the full softmax (`rows`) and those on the sampled one (`sampledRows`)
    const rows: number[] = [];
    const sampledRows: number[] = [];
    for (let i = 0; i < N; i++) if (batch.targets[i] >= 0) (sampled?.rows[i] ? sampledRows : rows).push(i);
    // weighted rows: grouped by weight (each group one cross-entropy call at its own scale)
    const groups = batch.weights ? weightGroups(rows, batch.weights) : undefined;
    if (groups) rows.splice(0, rows.length, ...groups.flatMap((g) => g.rows));
    const M = rows.length;
    const count = M + sampledRows.length;
    if (count === 0)
      throw new ToolgenError(
        "invalid_input",
        "batch has no positions with a target (the loss mask is empty)",
      );
    const ws = this.trunk(batch);
    const k = this.k;
    // the loss is Σ w·ℓ / Σ w; unweighted, w = 1 and Σ w = the rows with a target
    const weightSum = groups ? groups.reduce((a, g) => a + g.weight * g.rows.length, 0) : count;
    const lmName = c.tieWordEmbeddings ? "model.embed_tokens.weight" : "lm_head.weight";
    if (grads && !accumulate && !k.fillZero?.(grads.flat)) grads.flat.fill(0);
    const dhF = ws.rowsD[1];
    // (fullHead writes every row of dhF, those without a target 0)
    if (grads && M === 0 && !k.fillZero?.(dhF)) dhF.fill(0);
    let total = 0;
    if (M > 0) total += this.fullHead(batch, ws, rows, groups, weightSum, lossScale, grads?.get(lmName), dhF);
    if (sampled && sampledRows.length > 0) {
      if (batch.soft && sampledRows.some((r) => batch.soft!.has(r)))
        throw new ToolgenError("invalid_input", "a row with a soft target cannot take the sampled softmax");
      const buf = this.sampledBuffers(sampledRows.length, sampled.ids.length, !!batch.spans);
      total += sampledHeadLoss(
        k,
        sampled,
        this.lmHead,
        grads?.get(lmName),
        ws.hF,
        sampledRows,
        batch.targets,
        d,
        lossScale / weightSum,
        buf,
      );
      if (grads) sampledRows.forEach((r, j) => dhF.set(buf.dh.subarray(j * d, (j + 1) * d), r * d));
    }
    if (grads) this.backward(batch, ws, dhF, grads);
    return { loss: total / weightSum, count };
  }

  /**
   * The rows on the full softmax: gathers them, projects them to the vocabulary, takes their (weighted, soft)
   * cross-entropy, and with `lmGrad` adds the head's gradient into it and writes the rows' gradient into `dhF`.
   * Returns the summed, weighted loss. With `lmGrad`, the rows of dhF without a target are 0.
   */
  private fullHead(
    batch: Batch,
    ws: Workspace,
    rows: number[],
    groups: ReturnType<typeof weightGroups> | undefined,
    weightSum: number,
    lossScale: number,
    lmGrad: Float32Array | undefined,
    dhF: Float32Array,
  ): number {
    const d = this.config.hiddenSize;
    const V = this.config.vocabSize;
    const M = rows.length;
    const k = this.k;
    // gather the rows that carry a loss, project them to the vocabulary
    const { hSel, dhSel, logits } = this.headBuffers(M, !!batch.spans);
    const targets = new Int32Array(M);
    const at = new Int32Array(M);
    for (let j = 0; j < M; j++) {
      at[j] = rows[j]!;
      targets[j] = batch.targets[rows[j]!];
    }
    // on the pool when the kernels can: each thread copies rows the other one may have written (issue 40)
    if (!k.gatherRows?.(hSel, ws.hF, at, M, d))
      rows.forEach((r, j) => hSel.set(ws.hF.subarray(r * d, (r + 1) * d), j * d));
    k.statsSection?.("LM head");
    k.matmulABt(logits, hSel, this.lmHead, M, d, V);
    k.statsSection?.(undefined);
    // Rows with a soft target: their logits, kept before the cross-entropy turns them into gradients.
    const softRows: Array<{ j: number; soft: SoftTarget; z: Float32Array }> = [];
    if (batch.soft)
      rows.forEach((r, j) => {
        const soft = batch.soft!.get(r);
        if (soft) softRows.push({ j, soft, z: logits.slice(j * V, (j + 1) * V) });
      });
    const weightOf = (j: number): number => (groups ? batch.weights![rows[j]!]! : 1);
    let total = 0;
    for (const g of groups ?? [{ weight: 1, start: 0, rows }]) {
      const start = groups ? g.start : 0;
      const block = logits.subarray(start * V, (start + g.rows.length) * V);
      const scale = (lossScale * g.weight) / weightSum;
      const sum =
        k.crossEntropy?.(block, targets.subarray(start), g.rows.length, V, scale) ??
        crossEntropyInPlace(block, targets.subarray(start), g.rows.length, V, scale);
      total += g.weight * sum;
    }
    for (const { j, soft, z } of softRows) {
      const row = logits.subarray(j * V, (j + 1) * V);
      const w = weightOf(j);
      const { loss, hard } = softCrossEntropyRow(z, row, targets[j]!, soft, (lossScale * w) / weightSum);
      total += w * (loss - hard);
    }
    if (lmGrad) {
      k.statsSection?.("LM head");
      k.matmulAB(dhSel, logits, this.lmHead, M, V, d);
      k.matmulAtB(lmGrad, logits, hSel, V, M, d, true);
      k.statsSection?.(undefined);
      // rows ascend, except when weight groups reorder them (then the copy in JS)
      const N = batch.B * batch.T;
      if (groups || !k.scatterRows?.(dhF, dhSel, at, M, d, N)) {
        if (!k.fillZero?.(dhF)) dhF.fill(0);
        rows.forEach((r, j) => dhF.set(dhSel.subarray(j * d, (j + 1) * d), r * d));
      }
    }
    return total;
  }

  /** The sampled rows' buffers, grown on demand like the head's (`headBuffers`). */
  private sampledBuffers(M: number, S: number, packed: boolean): SampledHeadBuffers {
    const st = this.store!;
    const room = (x: number) => (packed ? Math.ceil(x * PACKED_HEADROOM) : x);
    const have = st.sampledHead;
    if (!have || have.rows < M || have.candidates < S) {
      const d = this.config.hiddenSize;
      const rows = Math.max(room(M), have?.rows ?? 0);
      const candidates = Math.max(room(S), have?.candidates ?? 0);
      const a = st.arena;
      if (have) for (const b of [have.h, have.dh, have.logits, have.w, have.dw]) a.release(b);
      st.sampledHead = {
        rows,
        candidates,
        h: a.alloc(rows * d),
        dh: a.alloc(rows * d),
        logits: a.alloc(rows * candidates),
        w: a.alloc(candidates * d),
        dw: a.alloc(candidates * d),
      };
    }
    return st.sampledHead!;
  }

  private headBuffers(
    M: number,
    packed: boolean,
  ): { hSel: Float32Array; dhSel: Float32Array; logits: Float32Array } {
    const st = this.store!;
    if (!st.head || st.head.rows < M) {
      const d = this.config.hiddenSize;
      // a packed batch's rows with a target vary from step to step as well: room for more, as for the workspace
      const rows = Math.max(packed ? Math.ceil(M * PACKED_HEADROOM) : M, st.head?.rows ?? 0);
      const a = st.arena;
      if (st.head) for (const b of [st.head.hSel, st.head.dhSel, st.head.logits]) a.release(b);
      st.head = {
        rows,
        hSel: a.alloc(rows * d),
        dhSel: a.alloc(rows * d),
        logits: a.alloc(rows * this.config.vocabSize),
      };
    }
    return st.head;
  }

  /** Frees the activation buffers (they are reallocated on the next forward). */
  releaseWorkspace(): void {
    this.store?.arena.releaseAll();
    this.store = undefined;
  }

  /** Backward from dL/dhF through the final norm, the layers (last to first) and the embedding. */
  private backward(batch: Batch, ws: Workspace, dhF: Float32Array, G: ParamSet): void {
    const c = this.config;
    const P = this.params;
    const k = this.k;
    const { B, T, positions, tokens } = batch;
    const N = B * T;
    const d = c.hiddenSize;
    const f = c.intermediateSize;
    const s = this.shape(batch);
    let dx = ws.rowsD[0]; // gradient of the residual stream, carried down through the layers
    let dxNext = ws.rowsD[1]; // (dhF until the final norm's backward; then where a row chain writes dL/dx2)
    const tmp = ws.rowsD[2];
    const dh = ws.rowsD[3];
    // the row chain's dh (dg·Wg + du·Wu): the norm's deferred dw reads it in the job where the attention's
    // backward writes dQ, dK, dV, and the layer above's deferred norm dw reads dh in the chain's own job
    const chainDh = ws.rowsD[4];
    if (!k.fillZero?.(dx)) dx.fill(0);
    rmsnormGrad(k, dx, G.get("model.norm.weight"), dhF, ws.xOut, P.get("model.norm.weight"), ws.invF, N, d);
    const [dQ, dK, dV] = ws.headsD;
    const [da, dg, du] = ws.rowsF;
    const layers = layerTensors(P, c.numLayers);
    const grads = layerTensors(G, c.numLayers);
    // the q/k/v backward of the layer above, left for this layer's row chain (see its end)
    let qkv: { list: MatmulCall[]; then: (RowWork | undefined)[]; weights: MatmulCall[] } | undefined;
    for (let l = c.numLayers - 1; l >= 0; l--) {
      const A = ws.layers[l];
      const W = layers[l]!;
      const dW = grads[l]!;
      // MLP: out = x2 + down(silu(gate(h2)) ⊙ up(h2)); dx currently holds dL/dout
      const sg = this.sgKept[l] ? A.sg : undefined;
      const swigluBack: RowWork = { kind: "swigluBackward", dg, du, g: A.g, u: A.u, ...(sg ? { sg } : {}) };
      // One hand-off when the kernels can (matmulChain), each thread through the layer's rows: da, then dg, du
      // from it; dh = dg·Wg, += du·Wu (chainDh); the norm's backward writing dL/dx2 into dxNext (dx stays for
      // down's weight gradient; its dw in the next job); dO = dL/dx2·Wo. Then the four weight gradients, which
      // read whole columns, in one job with the attention's backward when the kernels can (below).
      const list = [
        inputGrad(da, dx, W.down, N, d, f),
        inputGrad(chainDh, dg, W.gate, N, f, d),
        inputGrad(chainDh, du, W.up, N, f, d, true),
        inputGrad(tmp, dxNext, W.o, N, d, d),
      ];
      const then: (RowWork | undefined)[] = [
        swigluBack,
        undefined,
        { kind: "rmsnormBackward", dx: dxNext, from: dx, dw: dW.norm2, x: A.x2, w: W.norm2, inv: A.inv2 },
        undefined,
      ];
      // the layer above's q/k/v input gradients and its norm's backward (dx in place) read and write each row
      // alone: the chain starts with them, their weight gradients beside it (one hand-off less a layer)
      let chained = !!qkv && !!k.matmulChain?.([...qkv.list, ...list], [...qkv.then, ...then], qkv.weights);
      if (qkv && !chained) matmulsThenQkv(k, qkv);
      chained ||= !!k.matmulChain?.(list, then);
      const rope = { rope: this.rope, positions };
      // whether the attention's backward (dQ, dK, dV with RoPE's backward) has run too
      let attended = false;
      if (chained) {
        const weightGrads = [
          weightGrad(dW.down, dx, A.a, d, N, f),
          weightGrad(dW.gate, dg, A.h2, f, N, d),
          weightGrad(dW.up, du, A.h2, f, N, d),
          weightGrad(dW.o, dxNext, A.att, d, N, d),
        ];
        // the attention reads dO = tmp, P, q, k, v, which no weight gradient writes, and writes dQ, dK, dV,
        // which none reads: one job, each thread its rows' attention items first (issue 40)
        attended = attentionBackwardRowsWith(k, weightGrads, dQ, dK, dV, tmp, A.p, A.q, A.k, A.v, s, rope);
        if (!attended) matmuls(k, weightGrads);
        [dx, dxNext] = [dxNext, dx];
      } else {
        // else da, then dg, du from it on its row chunks when the kernels can
        matmulsThen(
          k,
          [inputGrad(da, dx, W.down, N, d, f), weightGrad(dW.down, dx, A.a, d, N, f)],
          [swigluBack, undefined],
          () => {
            if (k.swigluBackward) k.swigluBackward(dg, du, da, A.g, A.u, N * f, sg);
            else swigluBackward(dg, du, da, A.g, A.u, N * f);
          },
        );
        // dh = dg·Wg, then += du·Wu (that order: the kernels run the second on the first one's row chunks); the
        // weight gradients alongside; then the norm's backward: dx on dh's row chunks, its dw in the next job
        const norm2: RowWork = {
          kind: "rmsnormBackward",
          dx,
          dw: dW.norm2,
          x: A.x2,
          w: W.norm2,
          inv: A.inv2,
        };
        matmulsThen(
          k,
          [
            inputGrad(dh, dg, W.gate, N, f, d),
            weightGrad(dW.gate, dg, A.h2, f, N, d),
            weightGrad(dW.up, du, A.h2, f, N, d),
            inputGrad(dh, du, W.up, N, f, d, true),
          ],
          [norm2, undefined, undefined, undefined],
          () => rmsnormGrad(k, dx, dW.norm2, dh, A.x2, W.norm2, A.inv2, N, d),
        );
        // attention: x2 = x + o_proj(attn(h1)); dx now holds dL/dx2
        matmuls(k, [inputGrad(tmp, dx, W.o, N, d, d), weightGrad(dW.o, dx, A.att, d, N, d)]);
      }
      // dO = tmp, and dQ, dK, dV in the rows [N, d] as well; RoPE's backward on dQ and dK in one job
      // (RoPE's backward on each item's rows as soon as it has them, when the kernels can)
      if (!attended && !attentionBackwardRows(k, dQ, dK, dV, tmp, A.p, A.q, A.k, A.v, ws.tt, s, rope))
        rotateRows(k, this.rope, positions, N, c.numHeads, true, dQ, dK);
      // dh = dQ·Wq, += dK·Wk, += dV·Wv (that order, on the same row chunks), then the norm's backward (dx in
      // place); the three weight gradients alongside: in the next layer's row chain when there is one and the
      // kernels chain rows, else now
      qkv = {
        list: [
          inputGrad(dh, dQ, W.q, N, d, d),
          inputGrad(dh, dK, W.k, N, d, d, true),
          inputGrad(dh, dV, W.v, N, d, d, true),
        ],
        then: [
          undefined,
          undefined,
          { kind: "rmsnormBackward", dx, dw: dW.norm1, x: A.x, w: W.norm1, inv: A.inv1 },
        ],
        weights: [
          weightGrad(dW.q, dQ, A.h1, d, N, d),
          weightGrad(dW.k, dK, A.h1, d, N, d),
          weightGrad(dW.v, dV, A.h1, d, N, d),
        ],
      };
      if (l === 0 || !chained) {
        matmulsThenQkv(k, qkv);
        qkv = undefined;
      }
    }
    const dEmb = G.get("model.embed_tokens.weight");
    k.flush?.(); // (the last norm's dw, when the kernels left it for their next call)
    if (k.embeddingBackward?.(dEmb, dx, tokens, N, d, c.vocabSize)) return;
    for (let i = 0; i < N; i++) {
      const o = tokens[i] * d;
      for (let j = 0; j < d; j++) dEmb[o + j] += dx[i * d + j];
    }
  }
}

/**
 * A layer's q/k/v backward on its own: dh = dQ·Wq, += dK·Wk, += dV·Wv on the same row chunks, the norm's
 * backward on them (dx in place; its dw in the next job), the three weight gradients alongside, in one hand-off
 * when the kernels can.
 */
function matmulsThenQkv(
  k: MatmulKernels,
  qkv: { list: MatmulCall[]; then: (RowWork | undefined)[]; weights: MatmulCall[] },
): void {
  const [q, kk, v] = qkv.list as [MatmulCall, MatmulCall, MatmulCall];
  const norm = qkv.then[2] as Extract<RowWork, { kind: "rmsnormBackward" }>;
  matmulsThen(
    k,
    [q, ...qkv.weights, kk, v],
    [norm, undefined, undefined, undefined, undefined, undefined],
    () => rmsnormGrad(k, norm.dx, norm.dw, q.out, norm.x, norm.w, norm.inv, q.M, q.N),
  );
}

/** The rows with a target grouped by their loss weight, heaviest last, each group in row order. */
function weightGroups(
  rows: readonly number[],
  weights: Float32Array,
): Array<{ weight: number; start: number; rows: number[] }> {
  const byWeight = new Map<number, number[]>();
  for (const r of rows) {
    const w = weights[r]!;
    if (!(w > 0 && Number.isFinite(w)))
      throw new Error(`loss weight ${w} at row ${r}: weights must be positive`);
    const group = byWeight.get(w);
    if (group) group.push(r);
    else byWeight.set(w, [r]);
  }
  let start = 0;
  return [...byWeight.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([weight, group]) => {
      const g = { weight, start, rows: group };
      start += group.length;
      return g;
    });
}
