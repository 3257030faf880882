/** float32 -> IEEE half (round to nearest even, overflow to ±Inf, NaN kept), as ggml stores F16 tensors. */
const f32Buf = new Float32Array(1);
const u32Buf = new Uint32Array(f32Buf.buffer);

export function toHalf(x: number): number {
  f32Buf[0] = x;
  const bits = u32Buf[0]!;
  const sign = (bits >>> 16) & 0x8000;
  const exp = (bits >>> 23) & 0xff;
  let mant = bits & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant !== 0 ? 0x200 : 0);
  let e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign; // underflows to ±0
    mant |= 0x800000; // subnormal half: shift the implicit bit in
    const shift = 14 - e;
    const half = mant >>> shift;
    const rest = mant & ((1 << shift) - 1);
    const mid = 1 << (shift - 1);
    return sign | (rest > mid || (rest === mid && (half & 1) === 1) ? half + 1 : half);
  }
  let half = (e << 10) | (mant >>> 13);
  const rest = mant & 0x1fff;
  if (rest > 0x1000 || (rest === 0x1000 && (half & 1) === 1)) half++; // may carry into the exponent: still right
  if (half >= 0x7c00) e = 0x1f;
  return sign | (e === 0x1f ? 0x7c00 : half);
}

/** IEEE half -> float32 (for tests and readers). */
export function fromHalf(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >>> 10) & 0x1f;
  const mant = h & 0x3ff;
  if (exp === 0) return sign * mant * 2 ** -24;
  if (exp === 0x1f) return mant ? NaN : sign * Infinity;
  return sign * (1 + mant / 1024) * 2 ** (exp - 15);
}

export function toHalfArray(data: Float32Array): Uint16Array {
  const out = new Uint16Array(data.length);
  for (let i = 0; i < data.length; i++) out[i] = toHalf(data[i]!);
  return out;
}
