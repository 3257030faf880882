// Rows [N, H·hd] ↔ head-major [B, H, T, hd] with the RoPE rotation on the way (layers/attention.ts
// splitHeads / mergeHeads, layers/rope.ts rotate). The rotation is computed in f64 and rounded once, as the
// JS version does (a product of two f32 is exact in f64), so both give the same bits.

/**
 * Rows r0..r1−1 of the flat index b·T + t. merge == 0: dst (heads) ← src (rows), rotated by +angle when
 * rope != 0; merge == 1: dst (rows) ← src (heads), rotated by −angle when rope != 0. cos, sin: the RoPE
 * table [positions, hd/2]; pos: the rows' positions (i32).
 */
export function moveHeads(
  dst: usize,
  src: usize,
  r0: i32,
  r1: i32,
  H: i32,
  T: i32,
  hd: i32,
  cos: usize,
  sin: usize,
  pos: usize,
  rope: i32,
  merge: i32,
): void {
  const d = H * hd;
  const half = hd >> 1;
  const sign: f64 = merge ? -1 : 1;
  for (let r = r0; r < r1; r++) {
    const b = r / T;
    const t = r - b * T;
    const tab = (<usize>(load<i32>(pos + ((<usize>r) << 2)) * half)) << 2;
    for (let h = 0; h < H; h++) {
      const rowAt = (<usize>(r * d + h * hd)) << 2;
      const headAt = (<usize>(((b * H + h) * T + t) * hd)) << 2;
      const from = src + (merge ? headAt : rowAt);
      const to = dst + (merge ? rowAt : headAt);
      if (!rope) {
        memory.copy(to, from, (<usize>hd) << 2);
        continue;
      }
      for (let j = 0; j < half; j++) {
        const o = (<usize>j) << 2;
        const oh = (<usize>(j + half)) << 2;
        const c = <f64>load<f32>(cos + tab + o);
        const s = sign * <f64>load<f32>(sin + tab + o);
        const x0 = <f64>load<f32>(from + o);
        const x1 = <f64>load<f32>(from + oh);
        store<f32>(to + o, <f32>(x0 * c - x1 * s));
        store<f32>(to + oh, <f32>(x1 * c + x0 * s));
      }
    }
  }
}

/**
 * RoPE in place on rows r0..r1−1 of x [N, H·hd] (each head's hd columns rotated at the row's position; by
 * −angle when `inverse` != 0): the attention reads q and k in the rows themselves (attention.ts ld), so no copy
 * into head-major order is needed. Two lanes of f64 at a time, each lane the arithmetic of moveHeads (products
 * exact in f64, one rounding of the sum to f64, one to f32), so the same bits as the rotation there.
 */
export function ropeRows(
  x: usize,
  r0: i32,
  r1: i32,
  H: i32,
  hd: i32,
  cos: usize,
  sin: usize,
  pos: usize,
  inverse: i32,
): void {
  const d = H * hd;
  for (let r = r0; r < r1; r++) {
    const p = load<i32>(pos + ((<usize>r) << 2));
    for (let h = 0; h < H; h++) ropeOne(x + ((<usize>(r * d + h * hd)) << 2), p, hd, cos, sin, inverse);
  }
}

/**
 * ropeRows on head h alone of rows r0..r1−1 of x (row stride ld floats): the attention backward rotates the
 * dQ and dK of its (sequence, head) item as soon as the item has them (tasks.ts), the same bits.
 */
export function ropeHeadRows(
  x: usize,
  r0: i32,
  r1: i32,
  h: i32,
  ld: i32,
  hd: i32,
  cos: usize,
  sin: usize,
  pos: usize,
  inverse: i32,
): void {
  for (let r = r0; r < r1; r++) {
    const p = load<i32>(pos + ((<usize>r) << 2));
    ropeOne(x + ((<usize>(r * ld + h * hd)) << 2), p, hd, cos, sin, inverse);
  }
}

/** One head's hd floats at `at`, rotated at position p (by −angle when `inverse` != 0). */
function ropeOne(at: usize, p: i32, hd: i32, cos: usize, sin: usize, inverse: i32): void {
  const half = hd >> 1;
  const sign: f64 = inverse ? -1 : 1;
  const signs = f64x2.splat(sign);
  const tab = (<usize>(p * half)) << 2;
  let j = 0;
  for (; j + 2 <= half; j += 2) {
    const o = (<usize>j) << 2;
    const oh = (<usize>(j + half)) << 2;
    const c = f64x2.promote_low_f32x4(v128.load64_zero(cos + tab + o));
    const s = f64x2.mul(signs, f64x2.promote_low_f32x4(v128.load64_zero(sin + tab + o)));
    const x0 = f64x2.promote_low_f32x4(v128.load64_zero(at + o));
    const x1 = f64x2.promote_low_f32x4(v128.load64_zero(at + oh));
    const y0 = f32x4.demote_f64x2_zero(f64x2.sub(f64x2.mul(x0, c), f64x2.mul(x1, s)));
    const y1 = f32x4.demote_f64x2_zero(f64x2.add(f64x2.mul(x1, c), f64x2.mul(x0, s)));
    v128.store64_lane(at + o, y0, 0);
    v128.store64_lane(at + oh, y1, 0);
  }
  for (; j < half; j++) {
    const o = (<usize>j) << 2;
    const oh = (<usize>(j + half)) << 2;
    const c = <f64>load<f32>(cos + tab + o);
    const s = sign * <f64>load<f32>(sin + tab + o);
    const x0 = <f64>load<f32>(at + o);
    const x1 = <f64>load<f32>(at + oh);
    store<f32>(at + o, <f32>(x0 * c - x1 * s));
    store<f32>(at + oh, <f32>(x1 * c + x0 * s));
  }
}
