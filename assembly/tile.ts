// The gemm's register tile (assembly/matmul.ts packs the operands it reads).

/** Rows of the register tile: packed A comes in strips of MR rows, each value broadcast to a vector. */
export const MR: i32 = 4;
/** Columns of the register tile: packed B comes in strips of NR columns. */
export const NR: i32 = 8;

// x·b + c: one fused multiply-add where the module is built with relaxed SIMD (build/kernels-fma.wasm; the
// product is not rounded, so the bits differ from the other build's), else a rounded product, then the sum.
// -O3 inlines it: the build without relaxed SIMD is byte-identical to the kernel written out as mul and add.
function madd(x: v128, b: v128, c: v128): v128 {
  if (ASC_FEATURE_RELAXED_SIMD) return v128.relaxed_madd<f32>(x, b, c);
  return f32x4.add(c, f32x4.mul(x, b));
}

/**
 * The 4×8 register tile: 8 f32x4 accumulators, two B vectors and one A vector (packA stores each A value
 * four times, so a step is six plain vector loads: no broadcast, whose load V8 issues with an extra address
 * instruction). Each output sums its products in order of p, starting from 0, then adds into C (add != 0) or
 * overwrites it; the tile's shape and the unrolling change the speed, never the bits. ldc is in bytes.
 *
 * Eight steps per loop turn (the turn's stack check, branch and register moves amortized: 4 steps measured
 * ~6 % slower, 16 the same), each ending in its own exit test rather than one test per turn: V8 issues a
 * basic block's loads first, so several steps in one block would keep all their loaded vectors live beside the
 * 8 accumulators and spill to the stack; the tests split the turn into blocks of 14 live vectors (of 15).
 */
export function kernel(kc: i32, ap: usize, bp: usize, c: usize, ldc: usize, add: i32): void {
  let c00 = f32x4.splat(0);
  let c01 = f32x4.splat(0);
  let c10 = f32x4.splat(0);
  let c11 = f32x4.splat(0);
  let c20 = f32x4.splat(0);
  let c21 = f32x4.splat(0);
  let c30 = f32x4.splat(0);
  let c31 = f32x4.splat(0);
  let b0: v128;
  let b1: v128;
  let x: v128;
  const aEnd = ap + <usize>kc * 64;
  while (ap < aEnd) {
    b0 = v128.load(bp);
    b1 = v128.load(bp, 16);
    x = v128.load(ap);
    c00 = madd(x, b0, c00);
    c01 = madd(x, b1, c01);
    x = v128.load(ap, 16);
    c10 = madd(x, b0, c10);
    c11 = madd(x, b1, c11);
    x = v128.load(ap, 32);
    c20 = madd(x, b0, c20);
    c21 = madd(x, b1, c21);
    x = v128.load(ap, 48);
    c30 = madd(x, b0, c30);
    c31 = madd(x, b1, c31);
    ap += 64;
    bp += 32;
    if (ap >= aEnd) break;
    b0 = v128.load(bp);
    b1 = v128.load(bp, 16);
    x = v128.load(ap);
    c00 = madd(x, b0, c00);
    c01 = madd(x, b1, c01);
    x = v128.load(ap, 16);
    c10 = madd(x, b0, c10);
    c11 = madd(x, b1, c11);
    x = v128.load(ap, 32);
    c20 = madd(x, b0, c20);
    c21 = madd(x, b1, c21);
    x = v128.load(ap, 48);
    c30 = madd(x, b0, c30);
    c31 = madd(x, b1, c31);
    ap += 64;
    bp += 32;
    if (ap >= aEnd) break;
    b0 = v128.load(bp);
    b1 = v128.load(bp, 16);
    x = v128.load(ap);
    c00 = madd(x, b0, c00);
    c01 = madd(x, b1, c01);
    x = v128.load(ap, 16);
    c10 = madd(x, b0, c10);
    c11 = madd(x, b1, c11);
    x = v128.load(ap, 32);
    c20 = madd(x, b0, c20);
    c21 = madd(x, b1, c21);
    x = v128.load(ap, 48);
    c30 = madd(x, b0, c30);
    c31 = madd(x, b1, c31);
    ap += 64;
    bp += 32;
    if (ap >= aEnd) break;
    b0 = v128.load(bp);
    b1 = v128.load(bp, 16);
    x = v128.load(ap);
    c00 = madd(x, b0, c00);
    c01 = madd(x, b1, c01);
    x = v128.load(ap, 16);
    c10 = madd(x, b0, c10);
    c11 = madd(x, b1, c11);
    x = v128.load(ap, 32);
    c20 = madd(x, b0, c20);
    c21 = madd(x, b1, c21);
    x = v128.load(ap, 48);
    c30 = madd(x, b0, c30);
    c31 = madd(x, b1, c31);
    ap += 64;
    bp += 32;
    if (ap >= aEnd) break;
    b0 = v128.load(bp);
    b1 = v128.load(bp, 16);
    x = v128.load(ap);
    c00 = madd(x, b0, c00);
    c01 = madd(x, b1, c01);
    x = v128.load(ap, 16);
    c10 = madd(x, b0, c10);
    c11 = madd(x, b1, c11);
    x = v128.load(ap, 32);
    c20 = madd(x, b0, c20);
    c21 = madd(x, b1, c21);
    x = v128.load(ap, 48);
    c30 = madd(x, b0, c30);
    c31 = madd(x, b1, c31);
    ap += 64;
    bp += 32;
    if (ap >= aEnd) break;
    b0 = v128.load(bp);
    b1 = v128.load(bp, 16);
    x = v128.load(ap);
    c00 = madd(x, b0, c00);
    c01 = madd(x, b1, c01);
    x = v128.load(ap, 16);
    c10 = madd(x, b0, c10);
    c11 = madd(x, b1, c11);
    x = v128.load(ap, 32);
    c20 = madd(x, b0, c20);
    c21 = madd(x, b1, c21);
    x = v128.load(ap, 48);
    c30 = madd(x, b0, c30);
    c31 = madd(x, b1, c31);
    ap += 64;
    bp += 32;
    if (ap >= aEnd) break;
    b0 = v128.load(bp);
    b1 = v128.load(bp, 16);
    x = v128.load(ap);
    c00 = madd(x, b0, c00);
    c01 = madd(x, b1, c01);
    x = v128.load(ap, 16);
    c10 = madd(x, b0, c10);
    c11 = madd(x, b1, c11);
    x = v128.load(ap, 32);
    c20 = madd(x, b0, c20);
    c21 = madd(x, b1, c21);
    x = v128.load(ap, 48);
    c30 = madd(x, b0, c30);
    c31 = madd(x, b1, c31);
    ap += 64;
    bp += 32;
    if (ap >= aEnd) break;
    b0 = v128.load(bp);
    b1 = v128.load(bp, 16);
    x = v128.load(ap);
    c00 = madd(x, b0, c00);
    c01 = madd(x, b1, c01);
    x = v128.load(ap, 16);
    c10 = madd(x, b0, c10);
    c11 = madd(x, b1, c11);
    x = v128.load(ap, 32);
    c20 = madd(x, b0, c20);
    c21 = madd(x, b1, c21);
    x = v128.load(ap, 48);
    c30 = madd(x, b0, c30);
    c31 = madd(x, b1, c31);
    ap += 64;
    bp += 32;
  }
  let r = c;
  if (add) {
    c00 = f32x4.add(c00, v128.load(r));
    c01 = f32x4.add(c01, v128.load(r, 16));
  }
  v128.store(r, c00);
  v128.store(r, c01, 16);
  r += ldc;
  if (add) {
    c10 = f32x4.add(c10, v128.load(r));
    c11 = f32x4.add(c11, v128.load(r, 16));
  }
  v128.store(r, c10);
  v128.store(r, c11, 16);
  r += ldc;
  if (add) {
    c20 = f32x4.add(c20, v128.load(r));
    c21 = f32x4.add(c21, v128.load(r, 16));
  }
  v128.store(r, c20);
  v128.store(r, c21, 16);
  r += ldc;
  if (add) {
    c30 = f32x4.add(c30, v128.load(r));
    c31 = f32x4.add(c31, v128.load(r, 16));
  }
  v128.store(r, c30);
  v128.store(r, c31, 16);
}

// A partial tile at the matrix edge: compute the full tile into `tmp`, then write the valid rows/columns.
export function edgeTile(
  kc: i32,
  ap: usize,
  bp: usize,
  c: usize,
  ldc: i32,
  rows: i32,
  cols: i32,
  add: i32,
  tmp: usize,
): void {
  kernel(kc, ap, bp, tmp, <usize>NR * 4, 0);
  for (let r = 0; r < rows; r++) {
    for (let j = 0; j < cols; j++) {
      const dst = c + <usize>(r * ldc + j) * 4;
      const v = load<f32>(tmp + <usize>(r * NR + j) * 4);
      store<f32>(dst, add ? load<f32>(dst) + v : v);
    }
  }
}
