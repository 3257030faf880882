// Blocked single-precision GEMM for the engine's matmul kernels, compiled with AssemblyScript
// (`--enable simd,threads -O3`). All pointers are byte addresses into the shared memory the JavaScript side
// owns; strides are in elements. One call computes one thread's slice of the output.
//
// C[M,N] (+)= A·B where A(i,p) = a[i*rsa + p*csa] and B(p,j) = b[p*rsb + j*csb], so the three shapes of
// api.ts are the same routine with different strides. Panels of A (MR rows) and B (NR columns) are packed
// into contiguous scratch so the micro-kernel streams both from L1/L2 (Goto/BLIS loop order).

import { ATTENTION_MAX_L } from "./tasks";
import { edgeTile, kernel, MR, NR } from "./tile";

const KC: i32 = 256;
const MC: i32 = 128;
const NC: i32 = 2048;
// Below this many rows the packed path wastes most of each MR-row tile and re-packs B for little reuse.
const SMALL_M: i32 = 4;

/** Bytes of the gemm's scratch: packed A block (four floats a value), packed B block and one edge tile. */
export function gemmScratchBytes(): i32 {
  return (MC * KC * 4 + KC * NC + MR * NR) * 4;
}

/** Bytes of scratch one thread needs: the gemm's, then the pooled attention backward's dS block (tasks.ts). */
export function scratchBytes(): i32 {
  return gemmScratchBytes() + 64 * ATTENTION_MAX_L * 4;
}

// Packs A(ic..ic+mc, pc..pc+kc) as MR-row strips, each value broadcast to a vector:
// dst[((strip*kc + p)*MR + r)*4 + lane]. Rows past mc are zero.
function packA(a: usize, rsa: i32, csa: i32, ic: i32, mc: i32, pc: i32, kc: i32, dst: usize): void {
  const step = <usize>csa * 4;
  const dstep = <usize>(MR * 16);
  for (let is = 0; is < mc; is += MR) {
    const rows = min(MR, mc - is);
    const strip = dst + <usize>(is * kc) * 16;
    if (rsa == 1 && rows == MR && MR % 4 == 0) {
      // A stored transposed (AtB): four consecutive rows are contiguous for each p.
      for (let g = 0; g < MR; g += 4) {
        let src = a + <usize>(ic + is + g + pc * csa) * 4;
        let d = strip + <usize>g * 16;
        for (let p = 0; p < kc; p++) {
          const v = v128.load(src);
          v128.store(d, v128.shuffle<f32>(v, v, 0, 0, 0, 0));
          v128.store(d, v128.shuffle<f32>(v, v, 1, 1, 1, 1), 16);
          v128.store(d, v128.shuffle<f32>(v, v, 2, 2, 2, 2), 32);
          v128.store(d, v128.shuffle<f32>(v, v, 3, 3, 3, 3), 48);
          src += step;
          d += dstep;
        }
      }
      continue;
    }
    for (let r = 0; r < MR; r++) {
      let d = strip + <usize>r * 16;
      if (r < rows) {
        let src = a + <usize>((ic + is + r) * rsa + pc * csa) * 4;
        let p = 0;
        if (csa == 1) {
          for (; p + 4 <= kc; p += 4) {
            const v = v128.load(src);
            v128.store(d, v128.shuffle<f32>(v, v, 0, 0, 0, 0));
            v128.store(d + dstep, v128.shuffle<f32>(v, v, 1, 1, 1, 1));
            v128.store(d + 2 * dstep, v128.shuffle<f32>(v, v, 2, 2, 2, 2));
            v128.store(d + 3 * dstep, v128.shuffle<f32>(v, v, 3, 3, 3, 3));
            src += 16;
            d += 4 * dstep;
          }
        }
        for (; p < kc; p++) {
          v128.store(d, v128.load32_splat(src));
          src += step;
          d += dstep;
        }
      } else {
        for (let p = 0; p < kc; p++) {
          v128.store(d, f32x4.splat(0));
          d += dstep;
        }
      }
    }
  }
}

// Packs B(pc..pc+kc, jc..jc+nc) as NR-column strips: dst[(strip*kc + p)*NR + c]. Columns past nc are zero.
function packB(b: usize, rsb: i32, csb: i32, pc: i32, kc: i32, jc: i32, nc: i32, dst: usize): void {
  for (let js = 0; js < nc; js += NR) {
    const cols = min(NR, nc - js);
    const strip = dst + <usize>(js * kc) * 4;
    if (cols == NR && csb == 1) {
      let src = b + <usize>(pc * rsb + jc + js) * 4;
      const step = <usize>rsb * 4;
      for (let p = 0; p < kc; p++) {
        const d = strip + <usize>(p * NR) * 4;
        v128.store(d, v128.load(src));
        v128.store(d, v128.load(src, 16), 16);
        src += step;
      }
    } else if (cols == NR && rsb == 1) {
      // B stored transposed (ABt): each column is a contiguous row of the weight matrix; 4×4 transposes.
      for (let g = 0; g < NR; g += 4) {
        const r0 = b + <usize>(pc + (jc + js + g) * csb) * 4;
        const r1 = r0 + <usize>csb * 4;
        const r2 = r1 + <usize>csb * 4;
        const r3 = r2 + <usize>csb * 4;
        const col = strip + <usize>g * 4;
        let p = 0;
        for (; p + 4 <= kc; p += 4) {
          const o = <usize>p * 4;
          const x0 = v128.load(r0 + o);
          const x1 = v128.load(r1 + o);
          const x2 = v128.load(r2 + o);
          const x3 = v128.load(r3 + o);
          const t0 = v128.shuffle<f32>(x0, x1, 0, 4, 1, 5);
          const t1 = v128.shuffle<f32>(x2, x3, 0, 4, 1, 5);
          const t2 = v128.shuffle<f32>(x0, x1, 2, 6, 3, 7);
          const t3 = v128.shuffle<f32>(x2, x3, 2, 6, 3, 7);
          const d = col + <usize>(p * NR) * 4;
          v128.store(d, v128.shuffle<f32>(t0, t1, 0, 1, 4, 5));
          v128.store(d, v128.shuffle<f32>(t0, t1, 2, 3, 6, 7), NR * 4);
          v128.store(d, v128.shuffle<f32>(t2, t3, 0, 1, 4, 5), NR * 8);
          v128.store(d, v128.shuffle<f32>(t2, t3, 2, 3, 6, 7), NR * 12);
        }
        for (; p < kc; p++) {
          const o = <usize>p * 4;
          const d = col + <usize>(p * NR) * 4;
          store<f32>(d, load<f32>(r0 + o));
          store<f32>(d, load<f32>(r1 + o), 4);
          store<f32>(d, load<f32>(r2 + o), 8);
          store<f32>(d, load<f32>(r3 + o), 12);
        }
      }
    } else {
      for (let p = 0; p < kc; p++) {
        const d = strip + <usize>(p * NR) * 4;
        for (let c = 0; c < NR; c++) {
          const v: f32 = c < cols ? load<f32>(b + <usize>((pc + p) * rsb + (jc + js + c) * csb) * 4) : 0;
          store<f32>(d + <usize>c * 4, v);
        }
      }
    }
  }
}

// Σ_p x[p]·y[p] over two contiguous rows, four f32x4 accumulators.
function dot(x: usize, y: usize, K: i32): f32 {
  let s0 = f32x4.splat(0);
  let s1 = f32x4.splat(0);
  let s2 = f32x4.splat(0);
  let s3 = f32x4.splat(0);
  let p = 0;
  for (; p + 16 <= K; p += 16) {
    const o = <usize>p * 4;
    s0 = f32x4.add(s0, f32x4.mul(v128.load(x + o), v128.load(y + o)));
    s1 = f32x4.add(s1, f32x4.mul(v128.load(x + o, 16), v128.load(y + o, 16)));
    s2 = f32x4.add(s2, f32x4.mul(v128.load(x + o, 32), v128.load(y + o, 32)));
    s3 = f32x4.add(s3, f32x4.mul(v128.load(x + o, 48), v128.load(y + o, 48)));
  }
  for (; p + 4 <= K; p += 4) {
    const o = <usize>p * 4;
    s0 = f32x4.add(s0, f32x4.mul(v128.load(x + o), v128.load(y + o)));
  }
  const v = f32x4.add(f32x4.add(s0, s1), f32x4.add(s2, s3));
  let s =
    f32x4.extract_lane(v, 0) + f32x4.extract_lane(v, 1) + f32x4.extract_lane(v, 2) + f32x4.extract_lane(v, 3);
  for (; p < K; p++) s += load<f32>(x + <usize>p * 4) * load<f32>(y + <usize>p * 4);
  return s;
}

// Few rows, A and Bᵀ both contiguous along K (decoding: x·Wᵀ, q·Kᵀ): one dot product per output, no packing.
function rowsDotCols(
  c: usize,
  ldc: i32,
  a: usize,
  rsa: i32,
  b: usize,
  csb: i32,
  M: i32,
  N: i32,
  K: i32,
  add: i32,
): void {
  for (let i = 0; i < M; i++) {
    const x = a + <usize>(i * rsa) * 4;
    const ci = c + <usize>(i * ldc) * 4;
    for (let j = 0; j < N; j++) {
      const s = dot(x, b + <usize>(j * csb) * 4, K);
      const dst = ci + <usize>j * 4;
      store<f32>(dst, add ? load<f32>(dst) + s : s);
    }
  }
}

// Few rows, B contiguous along N (decoding: p·V, dy·W): each output row accumulates K scaled rows of B.
function rowsAxpy(
  c: usize,
  ldc: i32,
  a: usize,
  rsa: i32,
  csa: i32,
  b: usize,
  rsb: i32,
  M: i32,
  N: i32,
  K: i32,
  add: i32,
): void {
  for (let i = 0; i < M; i++) {
    const ci = c + <usize>(i * ldc) * 4;
    if (!add) memory.fill(ci, 0, <usize>N * 4);
    for (let p = 0; p < K; p++) {
      const s = load<f32>(a + <usize>(i * rsa + p * csa) * 4);
      const sv = f32x4.splat(s);
      const row = b + <usize>(p * rsb) * 4;
      let j = 0;
      for (; j + 8 <= N; j += 8) {
        const o = <usize>j * 4;
        v128.store(ci + o, f32x4.add(v128.load(ci + o), f32x4.mul(sv, v128.load(row + o))));
        v128.store(ci + o, f32x4.add(v128.load(ci + o, 16), f32x4.mul(sv, v128.load(row + o, 16))), 16);
      }
      for (; j < N; j++) {
        const dst = ci + <usize>j * 4;
        store<f32>(dst, load<f32>(dst) + s * load<f32>(row + <usize>j * 4));
      }
    }
  }
}

/**
 * C[M,N] (+)= A·B over general strides (see the header). `accumulate` != 0 adds into C. `scratch` points at
 * scratchBytes() bytes owned by the calling thread.
 */
export function gemm(
  c: usize,
  ldc: i32,
  a: usize,
  rsa: i32,
  csa: i32,
  b: usize,
  rsb: i32,
  csb: i32,
  M: i32,
  N: i32,
  K: i32,
  accumulate: i32,
  scratch: usize,
): void {
  if (M <= 0 || N <= 0) return;
  if (K <= 0) {
    if (!accumulate) {
      for (let i = 0; i < M; i++) memory.fill(c + <usize>(i * ldc) * 4, 0, <usize>N * 4);
    }
    return;
  }
  if (M < SMALL_M && csa == 1 && rsb == 1) {
    rowsDotCols(c, ldc, a, rsa, b, csb, M, N, K, accumulate);
    return;
  }
  if (M < SMALL_M && csb == 1) {
    rowsAxpy(c, ldc, a, rsa, csa, b, rsb, M, N, K, accumulate);
    return;
  }
  blocked(c, ldc, a, rsa, csa, b, rsb, csb, M, N, K, accumulate, scratch, 0);
}

/** Blocks of B that packWholeB packs one at a time: NC-column blocks × KC-deep blocks. */
export function packBlocks(K: i32, N: i32): i32 {
  return ((N + NC - 1) / NC) * ((K + KC - 1) / KC);
}

/** Bytes of B(K × N) packed whole: every block gemm would pack, its NR-column strips padded. */
export function packedBBytes(K: i32, N: i32): i32 {
  return K * ((N + NR - 1) / NR) * NR * 4;
}

/** Floats before block (jc, pc) of a wholly packed B: column blocks first, depth blocks inside. */
function packedOffset(K: i32, jc: i32, pc: i32, nc: i32): usize {
  return <usize>(jc * K + pc * (((nc + NR - 1) / NR) * NR));
}

/**
 * Packs block `block` (of packBlocks) of B into `packed`, where gemmPacked reads it: B packed once per product and
 * shared by every thread's rows, instead of each chunk packing all of B again.
 */
export function packBBlock(b: usize, rsb: i32, csb: i32, K: i32, N: i32, block: i32, packed: usize): void {
  const kBlocks = (K + KC - 1) / KC;
  const jc = (block / kBlocks) * NC;
  const pc = (block % kBlocks) * KC;
  const nc = min(NC, N - jc);
  packB(b, rsb, csb, pc, min(KC, K - pc), jc, nc, packed + packedOffset(K, jc, pc, nc) * 4);
}

/**
 * gemm on a B packed whole (packBBlock), for M ≥ SMALL_M rows: the same blocks and micro-kernel calls, so the
 * same bits as gemm over the same rows, and as the unsplit product.
 */
export function gemmPacked(
  c: usize,
  ldc: i32,
  a: usize,
  rsa: i32,
  csa: i32,
  packed: usize,
  M: i32,
  N: i32,
  K: i32,
  accumulate: i32,
  scratch: usize,
): void {
  if (M <= 0 || N <= 0 || K <= 0) return;
  blocked(c, ldc, a, rsa, csa, 0, 0, 0, M, N, K, accumulate, scratch, packed);
}

// The packed path: B packed per (jc, pc) block into the scratch, or read from `packed` (B packed whole) when != 0.
function blocked(
  c: usize,
  ldc: i32,
  a: usize,
  rsa: i32,
  csa: i32,
  b: usize,
  rsb: i32,
  csb: i32,
  M: i32,
  N: i32,
  K: i32,
  accumulate: i32,
  scratch: usize,
  packed: usize,
): void {
  const packedA = scratch;
  const ownB = packedA + <usize>(MC * KC) * 16;
  const tmp = ownB + <usize>(KC * NC) * 4;
  const ldcBytes = <usize>ldc * 4;
  for (let jc = 0; jc < N; jc += NC) {
    const nc = min(NC, N - jc);
    for (let pc = 0; pc < K; pc += KC) {
      const kc = min(KC, K - pc);
      const add = accumulate || pc > 0 ? 1 : 0;
      let packedB = ownB;
      if (packed) packedB = packed + packedOffset(K, jc, pc, nc) * 4;
      else packB(b, rsb, csb, pc, kc, jc, nc, packedB);
      for (let ic = 0; ic < M; ic += MC) {
        const mc = min(MC, M - ic);
        packA(a, rsa, csa, ic, mc, pc, kc, packedA);
        for (let jr = 0; jr < nc; jr += NR) {
          const cols = min(NR, nc - jr);
          const bp = packedB + <usize>(jr * kc) * 4;
          for (let ir = 0; ir < mc; ir += MR) {
            const rows = min(MR, mc - ir);
            const ap = packedA + <usize>(ir * kc) * 16;
            const cp = c + <usize>((ic + ir) * ldc + jc + jr) * 4;
            if (rows == MR && cols == NR) kernel(kc, ap, bp, cp, ldcBytes, add);
            else edgeTile(kc, ap, bp, cp, ldc, rows, cols, add, tmp);
          }
        }
      }
    }
  }
}

export {
  swigluForward,
  swigluBackward,
  swigluForwardKeep,
  swigluBackwardKept,
  adamw,
  adamwScaled,
  adamwZeroes,
  rmsnormForward,
  rmsnormBackward,
} from "./elementwise";
export { attentionForward, attentionBackward } from "./attention";
export { runTask } from "./tasks";
export {
  gemmBatchChainEpilogues,
  gemmBatchEntryBytes,
  gemmBatchTaskEntries,
  normBackwardFrom,
  rowEpilogue,
} from "./train-tasks";
export { addInto } from "./train";
export { ropeHeadRows, ropeRows } from "./heads";
