// Causal attention of one sequence and one head (layers/attention.ts has the definition, the block layout of
// the probabilities and the JS version): the products go through gemm, the softmax runs in f32x4 lanes, so a
// short packed sample costs one call instead of a dozen kernel calls and JS loops. Pointers are byte
// addresses; q, k, v, o (and their gradients) point at the sequence's first row of L rows of hd floats, `ld`
// floats apart (hd: head-major tensors; H·hd: the head's columns inside the model's rows [N, H·hd], so no copy
// into head-major order is needed — the gemm reads any strides with the same arithmetic, so the same bits);
// p at its probabilities, blocks of QUERY_BLOCK query rows, block r0..r1−1 a [r1 − r0, r1] matrix.
import { gemm } from "./matmul";
import { exp4 } from "./exp";

const QUERY_BLOCK: i32 = 64;

// Row softmax of s[0..last] scaled by `scale`, zero for last+1..width−1 (softmaxCausalRow).
function softmaxRow(s: usize, last: i32, width: i32, scale: f32): void {
  const n = last + 1;
  const sc = f32x4.splat(scale);
  let mx = f32x4.splat(-Infinity);
  let j = 0;
  for (; j + 4 <= n; j += 4) {
    const v = f32x4.mul(v128.load(s + <usize>j * 4), sc);
    v128.store(s + <usize>j * 4, v);
    mx = f32x4.max(mx, v);
  }
  let m = max(
    max(f32x4.extract_lane(mx, 0), f32x4.extract_lane(mx, 1)),
    max(f32x4.extract_lane(mx, 2), f32x4.extract_lane(mx, 3)),
  );
  for (; j < n; j++) {
    const v = load<f32>(s + <usize>j * 4) * scale;
    store<f32>(s + <usize>j * 4, v);
    m = max(m, v);
  }
  const mv = f32x4.splat(m);
  let sum = f32x4.splat(0);
  j = 0;
  for (; j + 4 <= n; j += 4) {
    const e = exp4(f32x4.sub(v128.load(s + <usize>j * 4), mv));
    v128.store(s + <usize>j * 4, e);
    sum = f32x4.add(sum, e);
  }
  let total =
    f32x4.extract_lane(sum, 0) +
    f32x4.extract_lane(sum, 1) +
    f32x4.extract_lane(sum, 2) +
    f32x4.extract_lane(sum, 3);
  for (; j < n; j++) {
    const e = f32x4.extract_lane(exp4(f32x4.splat(load<f32>(s + <usize>j * 4) - m)), 0);
    store<f32>(s + <usize>j * 4, e);
    total += e;
  }
  const inv = f32x4.splat(1 / total);
  j = 0;
  for (; j + 4 <= n; j += 4) v128.store(s + <usize>j * 4, f32x4.mul(v128.load(s + <usize>j * 4), inv));
  const invs: f32 = 1 / total;
  for (; j < n; j++) store<f32>(s + <usize>j * 4, load<f32>(s + <usize>j * 4) * invs);
  for (j = n; j < width; j++) store<f32>(s + <usize>j * 4, 0);
}

// Zeroes L rows of hd floats, ld floats apart, with vector stores (memory.fill is a call out of the module:
// one per row of 32 floats cost more than the zeroing).
function zeroRows(p: usize, L: i32, hd: i32, ld: i32): void {
  const z = f32x4.splat(0);
  for (let r = 0; r < L; r++) {
    const row = p + <usize>(r * ld) * 4;
    let j = 0;
    for (; j + 4 <= hd; j += 4) v128.store(row + <usize>j * 4, z);
    for (; j < hd; j++) store<f32>(row + <usize>j * 4, 0);
  }
}

/** Forward of one (sequence, head): fills p and o. `scratch`: the calling thread's gemm scratch. */
export function attentionForward(
  o: usize,
  p: usize,
  q: usize,
  k: usize,
  v: usize,
  L: i32,
  hd: i32,
  scale: f32,
  scratch: usize,
  ld: i32,
  sub: i32,
): void {
  let off: usize = 0;
  for (let r0 = 0; r0 < L; r0 += QUERY_BLOCK) {
    const r1 = min(L, r0 + QUERY_BLOCK);
    const rows = r1 - r0;
    const pb = p + off * 4;
    for (let s0 = r0; s0 < r1;) {
      const s1 = subEnd(s0, r1, sub);
      const sp = pb + <usize>((s0 - r0) * r1) * 4;
      // S = Q·Kᵀ (ABt) for queries s0..s1−1 over keys 0..s1−1 (the keys after them are masked: softmaxRow zeroes
      // those columns)
      gemm(sp, r1, q + <usize>(s0 * ld) * 4, ld, 1, k, 1, ld, s1 - s0, s1, hd, 0, scratch);
      s0 = s1;
    }
    for (let i = 0; i < rows; i++) softmaxRow(pb + <usize>(i * r1) * 4, r0 + i, r1, scale);
    // O = P·V (AB), each sub-block over the keys it attends to (the rest of its P rows is zero)
    for (let s0 = r0; s0 < r1;) {
      const s1 = subEnd(s0, r1, sub);
      const sp = pb + <usize>((s0 - r0) * r1) * 4;
      gemm(o + <usize>(s0 * ld) * 4, ld, sp, r1, 1, v, ld, 1, s1 - s0, hd, s1, 0, scratch);
      s0 = s1;
    }
    off += <usize>(rows * r1);
  }
}

/**
 * End of the sub-block of query rows from s0 (block end r1): `sub` rows, the last one taking a remainder of fewer
 * than 4 (gemm computes so few rows another way, with other bits); sub 0: the whole block.
 */
function subEnd(s0: i32, r1: i32, sub: i32): i32 {
  if (sub <= 0) return r1;
  const s1 = s0 + sub;
  return s1 + 4 > r1 ? r1 : s1;
}

/**
 * Backward of one (sequence, head): from do_ writes dq, dk, dv (dk and dv overwritten). `ds` holds
 * QUERY_BLOCK·L floats of scratch.
 */
export function attentionBackward(
  dq: usize,
  dk: usize,
  dv: usize,
  do_: usize,
  p: usize,
  q: usize,
  k: usize,
  v: usize,
  ds: usize,
  L: i32,
  hd: i32,
  scale: f32,
  scratch: usize,
  ld: i32,
  sub: i32,
): void {
  zeroRows(dk, L, hd, ld);
  zeroRows(dv, L, hd, ld);
  let off: usize = 0;
  for (let r0 = 0; r0 < L; r0 += QUERY_BLOCK) {
    const r1 = min(L, r0 + QUERY_BLOCK);
    const rows = r1 - r0;
    const pb = p + off * 4;
    const dOb = do_ + <usize>(r0 * ld) * 4;
    // dP = dO·Vᵀ (ABt), rows × r1, each sub-block of query rows over the keys it attends to (dS is zero after)
    for (let s0 = r0; s0 < r1;) {
      const s1 = subEnd(s0, r1, sub);
      const dp = ds + <usize>((s0 - r0) * r1) * 4;
      gemm(dp, r1, do_ + <usize>(s0 * ld) * 4, ld, 1, v, 1, ld, s1 - s0, s1, hd, 0, scratch);
      s0 = s1;
    }
    // dV += Pᵀ·dO (AtB): r1 × hd
    attendedBy(dv, pb, dOb, r0, r1, hd, ld, sub, scratch);
    // softmax backward: dS = P ⊙ (dP − rowsum(P ⊙ dP)) · scale
    for (let t = 0; t < rows; t++) {
      const pr = pb + <usize>(t * r1) * 4;
      const dr = ds + <usize>(t * r1) * 4;
      const n = r0 + t + 1;
      let acc = f32x4.splat(0);
      let j = 0;
      for (; j + 4 <= n; j += 4)
        acc = f32x4.add(acc, f32x4.mul(v128.load(pr + <usize>j * 4), v128.load(dr + <usize>j * 4)));
      let dot =
        f32x4.extract_lane(acc, 0) +
        f32x4.extract_lane(acc, 1) +
        f32x4.extract_lane(acc, 2) +
        f32x4.extract_lane(acc, 3);
      for (; j < n; j++) dot += load<f32>(pr + <usize>j * 4) * load<f32>(dr + <usize>j * 4);
      const dv4 = f32x4.splat(dot);
      const sc = f32x4.splat(scale);
      j = 0;
      for (; j + 4 <= n; j += 4) {
        const o = <usize>j * 4;
        v128.store(dr + o, f32x4.mul(f32x4.mul(v128.load(pr + o), f32x4.sub(v128.load(dr + o), dv4)), sc));
      }
      for (; j < n; j++) {
        const o = <usize>j * 4;
        store<f32>(dr + o, load<f32>(pr + o) * (load<f32>(dr + o) - dot) * scale);
      }
      for (j = n; j < r1; j++) store<f32>(dr + <usize>j * 4, 0);
    }
    // dQ = dS·K (AB): rows × hd, each sub-block over the keys it attends to
    for (let s0 = r0; s0 < r1;) {
      const s1 = subEnd(s0, r1, sub);
      const dsb = ds + <usize>((s0 - r0) * r1) * 4;
      gemm(dq + <usize>(s0 * ld) * 4, ld, dsb, r1, 1, k, ld, 1, s1 - s0, hd, s1, 0, scratch);
      s0 = s1;
    }
    // dK += dSᵀ·Q (AtB): r1 × hd
    attendedBy(dk, ds, q + <usize>(r0 * ld) * 4, r0, r1, hd, ld, sub, scratch);
    off += <usize>(rows * r1);
  }
}

/**
 * C[0..r1) += Xᵀ·Y (AtB; rows r0..r1−1 of X [rows × r1] and Y [rows, ld]) for the backward's dV (X = P) and dK
 * (X = dS), each sub-block of keys k0..k1−1 over the queries that attend to it (from max(r0, k0): X is zero for
 * earlier ones). The skipped products are the first of each sum and all zero; the kernel's sums start from +0,
 * which adding zeros leaves +0, so the bits are those of the whole product.
 */
function attendedBy(
  c: usize,
  x: usize,
  y: usize,
  r0: i32,
  r1: i32,
  hd: i32,
  ld: i32,
  sub: i32,
  scratch: usize,
): void {
  for (let k0 = 0; k0 < r1;) {
    const k1 = subEnd(k0, r1, sub);
    const q0 = max(r0, k0) - r0;
    const xs = x + <usize>(q0 * r1 + k0) * 4;
    gemm(
      c + <usize>(k0 * ld) * 4,
      ld,
      xs,
      1,
      r1,
      y + <usize>(q0 * ld) * 4,
      ld,
      1,
      k1 - k0,
      hd,
      r1 - r0 - q0,
      1,
      scratch,
    );
    k0 = k1;
  }
}
