// The exponential in f32x4 lanes that the softmaxes and SwiGLU share (elementwise.ts, attention.ts, train.ts).

// exp(x) for f32 lanes (Cephes expf: x = k·ln2 + r, a degree-6 polynomial for e^r, 2^k from the exponent
// bits); relative error about 2e-7 over the clamped range, which covers every finite f32 result.
export function exp4(x: v128): v128 {
  x = f32x4.min(f32x4.max(x, f32x4.splat(-87.3)), f32x4.splat(88.3));
  const k = f32x4.floor(f32x4.add(f32x4.mul(x, f32x4.splat(1.4426950408889634)), f32x4.splat(0.5)));
  let r = f32x4.sub(x, f32x4.mul(k, f32x4.splat(0.693359375)));
  r = f32x4.sub(r, f32x4.mul(k, f32x4.splat(-2.1219444e-4)));
  let y = f32x4.splat(1.98756915e-4);
  y = f32x4.add(f32x4.mul(y, r), f32x4.splat(1.3981999507e-3));
  y = f32x4.add(f32x4.mul(y, r), f32x4.splat(8.3334519073e-3));
  y = f32x4.add(f32x4.mul(y, r), f32x4.splat(4.1665795894e-2));
  y = f32x4.add(f32x4.mul(y, r), f32x4.splat(1.6666665459e-1));
  y = f32x4.add(f32x4.mul(y, r), f32x4.splat(5.0000001201e-1));
  y = f32x4.add(f32x4.add(f32x4.mul(f32x4.mul(y, r), r), r), f32x4.splat(1));
  // 2^k from the exponent bits: k + 127 is an integer in 1..254 (x is clamped), so k + 127 + 2^23 holds it in
  // its low mantissa bits and the shift drops the rest — the value i32x4.trunc_sat_f32x4_s(k) + 127 gives,
  // without the saturating conversion's fix-up instructions V8 emits around cvttps2dq.
  const pow2 = i32x4.shl(f32x4.add(k, f32x4.splat(8388735)), 23);
  return f32x4.mul(y, pow2);
}
