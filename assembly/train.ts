// The parts of a training step besides the layers (assembly/tasks.ts dispatches them to the thread pool): RMSNorm
// backward, cross-entropy, AdamW over parameter slices, the gradient norm and clipping, the embedding and weight
// averaging. Every item writes its own outputs, and every sum runs in an order fixed by the problem alone (never by
// the number of threads or by which thread finishes first), so the results are the same bits on any thread count.
// Where the JS version (src/nn) computes in f64, so does this, and rounds to f32 where it stores (cross-entropy
// excepted: its exponentials run in f32 lanes).
import { exp4 } from "./exp";

/**
 * RMSNorm backward, the dx part of rows r0..r1−1: with g = dy·w, dx += inv·(g − x·inv²·mean(g·x)) (elementwise.ts
 * rmsnormBackward is this over all rows and rmsnormWeightGrad over all columns).
 */
export function rmsnormInputGrad(
  dx: usize,
  dy: usize,
  x: usize,
  w: usize,
  inv: usize,
  r0: i32,
  r1: i32,
  d: i32,
): void {
  rmsnormInputGradFrom(dx, dx, dy, x, w, inv, r0, r1, d);
}

/**
 * rmsnormInputGrad writing dx = from + inv·(…) instead of adding into dx (the same bits as copying from into dx
 * first): the backward's row chain leaves the gradient it started from in place for a weight gradient to read.
 */
export function rmsnormInputGradFrom(
  dx: usize,
  from: usize,
  dy: usize,
  x: usize,
  w: usize,
  inv: usize,
  r0: i32,
  r1: i32,
  d: i32,
): void {
  for (let r = r0; r < r1; r++) {
    const o0 = <usize>(r * d) * 4;
    const k = load<f32>(inv + <usize>r * 4);
    let acc = f32x4.splat(0);
    const kv = f32x4.splat(k);
    let i = 0;
    for (; i + 4 <= d; i += 4) {
      const o = <usize>i * 4;
      const dyx = f32x4.mul(v128.load(dy + o0 + o), v128.load(x + o0 + o));
      acc = f32x4.add(acc, f32x4.mul(dyx, v128.load(w + o)));
    }
    let dot =
      f32x4.extract_lane(acc, 0) +
      f32x4.extract_lane(acc, 1) +
      f32x4.extract_lane(acc, 2) +
      f32x4.extract_lane(acc, 3);
    for (; i < d; i++) {
      const o = <usize>i * 4;
      dot += load<f32>(dy + o0 + o) * load<f32>(x + o0 + o) * load<f32>(w + o);
    }
    const c: f32 = (dot / <f32>d) * k * k;
    const cv = f32x4.splat(c);
    i = 0;
    for (; i + 4 <= d; i += 4) {
      const o = <usize>i * 4;
      const g = f32x4.mul(v128.load(dy + o0 + o), v128.load(w + o));
      const t = f32x4.mul(kv, f32x4.sub(g, f32x4.mul(v128.load(x + o0 + o), cv)));
      v128.store(dx + o0 + o, f32x4.add(v128.load(from + o0 + o), t));
    }
    for (; i < d; i++) {
      const o = <usize>i * 4;
      const g = load<f32>(dy + o0 + o) * load<f32>(w + o);
      store<f32>(dx + o0 + o, load<f32>(from + o0 + o) + k * (g - load<f32>(x + o0 + o) * c));
    }
  }
}

/**
 * RMSNorm backward, the dw part of columns c0..c1−1: dw += Σ_rows dy·x·inv, row after row in order (the order of
 * the one-thread loop, so splitting by columns changes no bit).
 */
export function rmsnormWeightGrad(
  dw: usize,
  dy: usize,
  x: usize,
  inv: usize,
  rows: i32,
  d: i32,
  c0: i32,
  c1: i32,
): void {
  for (let r = 0; r < rows; r++) {
    const o0 = <usize>(r * d) * 4;
    const k = load<f32>(inv + <usize>r * 4);
    const kv = f32x4.splat(k);
    let i = c0;
    for (; i + 4 <= c1; i += 4) {
      const o = <usize>i * 4;
      const dyx = f32x4.mul(v128.load(dy + o0 + o), v128.load(x + o0 + o));
      v128.store(dw + o, f32x4.add(v128.load(dw + o), f32x4.mul(dyx, kv)));
    }
    for (; i < c1; i++) {
      const o = <usize>i * 4;
      store<f32>(dw + o, load<f32>(dw + o) + load<f32>(dy + o0 + o) * load<f32>(x + o0 + o) * k);
    }
  }
}

/**
 * Softmax cross-entropy of one row of `logits` [V] against `target` (layers/cross-entropy.ts has the definition):
 * turns the row into its gradient (softmax − one-hot)·scale and returns the row's loss. The exponentials in
 * f32x4 lanes (elementwise.ts exp4, relative error ~2e-7), summed in f64 lanes in a fixed order; the scaling in
 * f64, rounded once. A scalar f64 exp per logit was 1.6 % of a training step (issue 40).
 */
export function crossEntropyRow(row: usize, V: i32, target: i32, scale: f64): f64 {
  let mv = f32x4.splat(-Infinity);
  let i = 0;
  for (; i + 4 <= V; i += 4) mv = f32x4.max(mv, v128.load(row + <usize>i * 4));
  let mx: f32 = max(
    max(f32x4.extract_lane(mv, 0), f32x4.extract_lane(mv, 1)),
    max(f32x4.extract_lane(mv, 2), f32x4.extract_lane(mv, 3)),
  );
  for (; i < V; i++) mx = max(mx, load<f32>(row + <usize>i * 4));
  const m4 = f32x4.splat(mx);
  let s0 = f64x2.splat(0);
  let s1 = f64x2.splat(0);
  i = 0;
  for (; i + 4 <= V; i += 4) {
    const p = row + <usize>i * 4;
    const e = exp4(f32x4.sub(v128.load(p), m4));
    v128.store(p, e);
    s0 = f64x2.add(s0, f64x2.promote_low_f32x4(e));
    s1 = f64x2.add(s1, f64x2.promote_low_f32x4(v128.shuffle<f32>(e, e, 2, 3, 2, 3)));
  }
  const st = f64x2.add(s0, s1);
  let sum: f64 = f64x2.extract_lane(st, 0) + f64x2.extract_lane(st, 1);
  for (; i < V; i++) {
    const p = row + <usize>i * 4;
    const e = f32x4.extract_lane(exp4(f32x4.splat(load<f32>(p) - mx)), 0);
    store<f32>(p, e);
    sum += <f64>e;
  }
  const loss = -Math.log(<f64>load<f32>(row + <usize>target * 4) / sum);
  const k = scale / sum;
  const kv = f64x2.splat(k);
  i = 0;
  for (; i + 4 <= V; i += 4) {
    const p = row + <usize>i * 4;
    const e = v128.load(p);
    const lo = f32x4.demote_f64x2_zero(f64x2.mul(f64x2.promote_low_f32x4(e), kv));
    const hi = f32x4.demote_f64x2_zero(
      f64x2.mul(f64x2.promote_low_f32x4(v128.shuffle<f32>(e, e, 2, 3, 2, 3)), kv),
    );
    v128.store(p, v128.shuffle<f32>(lo, hi, 0, 1, 4, 5));
  }
  for (; i < V; i++) {
    const p = row + <usize>i * 4;
    store<f32>(p, <f32>(<f64>load<f32>(p) * k));
  }
  const t = row + <usize>target * 4;
  store<f32>(t, <f32>(<f64>load<f32>(t) - scale));
  return loss;
}

/** Σ x[i]² over n floats in f64, in index order (one fixed-size slice of the gradient norm). */
export function sumSquares(x: usize, n: i32): f64 {
  // Eight f64 lanes (x[i] goes to lane i % 8 while 8 remain), added in a fixed order at the end: the same bits
  // for a slice wherever it runs. One running sum waited for each add (~4 cycles a float: the gradient norm
  // was 1.3 % of a training step, issue 40).
  let a0 = f64x2.splat(0);
  let a1 = f64x2.splat(0);
  let a2 = f64x2.splat(0);
  let a3 = f64x2.splat(0);
  let i = 0;
  for (; i + 8 <= n; i += 8) {
    const p = x + <usize>i * 4;
    const v0 = v128.load(p);
    const v1 = v128.load(p, 16);
    const d0 = f64x2.promote_low_f32x4(v0);
    const d1 = f64x2.promote_low_f32x4(v128.shuffle<f32>(v0, v0, 2, 3, 2, 3));
    const d2 = f64x2.promote_low_f32x4(v1);
    const d3 = f64x2.promote_low_f32x4(v128.shuffle<f32>(v1, v1, 2, 3, 2, 3));
    a0 = f64x2.add(a0, f64x2.mul(d0, d0));
    a1 = f64x2.add(a1, f64x2.mul(d1, d1));
    a2 = f64x2.add(a2, f64x2.mul(d2, d2));
    a3 = f64x2.add(a3, f64x2.mul(d3, d3));
  }
  const t = f64x2.add(f64x2.add(a0, a1), f64x2.add(a2, a3));
  let s: f64 = f64x2.extract_lane(t, 0) + f64x2.extract_lane(t, 1);
  for (; i < n; i++) {
    const v = <f64>load<f32>(x + <usize>i * 4);
    s += v * v;
  }
  return s;
}

/** x[i] = x[i]·k over n floats, multiplied in f64 and rounded once (gradient clipping). */
export function scaleInPlace(x: usize, n: i32, k: f64): void {
  for (let i = 0; i < n; i++) {
    const p = x + <usize>i * 4;
    store<f32>(p, <f32>(<f64>load<f32>(p) * k));
  }
}

/** a[i] += (p[i] − a[i]) / count over n floats, in f64 (the running mean of the weights). */
export function averageInto(a: usize, p: usize, n: i32, count: f64): void {
  for (let i = 0; i < n; i++) {
    const o = <usize>i * 4;
    const ai = <f64>load<f32>(a + o);
    store<f32>(a + o, <f32>(ai + (<f64>load<f32>(p + o) - ai) / count));
  }
}

/**
 * Embedding gradient of the ids id0..id1−1: dEmb[id] += dx[t] for every token t with such an id, tokens in order
 * (a row's sum has the order of the one-thread loop whatever the split).
 */
export function embeddingGrad(
  dEmb: usize,
  dx: usize,
  tokens: usize,
  N: i32,
  d: i32,
  id0: i32,
  id1: i32,
): void {
  for (let t = 0; t < N; t++) {
    const id = load<i32>(tokens + <usize>t * 4);
    if (id < id0 || id >= id1) continue;
    const dst = dEmb + <usize>(id * d) * 4;
    addInto(dst, dst, dx + <usize>(t * d) * 4, d);
  }
}

/** Copies the embedding rows of tokens t0..t1−1 into x [N, d]. */
export function embeddingRows(x: usize, emb: usize, tokens: usize, t0: i32, t1: i32, d: i32): void {
  for (let t = t0; t < t1; t++) {
    const id = load<i32>(tokens + <usize>t * 4);
    memory.copy(x + <usize>(t * d) * 4, emb + <usize>(id * d) * 4, <usize>d * 4);
  }
}

/**
 * out[rows[j]] = src[j] (rows ascending, n of them) for the rows of out in r0..r1−1, every other row of that range
 * 0: the LM head's row gradients put back among all rows (src [n, d], out [·, d]).
 */
export function scatterRows(out: usize, src: usize, rows: usize, n: i32, d: i32, r0: i32, r1: i32): void {
  // the first j whose row is ≥ r0 (binary search: rows ascend)
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (load<i32>(rows + <usize>mid * 4) < r0) lo = mid + 1;
    else hi = mid;
  }
  const width = <usize>d * 4;
  let r = r0;
  for (let j = lo; j < n; j++) {
    const row = load<i32>(rows + <usize>j * 4);
    if (row >= r1) break;
    if (row > r) memory.fill(out + <usize>r * width, 0, <usize>(row - r) * width);
    memory.copy(out + <usize>row * width, src + <usize>j * width, width);
    r = row + 1;
  }
  if (r1 > r) memory.fill(out + <usize>r * width, 0, <usize>(r1 - r) * width);
}

/** out = x + y over n floats (the residual connections). */
export function addInto(out: usize, x: usize, y: usize, n: i32): void {
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    const o = <usize>i * 4;
    v128.store(out + o, f32x4.add(v128.load(x + o), v128.load(y + o)));
  }
  for (; i < n; i++) {
    const o = <usize>i * 4;
    store<f32>(out + o, load<f32>(x + o) + load<f32>(y + o));
  }
}

/** C[e] += P_1[e] + … in order, for elements e0..e1−1 of the K-split gemm's partial products (stride `size`). */
export function sumPartials(c: usize, partials: usize, parts: i32, size: i32, e0: i32, e1: i32): void {
  const o = <usize>e0 * 4;
  for (let p = 0; p < parts; p++) {
    addInto(c + o, c + o, partials + <usize>p * <usize>size * 4 + o, e1 - e0);
  }
}
