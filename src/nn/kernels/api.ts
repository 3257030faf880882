/**
 * The matmul kernels the engine is written against. All operands are row-major Float32Arrays; weights are
 * stored like Hugging Face Linear layers, [out, in]. The three shapes cover a linear layer's forward and
 * backward passes. `accumulate` adds into `out` instead of overwriting it (gradient accumulation).
 *
 *   forward   y  = x · Wᵀ     matmulABt(y,  x,  W,  T, in,  out)
 *   backward  dx = dy · W     matmulAB (dx, dy, W,  T, out, in)
 *             dW = dyᵀ · x    matmulAtB(dW, dy, x,  out, T, in)
 */
/** One product for MatmulKernels.matmulMany: `shape` names the method (matmulABt, …), the rest its arguments. */
export interface MatmulCall {
  shape: "ABt" | "AB" | "AtB";
  out: Float32Array;
  a: Float32Array;
  b: Float32Array;
  M: number;
  K: number;
  N: number;
  accumulate?: boolean;
}

/**
 * Row-local work on a product's output rows, done right after them (MatmulKernels.matmulThen). `residual`: sum =
 * x + the product (a residual connection), then with `norm` the RMSNorm of sum into norm.out (norm.inv: 1/rms per
 * row; layers/rmsnorm.ts); `rope`: RoPE in place on the product's rows, each of H heads (layers/rope.ts
 * rotateRows; `inverse`: the backward); `swiglu`, on the product whose output is u: a = silu(g)·u, where g is
 * the output of an earlier product of the list with the same shape (the kernels compute its rows first, on the
 * same thread), keeping σ(g) in sg (layers/swiglu.ts); `swigluBackward`, on the product whose output is da:
 * dg, du from da, g, u (and σ(g) when kept); `rmsnormBackward`, on the product whose output is dy: RMSNorm's
 * backward (layers/rmsnorm.ts rmsnormGrad: dx += on the rows, dw += over all rows), dw possibly finished only
 * by the kernels' next call (MatmulKernels.flush). The work writes nothing a product of the list reads.
 */
export type RowWork =
  | {
      kind: "residual";
      sum: Float32Array;
      x: Float32Array;
      norm?: { out: Float32Array; inv: Float32Array; w: Float32Array; eps: number };
    }
  | { kind: "swiglu"; a: Float32Array; g: Float32Array; u: Float32Array; sg: Float32Array }
  | {
      kind: "rmsnormBackward";
      dx: Float32Array;
      dw: Float32Array;
      x: Float32Array;
      w: Float32Array;
      inv: Float32Array;
      /** dx = from + the norm's part on the rows (from's rows unchanged) instead of dx += it; kernels may refuse. */
      from?: Float32Array;
    }
  | {
      kind: "swigluBackward";
      dg: Float32Array;
      du: Float32Array;
      g: Float32Array;
      u: Float32Array;
      sg?: Float32Array;
    }
  | {
      kind: "rope";
      rope: { half: number; cos: Float32Array; sin: Float32Array };
      positions: Int32Array;
      H: number;
      inverse: boolean;
    };

export interface MatmulKernels {
  readonly name: string;
  /**
   * Names the part of the model the next products belong to (undefined: none), for the step breakdown of
   * kernels that time their calls (bench/engine.ts prints the LM head's products apart from the layers').
   */
  statsSection?(name: string | undefined): void;
  /** out[M,N] = a[M,K] · b[N,K]ᵀ */
  matmulABt(
    out: Float32Array,
    a: Float32Array,
    b: Float32Array,
    M: number,
    K: number,
    N: number,
    accumulate?: boolean,
  ): void;
  /** out[M,N] = a[M,K] · b[K,N] */
  matmulAB(
    out: Float32Array,
    a: Float32Array,
    b: Float32Array,
    M: number,
    K: number,
    N: number,
    accumulate?: boolean,
  ): void;
  /** out[M,N] = a[K,M]ᵀ · b[K,N] */
  matmulAtB(
    out: Float32Array,
    a: Float32Array,
    b: Float32Array,
    M: number,
    K: number,
    N: number,
    accumulate?: boolean,
  ): void;
  /**
   * Optional: several products at once, as the calls one by one in list order would compute them; kernels with
   * threads share them in one hand-off. None reads another's output; a later product may add into an earlier
   * one's output (same `out`, `accumulate`: dh = dg·Wg, then dh += du·Wu), and then runs after it.
   */
  matmulMany?(list: readonly MatmulCall[]): void;
  /**
   * Optional: the products of `list` as matmulMany, each followed by `then[i]` on its output rows (undefined:
   * nothing), with the bits of the products and then each RowWork's own kernel call; kernels with threads do a
   * product's work on each row chunk right after the chunk, in the same hand-off. Returns false, having computed
   * nothing, when it cannot (an array outside its memory, a product whose output another one adds into): the
   * caller then runs the products and the work itself.
   */
  matmulThen?(list: readonly MatmulCall[], then: readonly (RowWork | undefined)[]): boolean;
  /**
   * Optional: a row chain, products over the same M rows (no weight gradient), each followed by `then[i]` on its
   * rows, where a product reads only rows that earlier products and their work wrote (or the caller's arrays):
   * the same bits as product 0, then[0], product 1, then[1], … one after the other over all rows; kernels with
   * threads run the whole chain on each row chunk, in one hand-off (a layer's o, gate, up, down with the
   * residual adds, norms and SwiGLU between them). `beside`: products computed in the same hand-off (as
   * matmulMany), which read nothing the chain writes and write nothing it reads (the q, k, v weight gradients
   * beside the backward's chain from their input gradients to the layer below's). Returns false, having
   * computed nothing, when it cannot.
   */
  matmulChain?(
    list: readonly MatmulCall[],
    then: readonly (RowWork | undefined)[],
    beside?: readonly MatmulCall[],
  ): boolean;
  /** Optional: finishes work a call left for the next one (matmulThen's rmsnormBackward dw). */
  flush?(): void;
  /**
   * Optional elementwise layers in the same fast code (layers/swiglu.ts has the definitions and the plain JS
   * versions the engine uses when these are absent). Arguments as there. With `sg`, swigluForward also keeps
   * σ(g) there as its own backward computes it and returns true (false or nothing: it did not); swigluBackward
   * given the `sg` that call filled reads σ(g) from it instead of computing it again (the same bits, without a
   * second exponential and division per element).
   */
  swigluForward?(
    a: Float32Array,
    g: Float32Array,
    u: Float32Array,
    n: number,
    sg?: Float32Array,
  ): boolean | void;
  swigluBackward?(
    dg: Float32Array,
    du: Float32Array,
    da: Float32Array,
    g: Float32Array,
    u: Float32Array,
    n: number,
    sg?: Float32Array,
  ): void;
  /**
   * Optional: RMSNorm forward and backward (layers/rmsnorm.ts has the definitions and the JS loops). Return
   * false, having written nothing, when they cannot take these arrays.
   */
  rmsnormForward?(
    out: Float32Array,
    invRms: Float32Array,
    x: Float32Array,
    w: Float32Array,
    rows: number,
    d: number,
    eps: number,
  ): boolean;
  rmsnormBackward?(
    dx: Float32Array,
    dw: Float32Array,
    dy: Float32Array,
    x: Float32Array,
    w: Float32Array,
    invRms: Float32Array,
    rows: number,
    d: number,
  ): boolean;
  /**
   * Optional: causal attention of one (sequence, head) in one call (layers/attention.ts has the definition and
   * the JS version built on the matmuls above). Offsets are in floats: `at` is the sequence's first row in
   * Q, K, V, O (and their gradients), `pAt` where its probabilities start. Returns false, having written
   * nothing, when it cannot take these arrays.
   */
  attentionForward?(
    O: Float32Array,
    P: Float32Array,
    Q: Float32Array,
    K: Float32Array,
    V: Float32Array,
    at: number,
    pAt: number,
    L: number,
    hd: number,
    scale: number,
  ): boolean;
  attentionBackward?(
    dQ: Float32Array,
    dK: Float32Array,
    dV: Float32Array,
    dO: Float32Array,
    P: Float32Array,
    Q: Float32Array,
    K: Float32Array,
    V: Float32Array,
    scratch: Float32Array,
    at: number,
    pAt: number,
    L: number,
    hd: number,
    scale: number,
  ): boolean;
  /**
   * Optional: the attention of many (sequence, head) items in one call, split across the kernel threads.
   * `items` holds (at, pAt, L) triples as attentionForward/attentionBackward take them. `ld` (default hd): floats
   * from one row of an item to the next; H·hd reads and writes each head's columns inside the rows [B·T, H·hd]
   * (layers/attention.ts attentionForwardRows), the same bits as on head-major copies. Returns false, having
   * written nothing, when it cannot take these arrays or this `ld` (then the engine calls the per-item versions,
   * or copies the rows into head-major order). attentionBackwardAll with `rope` (rows, ld = H·hd) also applies
   * RoPE's backward (rotateRows, inverse) to each item's dQ and dK rows once the item has them, the same bits as
   * rotateRows after it; it returns false, having written nothing, when it cannot.
   */
  attentionForwardAll?(
    O: Float32Array,
    P: Float32Array,
    Q: Float32Array,
    K: Float32Array,
    V: Float32Array,
    items: Int32Array,
    hd: number,
    scale: number,
    ld?: number,
  ): boolean;
  attentionBackwardAll?(
    dQ: Float32Array,
    dK: Float32Array,
    dV: Float32Array,
    dO: Float32Array,
    P: Float32Array,
    Q: Float32Array,
    K: Float32Array,
    V: Float32Array,
    items: Int32Array,
    hd: number,
    scale: number,
    ld?: number,
    rope?: { rope: { half: number; cos: Float32Array; sin: Float32Array }; positions: Int32Array },
  ): boolean;
  /**
   * Optional: attentionBackwardAll with `rope` (rows, ld = H·hd) and the products of `list` (matmulMany: none
   * reads what another writes) in one pool job: each thread takes the attention items of its share of the rows
   * first, then its share of the products' chunks, then helps with what the others left. The attention must read
   * nothing the products write and write nothing they read or write (a layer's weight gradients). The same bits
   * as attentionBackwardAll, then the products. Returns false, having computed nothing, when it cannot.
   */
  attentionBackwardWith?(
    list: readonly MatmulCall[],
    dQ: Float32Array,
    dK: Float32Array,
    dV: Float32Array,
    dO: Float32Array,
    P: Float32Array,
    Q: Float32Array,
    K: Float32Array,
    V: Float32Array,
    items: Int32Array,
    hd: number,
    scale: number,
    ld: number,
    rope: { rope: { half: number; cos: Float32Array; sin: Float32Array }; positions: Int32Array },
  ): boolean;
  /**
   * Optional: layers/rope.ts rotateRows, RoPE in place on the first `rows` rows [rows, H·hd] of x and, when
   * given, of y (one hand-off for q and k), with the same bits. Returns false, having written nothing, when it
   * cannot take these arrays.
   */
  ropeRows?(
    x: Float32Array,
    y: Float32Array | undefined,
    rope: { half: number; cos: Float32Array; sin: Float32Array },
    positions: Int32Array,
    rows: number,
    H: number,
    inverse: boolean,
  ): boolean;
  /**
   * Optional: layers/attention.ts splitHeads (merge false: rows [B·T, H·hd] → heads [B, H, T, hd], rotated by
   * RoPE at `positions` when `rope` is given) and mergeHeads (merge true: heads → rows, rotated back), with
   * the same bits. Returns false, having written nothing, when it cannot take these arrays.
   */
  moveHeads?(
    dst: Float32Array,
    src: Float32Array,
    s: { B: number; H: number; T: number; hd: number },
    rope: { half: number; cos: Float32Array; sin: Float32Array } | undefined,
    positions: Int32Array | undefined,
    merge: boolean,
  ): boolean;
  /** Optional: out = x + y over n floats (the residual connections). Returns false when it cannot. */
  add?(out: Float32Array, x: Float32Array, y: Float32Array, n: number): boolean;
  /**
   * Optional: one AdamW step over n floats of parameters p with gradients g and moments m, v (train/adamw.ts
   * has the definition and the plain JS loop used when this is absent); `wd` is lr × weight decay (0: none),
   * c1 and c2 the bias corrections 1/(1 − β1ᵗ), 1/(1 − β2ᵗ). Returns false when it cannot take these arrays.
   */
  adamw?(
    p: Float32Array,
    g: Float32Array,
    m: Float32Array,
    v: Float32Array,
    o: { lr: number; beta1: number; beta2: number; eps: number; wd: number; c1: number; c2: number },
  ): boolean;
  /**
   * Optional, the rest of a training step (src/nn has the definitions and the JS loops used when these are
   * absent or return false/undefined, having written nothing):
   * crossEntropy: layers/cross-entropy.ts crossEntropyInPlace (returns the summed loss);
   * adamwSlices: one AdamW step over the flat buffers, `slices` holding (offset, length, decayed) triples in
   * floats, `o.wd` applied to the decayed ones (train/adamw.ts), each gradient read as g·`o.gradScale` (f64,
   * rounded once to f32: what `scale` would have written; g itself is left as it is, or with `o.zeroGrads` set
   * to 0 once read; false, having written nothing, when the kernels cannot zero it);
   * sumSquares, scale: Σ x² in f64 and x ← x·k (gradient clipping); fillZero: x ← 0;
   * embeddingForward: x[t] = emb[tokens[t]]; embeddingBackward: dEmb[tokens[t]] += dx[t], tokens in order;
   * gatherRows: out[j] = src[rows[j]] for j < n (rows of width d); scatterRows: out[rows[j]] = src[j] (rows
   * ascending) and every other of out's `outRows` rows 0;
   * averageInto: avg += (p − avg)/count (weight averaging).
   */
  crossEntropy?(
    logits: Float32Array,
    targets: Int32Array,
    rows: number,
    V: number,
    scale: number,
  ): number | undefined;
  adamwSlices?(
    p: Float32Array,
    g: Float32Array,
    m: Float32Array,
    v: Float32Array,
    slices: Int32Array,
    o: {
      lr: number;
      beta1: number;
      beta2: number;
      eps: number;
      wd: number;
      c1: number;
      c2: number;
      gradScale?: number;
      zeroGrads?: boolean;
    },
  ): boolean;
  sumSquares?(x: Float32Array): number | undefined;
  scale?(x: Float32Array, k: number): boolean;
  fillZero?(x: Float32Array): boolean;
  embeddingForward?(x: Float32Array, emb: Float32Array, tokens: Int32Array, N: number, d: number): boolean;
  embeddingBackward?(
    dEmb: Float32Array,
    dx: Float32Array,
    tokens: Int32Array,
    N: number,
    d: number,
    V: number,
  ): boolean;
  gatherRows?(out: Float32Array, src: Float32Array, rows: Int32Array, n: number, d: number): boolean;
  scatterRows?(
    out: Float32Array,
    src: Float32Array,
    rows: Int32Array,
    n: number,
    d: number,
    outRows: number,
  ): boolean;
  averageInto?(avg: Float32Array, p: Float32Array, count: number): boolean;
  /**
   * Optional: runs `job()` (kernel calls) and `work()` (plain JavaScript that calls no kernel), with the results
   * of job() then work(), but runs work on the calling thread while the helpers start on job()'s first pool
   * job, which this thread joins afterwards (after job() when none of it went to the pool). The trainer builds
   * the next batch this way while the helpers run the AdamW update.
   */
  alongside?(job: () => void, work: () => void): void;
  /**
   * Allocates a zeroed Float32Array the kernels can use without copying (for example a view into shared
   * WebAssembly memory). The engine allocates weights, gradients and activations through it.
   */
  alloc(length: number): Float32Array;
  /**
   * Optional: hands an array from alloc() back for reuse (present when alloc's memory is not managed by the
   * garbage collector). Only the exact array alloc returned, once; it must not be used afterwards.
   */
  free?(array: Float32Array): void;
}
