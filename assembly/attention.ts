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
): void {
  let off: usize = 0;
  for (let r0 = 0; r0 < L; r0 += QUERY_BLOCK) {
    const r1 = min(L, r0 + QUERY_BLOCK);
    const rows = r1 - r0;
    const pb = p + off * 4;
    // S = Q·Kᵀ (ABt), rows × r1
    gemm(pb, r1, q + <usize>(r0 * ld) * 4, ld, 1, k, 1, ld, rows, r1, hd, 0, scratch);
    for (let i = 0; i < rows; i++) softmaxRow(pb + <usize>(i * r1) * 4, r0 + i, r1, scale);
    // O = P·V (AB)
    gemm(o + <usize>(r0 * ld) * 4, ld, pb, r1, 1, v, ld, 1, rows, hd, r1, 0, scratch);
    off += <usize>(rows * r1);
  }
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
): void {
  zeroRows(dk, L, hd, ld);
  zeroRows(dv, L, hd, ld);
  let off: usize = 0;
  for (let r0 = 0; r0 < L; r0 += QUERY_BLOCK) {
    const r1 = min(L, r0 + QUERY_BLOCK);
    const rows = r1 - r0;
    const pb = p + off * 4;
    const dOb = do_ + <usize>(r0 * ld) * 4;
    // dP = dO·Vᵀ (ABt), rows × r1
    gemm(ds, r1, dOb, ld, 1, v, 1, ld, rows, r1, hd, 0, scratch);
    // dV += Pᵀ·dO (AtB): r1 × hd
    gemm(dv, ld, pb, 1, r1, dOb, ld, 1, r1, hd, rows, 1, scratch);
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
    // dQ = dS·K (AB): rows × hd
    gemm(dq + <usize>(r0 * ld) * 4, ld, ds, r1, 1, k, ld, 1, rows, hd, r1, 0, scratch);
    // dK += dSᵀ·Q (AtB): r1 × hd
    gemm(dk, ld, ds, 1, r1, q + <usize>(r0 * ld) * 4, ld, 1, r1, hd, rows, 1, scratch);
    off += <usize>(rows * r1);
  }
}
