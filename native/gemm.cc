// Native GEMM for the engine's opt-in path (TOOLGEN_KERNELS=native, src/nn/kernels/native.mjs): the same
// arguments as the WebAssembly gemm (assembly/matmul.ts) on the same shared heap, with a packed AVX2+FMA (or
// AVX-512) register tile. The WebAssembly 128-bit SIMD gemm tops out at 45-46 GFLOPS per thread on the
// development machine, where AVX-512 code reaches about twice that (issue 40).
//
// Bits: every output element is one chain c = fma(a(i,p), b(p,j), c) over p = 0, 1, ..., K-1, starting from C
// (accumulate) or 0. Packing pads edge tiles with zeros and the tile's accumulators are loaded from and stored
// to C between depth blocks (exact in fp32), so an element's bits depend neither on its place in a tile nor on
// how the caller cut the output into chunks, nor on the vector width (AVX2 and AVX-512 tiles give the same).
#include <node_api.h>
#include <immintrin.h>

#include <sys/mman.h>

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

namespace {

// Register tiles: AVX2 6 rows x 16 columns (12 of the 16 ymm registers accumulate), AVX-512 8 x 32 (16 of the
// 32 zmm registers; 8 rows gave a step's GEMMs 5-8 % more than 6 on the Intel Xeon of issue 40, 10-14 rows no
// more). The tile's shape moves no bits: each element is the same chain whatever tile holds it.
constexpr int MR_AVX2 = 6;
constexpr int MR_AVX512 = 8;
constexpr int KC = 256;   // depth block (packed panels stay in L1/L2)
constexpr int MC = 96;    // rows of A packed at once (a multiple of both tiles' rows)
constexpr int NC = 3072;  // columns of B packed at once

struct Gemm {
  float* c;
  int64_t ldc;
  const float* a;
  int64_t rsa, csa;
  const float* b;
  int64_t rsb, csb;
  int M, N, K;
  bool accumulate;
};

// Per-thread packing buffers (each JavaScript thread calls the addon on its own chunks).
thread_local std::vector<float> packA, packB;

__attribute__((target("avx512f"))) static void packPanelsA8Transposed(const float* a, int64_t rsa, int mc, int kc,
                                                                     float* out);

/** Packs rows i0..i0+mc, depth p0..p0+kc of A into MR-row panels: panel[p * MR + r], zero rows past mc. */
template <int MR>
void packPanelsA(const Gemm& g, int i0, int mc, int p0, int kc, float* out) {
  if constexpr (MR == MR_AVX512) {
    // (MR 8: the AVX-512 tiles, so the CPU has AVX-512) rows stored along the depth (x·Wᵀ, dy·W): the scalar
    // gather below moved one float a cycle, a fifth of the LM head's dy·W on one thread (issue 40)
    if (g.csa == 1 && g.rsa != 1) {
      packPanelsA8Transposed(g.a + (int64_t)i0 * g.rsa + p0, g.rsa, mc, kc, out);
      return;
    }
  }
  if (g.rsa == 1) {
    // columns stored along the rows (dyᵀ·x): each depth's MR values lie side by side
    for (int ir = 0; ir < mc; ir += MR) {
      int rows = mc - ir < MR ? mc - ir : MR;
      const float* src = g.a + (i0 + ir) + (int64_t)p0 * g.csa;
      if (rows == MR) {
        for (int p = 0; p < kc; p++) std::memcpy(out + p * MR, src + (int64_t)p * g.csa, sizeof(float) * MR);
      } else {
        for (int p = 0; p < kc; p++) {
          std::memcpy(out + p * MR, src + (int64_t)p * g.csa, sizeof(float) * rows);
          for (int r = rows; r < MR; r++) out[p * MR + r] = 0.0f;
        }
      }
      out += (int64_t)kc * MR;
    }
    return;
  }
  for (int ir = 0; ir < mc; ir += MR) {
    int rows = mc - ir < MR ? mc - ir : MR;
    for (int p = 0; p < kc; p++) {
      const float* src = g.a + (int64_t)(i0 + ir) * g.rsa + (int64_t)(p0 + p) * g.csa;
      int r = 0;
      for (; r < rows; r++) out[p * MR + r] = src[(int64_t)r * g.rsa];
      for (; r < MR; r++) out[p * MR + r] = 0.0f;
    }
    out += (int64_t)kc * MR;
  }
}

/**
 * Transposes 16 rows of 16 floats in registers: r[i] lane j becomes r[j] lane i (unpack pairs, then 4-float
 * groups, then 128-bit lanes).
 */
__attribute__((target("avx512f"))) static inline void transpose16(__m512 r[16]) {
  __m512 t[16], u[16];
  for (int i = 0; i < 16; i += 2) {
    t[i] = _mm512_unpacklo_ps(r[i], r[i + 1]);
    t[i + 1] = _mm512_unpackhi_ps(r[i], r[i + 1]);
  }
  // u[4i + k], lane L: column 4L + k of rows 4i..4i+3
  for (int i = 0; i < 16; i += 4) {
    u[i] = _mm512_shuffle_ps(t[i], t[i + 2], 0x44);
    u[i + 1] = _mm512_shuffle_ps(t[i], t[i + 2], 0xEE);
    u[i + 2] = _mm512_shuffle_ps(t[i + 1], t[i + 3], 0x44);
    u[i + 3] = _mm512_shuffle_ps(t[i + 1], t[i + 3], 0xEE);
  }
  for (int k = 0; k < 4; k++) {
    __m512 w0 = _mm512_shuffle_f32x4(u[k], u[4 + k], 0x44);
    __m512 w1 = _mm512_shuffle_f32x4(u[k], u[4 + k], 0xEE);
    __m512 w2 = _mm512_shuffle_f32x4(u[8 + k], u[12 + k], 0x44);
    __m512 w3 = _mm512_shuffle_f32x4(u[8 + k], u[12 + k], 0xEE);
    r[k] = _mm512_shuffle_f32x4(w0, w2, 0x88);
    r[4 + k] = _mm512_shuffle_f32x4(w0, w2, 0xDD);
    r[8 + k] = _mm512_shuffle_f32x4(w1, w3, 0x88);
    r[12 + k] = _mm512_shuffle_f32x4(w1, w3, 0xDD);
  }
}

/**
 * Rows 0..mc of an A stored row by row (A(i, p) = a[i·rsa + p]), depth 0..kc, into 8-row panels (out[p * 8 + r],
 * panel q at q·kc·8, zero rows past mc): 16 rows × 16 depths transposed in registers, two panels at a time. The
 * same floats as the scalar packing.
 */
__attribute__((target("avx512f"))) static void packPanelsA8Transposed(const float* a, int64_t rsa, int mc, int kc,
                                                                     float* out) {
  for (int ir = 0; ir < mc; ir += 16) {
    int rows = mc - ir < 16 ? mc - ir : 16;
    float* lo = out + (int64_t)(ir / 8) * kc * 8;
    float* hi = rows > 8 ? lo + (int64_t)kc * 8 : nullptr;
    const float* src = a + (int64_t)ir * rsa;
    int p = 0;
    for (; p + 16 <= kc; p += 16) {
      __m512 r[16];
      for (int j = 0; j < 16; j++) r[j] = j < rows ? _mm512_loadu_ps(src + (int64_t)j * rsa + p) : _mm512_setzero_ps();
      transpose16(r);
      for (int k = 0; k < 16; k++) {
        _mm256_storeu_ps(lo + (int64_t)(p + k) * 8, _mm512_castps512_ps256(r[k]));
        if (hi) _mm256_storeu_ps(hi + (int64_t)(p + k) * 8, _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(r[k]), 1)));
      }
    }
    for (; p < kc; p++)
      for (int j = 0; j < 16; j++) {
        float v = j < rows ? src[(int64_t)j * rsa + p] : 0.0f;
        if (j < 8) lo[(int64_t)p * 8 + j] = v;
        else if (hi) hi[(int64_t)p * 8 + j - 8] = v;
      }
  }
}

/**
 * One 32-column panel of a B stored column by column (B(p, j) = b[p + j·csb]: the forward's x·Wᵀ reads W so),
 * depth 0..kc: out[p * 32 + j], zero past `cols`. 16 × 16 blocks transposed in registers; the scalar copy it
 * replaces moved one float a cycle, and on 2 threads each thread packs each weight of the forward (issue 40).
 */
__attribute__((target("avx512f"))) static void packPanelB32Transposed(const float* b, int64_t csb, int cols, int kc,
                                                                      float* out) {
  int p = 0;
  for (; p + 16 <= kc; p += 16) {
    for (int jh = 0; jh < 32; jh += 16) {
      __m512 r[16];
      for (int j = 0; j < 16; j++)
        r[j] = jh + j < cols ? _mm512_loadu_ps(b + (int64_t)(jh + j) * csb + p) : _mm512_setzero_ps();
      transpose16(r);
      for (int i = 0; i < 16; i++) _mm512_storeu_ps(out + (int64_t)(p + i) * 32 + jh, r[i]);
    }
  }
  for (; p < kc; p++)
    for (int j = 0; j < 32; j++) out[(int64_t)p * 32 + j] = j < cols ? b[p + (int64_t)j * csb] : 0.0f;
}

/** Packs depth p0..p0+kc, columns j0..j0+nc of B into NR-column panels: panel[p * NR + j], zero past nc. */
template <int NR>
void packPanelsB(const Gemm& g, int j0, int nc, int p0, int kc, float* out) {
  if constexpr (NR == 32) {
    // (NR 32: the AVX-512 tiles, so the CPU has AVX-512)
    if (g.csb != 1 && g.rsb == 1) {
      for (int jr = 0; jr < nc; jr += NR) {
        int cols = nc - jr < NR ? nc - jr : NR;
        packPanelB32Transposed(g.b + p0 + (int64_t)(j0 + jr) * g.csb, g.csb, cols, kc, out);
        out += (int64_t)kc * NR;
      }
      return;
    }
  }
  for (int jr = 0; jr < nc; jr += NR) {
    int cols = nc - jr < NR ? nc - jr : NR;
    if (g.csb == 1) {
      for (int p = 0; p < kc; p++) {
        const float* src = g.b + (int64_t)(p0 + p) * g.rsb + (j0 + jr);
        float* dst = out + p * NR;
        std::memcpy(dst, src, sizeof(float) * cols);
        for (int j = cols; j < NR; j++) dst[j] = 0.0f;
      }
    } else {
      for (int j = 0; j < NR; j++) {
        if (j < cols) {
          const float* src = g.b + (int64_t)p0 * g.rsb + (int64_t)(j0 + jr + j) * g.csb;
          for (int p = 0; p < kc; p++) out[p * NR + j] = src[(int64_t)p * g.rsb];
        } else {
          for (int p = 0; p < kc; p++) out[p * NR + j] = 0.0f;
        }
      }
    }
    out += (int64_t)kc * NR;
  }
}

/** The AVX2 tile: C[0..6, 0..16) (+)= A panel · B panel over kc, C with row stride ldc. */
__attribute__((target("avx2,fma"))) void tileAvx2(int kc, const float* a, const float* b, float* c,
                                                   int64_t ldc, bool load) {
  constexpr int MR = MR_AVX2;
  __m256 acc[MR][2];
  for (int r = 0; r < MR; r++) {
    acc[r][0] = load ? _mm256_loadu_ps(c + r * ldc) : _mm256_setzero_ps();
    acc[r][1] = load ? _mm256_loadu_ps(c + r * ldc + 8) : _mm256_setzero_ps();
  }
  for (int p = 0; p < kc; p++) {
    __m256 b0 = _mm256_loadu_ps(b + p * 16);
    __m256 b1 = _mm256_loadu_ps(b + p * 16 + 8);
    for (int r = 0; r < MR; r++) {
      __m256 x = _mm256_broadcast_ss(a + p * MR + r);
      acc[r][0] = _mm256_fmadd_ps(x, b0, acc[r][0]);
      acc[r][1] = _mm256_fmadd_ps(x, b1, acc[r][1]);
    }
  }
  for (int r = 0; r < MR; r++) {
    _mm256_storeu_ps(c + r * ldc, acc[r][0]);
    _mm256_storeu_ps(c + r * ldc + 8, acc[r][1]);
  }
}

/** The AVX-512 tile: C[0..8, 0..32), the same chains as the AVX2 tile. */
__attribute__((target("avx512f"))) void tileAvx512(int kc, const float* a, const float* b, float* c,
                                                   int64_t ldc, bool load) {
  constexpr int MR = MR_AVX512;
  __m512 acc[MR][2];
  for (int r = 0; r < MR; r++) {
    acc[r][0] = load ? _mm512_loadu_ps(c + r * ldc) : _mm512_setzero_ps();
    acc[r][1] = load ? _mm512_loadu_ps(c + r * ldc + 16) : _mm512_setzero_ps();
  }
  for (int p = 0; p < kc; p++) {
    __m512 b0 = _mm512_loadu_ps(b + p * 32);
    __m512 b1 = _mm512_loadu_ps(b + p * 32 + 16);
    for (int r = 0; r < MR; r++) {
      __m512 x = _mm512_set1_ps(a[p * MR + r]);
      acc[r][0] = _mm512_fmadd_ps(x, b0, acc[r][0]);
      acc[r][1] = _mm512_fmadd_ps(x, b1, acc[r][1]);
    }
  }
  for (int r = 0; r < MR; r++) {
    _mm512_storeu_ps(c + r * ldc, acc[r][0]);
    _mm512_storeu_ps(c + r * ldc + 16, acc[r][1]);
  }
}

using Tile = void (*)(int, const float*, const float*, float*, int64_t, bool);

/**
 * The blocked product with an MR-row, NR-column tile. `fullA` / `fullB` (or null): the operand already packed
 * whole, panels over the full depth (packPanelsA<MR>(g, 0, M, 0, K) / packPanelsB<NR>(g, 0, N, 0, K): panel q
 * at q·K·MR (q·K·NR), depth p at p·MR (p·NR) in it), read in place of packing each block; the same floats, so
 * the same bits.
 */
template <int MR, int NR>
void gemmBlocked(const Gemm& g, Tile tile, const float* fullA = nullptr, const float* fullB = nullptr) {
  if (g.K == 0) {
    if (!g.accumulate)
      for (int i = 0; i < g.M; i++) std::memset(g.c + i * g.ldc, 0, sizeof(float) * g.N);
    return;
  }
  int ncMax = g.N < NC ? g.N : NC;
  int kcMax = g.K < KC ? g.K : KC;
  if (!fullB) packB.resize((size_t)((ncMax + NR - 1) / NR) * NR * kcMax);
  if (!fullA) packA.resize((size_t)MC * kcMax);
  alignas(64) float edge[MR * NR];
  for (int j0 = 0; j0 < g.N; j0 += NC) {
    int nc = g.N - j0 < NC ? g.N - j0 : NC;
    for (int p0 = 0; p0 < g.K; p0 += KC) {
      int kc = g.K - p0 < KC ? g.K - p0 : KC;
      bool load = g.accumulate || p0 > 0;
      if (!fullB) packPanelsB<NR>(g, j0, nc, p0, kc, packB.data());
      for (int i0 = 0; i0 < g.M; i0 += MC) {
        int mc = g.M - i0 < MC ? g.M - i0 : MC;
        if (!fullA) packPanelsA<MR>(g, i0, mc, p0, kc, packA.data());
        for (int jr = 0; jr < nc; jr += NR) {
          // (j0 and i0 are multiples of NC and MC, themselves multiples of NR and MR: whole panels)
          const float* bp = fullB ? fullB + (int64_t)((j0 + jr) / NR) * g.K * NR + (int64_t)p0 * NR
                                  : packB.data() + (int64_t)(jr / NR) * NR * kc;
          int cols = nc - jr < NR ? nc - jr : NR;
          for (int ir = 0; ir < mc; ir += MR) {
            const float* ap = fullA ? fullA + (int64_t)((i0 + ir) / MR) * g.K * MR + (int64_t)p0 * MR
                                    : packA.data() + (int64_t)(ir / MR) * MR * kc;
            int rows = mc - ir < MR ? mc - ir : MR;
            float* c = g.c + (int64_t)(i0 + ir) * g.ldc + (j0 + jr);
            if (rows == MR && cols == NR) {
              tile(kc, ap, bp, c, g.ldc, load);
            } else {
              // an edge tile: computed in a full tile, only its part inside C copied back
              for (int r = 0; r < MR; r++)
                for (int j = 0; j < NR; j++)
                  edge[r * NR + j] = load && r < rows && j < cols ? c[r * g.ldc + j] : 0.0f;
              tile(kc, ap, bp, edge, NR, load);
              for (int r = 0; r < rows; r++) std::memcpy(c + r * g.ldc, edge + r * NR, sizeof(float) * cols);
            }
          }
        }
      }
    }
  }
}

// Operands packed once per pool job and thread (issue 40). The pool's GEMM jobs cut a product into row (or
// column) chunks; each chunk packed the operand all chunks share, B (A), again: on 2 threads the stage's forward
// products packed each weight 4 times against once on one thread (its transposing copy is scalar), and the
// q/k/v weight gradients their input 6 times against 3. A chunk called with a job token (the caller's job number,
// unique in the process: kernels/wasm-gemm.ts) and `share` packs the shared operand whole the first time this
// thread meets it in that job and reads that packing for the job's other chunks of any product with the same
// operand. Within one job the operands a product reads are not written (its chunks run in any order on any
// thread), so the packing stays valid; a new token packs again. The packing holds the same floats, so the
// same bits; finer chunks cost their rows alone.
struct Packing {
  int64_t token = 0;
  const float* src = nullptr;
  int64_t rs = 0, cs = 0;
  int extent = 0, depth = 0, width = 0;
  uint64_t used = 0;
  std::vector<float> data;
};
constexpr int PACKINGS = 8;  // distinct shared operands of one job (the forward row chain: o, gate, up, down, next q, k, v)
thread_local Packing packings[PACKINGS];
thread_local uint64_t packingClock = 0;
/** Most floats of a packing kept (above it, the chunk packs block by block as before). */
constexpr int64_t PACKING_MAX = int64_t(1) << 24;

/**
 * The whole packing of operand `side` (0: A, panels of W rows; 1: B, panels of W columns) of `g` for `token`,
 * packed now unless this thread has it; null when it would exceed PACKING_MAX.
 */
template <int W>
const float* packedWhole(const Gemm& g, int64_t token, int side) {
  const float* src = side == 0 ? g.a : g.b;
  int64_t rs = side == 0 ? g.rsa : g.rsb, cs = side == 0 ? g.csa : g.csb;
  int extent = side == 0 ? g.M : g.N;
  int64_t floats = (int64_t)((extent + W - 1) / W) * W * g.K;
  if (floats > PACKING_MAX || g.K == 0) return nullptr;
  Packing* oldest = &packings[0];
  for (Packing& p : packings) {
    if (p.token == token && p.src == src && p.rs == rs && p.cs == cs && p.extent == extent && p.depth == g.K &&
        p.width == W * (side == 0 ? 1 : -1)) {
      p.used = ++packingClock;
      return p.data.data();
    }
    if (p.used < oldest->used) oldest = &p;
  }
  Packing& p = *oldest;
  p.data.resize((size_t)floats);
  if (side == 0) packPanelsA<W>(g, 0, extent, 0, g.K, p.data.data());
  else packPanelsB<W>(g, 0, extent, 0, g.K, p.data.data());
  p.token = token;
  p.src = src;
  p.rs = rs;
  p.cs = cs;
  p.extent = extent;
  p.depth = g.K;
  p.width = W * (side == 0 ? 1 : -1);
  p.used = ++packingClock;
  return p.data.data();
}

/** The product with the MR×NR tile; with a job token, the operand `share` names (1: B, 2: A) packed once. */
template <int MR, int NR>
void gemmShared(const Gemm& g, Tile tile, int64_t token, int share) {
  const float* fullA = token != 0 && share == 2 ? packedWhole<MR>(g, token, 0) : nullptr;
  const float* fullB = token != 0 && share == 1 ? packedWhole<NR>(g, token, 1) : nullptr;
  gemmBlocked<MR, NR>(g, tile, fullA, fullB);
}

// Cross-entropy rows (issue 40): the WebAssembly task's computation (assembly/train.ts crossEntropyRow) with
// 16-float lanes, giving its bits: the Cephes exponential of assembly/exp.ts with the same f32 multiplies and
// adds in the same order (never fused: see the pragma), the softmax sum in the same four f64 chains (chain j
// adds e[j], e[j + 4], e[j + 8], ... in order; then (chain 0 + chain 2) + (chain 1 + chain 3)), the scaling in
// f64 rounded once to f32. The maximum is exact in any order. The WebAssembly task took 15 % of a one-thread
// native step (7 ns a float); this one the part of a float's exponential, sum and scaling that AVX-512 leaves.
#pragma GCC push_options
#pragma GCC optimize("fp-contract=off")

/** An f32 constant as AssemblyScript makes it from a literal: the f64 value rounded to f32. */
static inline float F(double x) { return (float)x; }

/**
 * exp(x) on 16 f32 lanes: assembly/exp.ts exp4, operation by operation (min and max with x second, so a NaN
 * stays NaN as in WebAssembly).
 */
__attribute__((target("avx512f"))) static inline __m512 exp16(__m512 x) {
  x = _mm512_min_ps(_mm512_set1_ps(F(88.3)), _mm512_max_ps(_mm512_set1_ps(F(-87.3)), x));
  __m512 k = _mm512_roundscale_ps(_mm512_add_ps(_mm512_mul_ps(x, _mm512_set1_ps(F(1.4426950408889634))),
                                                _mm512_set1_ps(F(0.5))),
                                  _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
  __m512 r = _mm512_sub_ps(x, _mm512_mul_ps(k, _mm512_set1_ps(F(0.693359375))));
  r = _mm512_sub_ps(r, _mm512_mul_ps(k, _mm512_set1_ps(F(-2.1219444e-4))));
  __m512 y = _mm512_set1_ps(F(1.98756915e-4));
  y = _mm512_add_ps(_mm512_mul_ps(y, r), _mm512_set1_ps(F(1.3981999507e-3)));
  y = _mm512_add_ps(_mm512_mul_ps(y, r), _mm512_set1_ps(F(8.3334519073e-3)));
  y = _mm512_add_ps(_mm512_mul_ps(y, r), _mm512_set1_ps(F(4.1665795894e-2)));
  y = _mm512_add_ps(_mm512_mul_ps(y, r), _mm512_set1_ps(F(1.6666665459e-1)));
  y = _mm512_add_ps(_mm512_mul_ps(y, r), _mm512_set1_ps(F(5.0000001201e-1)));
  y = _mm512_add_ps(_mm512_add_ps(_mm512_mul_ps(_mm512_mul_ps(y, r), r), r), _mm512_set1_ps(F(1.0)));
  __m512i pow2 = _mm512_slli_epi32(_mm512_castps_si512(_mm512_add_ps(k, _mm512_set1_ps(F(8388735.0)))), 23);
  return _mm512_mul_ps(y, _mm512_castsi512_ps(pow2));
}

/** One row of V logits in place: softmax · scale, minus scale at the target; returns the row's loss. */
__attribute__((target("avx512f"))) static double crossEntropyRow(float* row, int V, int target, double scale) {
  int n16 = V & ~15, n4 = V & ~3;
  __m512 mv = _mm512_set1_ps(-INFINITY);
  for (int i = 0; i < n16; i += 16) mv = _mm512_max_ps(mv, _mm512_loadu_ps(row + i));
  float mx = _mm512_reduce_max_ps(mv);
  for (int i = n16; i < V; i++) mx = row[i] > mx ? row[i] : mx;
  __m512 m16 = _mm512_set1_ps(mx);
  // the four f64 chains of the WebAssembly loop: lanes j of `chains` add e[i + j] for each 4 floats in order
  __m256d chains = _mm256_setzero_pd();
  int i = 0;
  for (; i < n16; i += 16) {
    __m512 e = exp16(_mm512_sub_ps(_mm512_loadu_ps(row + i), m16));
    _mm512_storeu_ps(row + i, e);
    __m512d lo = _mm512_cvtps_pd(_mm512_castps512_ps256(e));
    __m512d hi = _mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(e), 1)));
    chains = _mm256_add_pd(chains, _mm512_castpd512_pd256(lo));
    chains = _mm256_add_pd(chains, _mm512_extractf64x4_pd(lo, 1));
    chains = _mm256_add_pd(chains, _mm512_castpd512_pd256(hi));
    chains = _mm256_add_pd(chains, _mm512_extractf64x4_pd(hi, 1));
  }
  alignas(64) float tail[16];
  for (; i < n4; i += 4) {
    for (int j = 0; j < 16; j++) tail[j] = j < 4 ? row[i + j] : 0.0f;
    __m512 e = exp16(_mm512_sub_ps(_mm512_load_ps(tail), m16));
    _mm512_store_ps(tail, e);
    for (int j = 0; j < 4; j++) row[i + j] = tail[j];
    chains = _mm256_add_pd(chains, _mm256_cvtps_pd(_mm_load_ps(tail)));
  }
  alignas(32) double c[4];
  _mm256_store_pd(c, chains);
  double sum = (c[0] + c[2]) + (c[1] + c[3]);
  for (; i < V; i++) {
    for (int j = 0; j < 16; j++) tail[j] = row[i] - mx;
    _mm512_store_ps(tail, exp16(_mm512_load_ps(tail)));
    row[i] = tail[0];
    sum += (double)tail[0];
  }
  double loss = -std::log((double)row[target] / sum);
  double k = scale / sum;
  __m512d kv = _mm512_set1_pd(k);
  i = 0;
  for (; i < n16; i += 16) {
    __m512 e = _mm512_loadu_ps(row + i);
    __m256 lo = _mm512_cvtpd_ps(_mm512_mul_pd(_mm512_cvtps_pd(_mm512_castps512_ps256(e)), kv));
    __m256 hi = _mm512_cvtpd_ps(
        _mm512_mul_pd(_mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(e), 1))), kv));
    _mm256_storeu_ps(row + i, lo);
    _mm256_storeu_ps(row + i + 8, hi);
  }
  for (; i < V; i++) row[i] = (float)((double)row[i] * k);
  row[target] = (float)((double)row[target] - scale);
  return loss;
}
#pragma GCC pop_options

int level() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return 2;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return 1;
  return 0;
}

const int LEVEL = level();

napi_value fail(napi_env env, const char* message) {
  napi_throw_range_error(env, nullptr, message);
  return nullptr;
}

/** The Float32Array over the shared memory from byte 0 that both calls take first; false if `value` is not one. */
static bool floatHeap(napi_env env, napi_value value, float** data, size_t* length) {
  napi_typedarray_type type;
  void* raw = nullptr;
  napi_value buffer;
  size_t offset = 0;
  if (napi_get_typedarray_info(env, value, &type, length, &raw, &buffer, &offset) != napi_ok ||
      type != napi_float32_array || offset != 0)
    return false;
  *data = static_cast<float*>(raw);
  return true;
}

/**
 * The call's arguments into argv (room for `most`) and the heap, the Float32Array every call takes first; false if
 * fewer than `least` came or the first is not a Float32Array over the shared memory from byte 0.
 */
static bool heapCall(napi_env env, napi_callback_info info, size_t least, size_t most, napi_value* argv,
                     size_t* argc, float** heap, size_t* length) {
  *argc = most;
  if (napi_get_cb_info(env, info, argc, argv, nullptr, nullptr) != napi_ok || *argc < least) return false;
  return floatHeap(env, argv[0], heap, length);
}

/**
 * gemm(heap: Float32Array over the shared memory from byte 0, c, ldc, a, rsa, csa, b, rsb, csb, M, N, K,
 * accumulate[, level[, token, share]]): c, a, b byte addresses in the heap, strides in floats (assembly/matmul.ts
 * gemm). `level` (tests): the widest tiles to use, 1 for AVX2 on a CPU with AVX-512 (the same bits, the test
 * checks); 0 the widest. `token` (a pool job's number, 0: none) and `share` (1: B, 2: A): this call is a chunk of
 * a job whose other chunks read the same B (A), which this thread packs once for the job (packedWhole).
 */
napi_value GemmCall(napi_env env, napi_callback_info info) {
  size_t argc = 0;
  napi_value argv[16];
  size_t length = 0;
  float* heap = nullptr;
  if (!heapCall(env, info, 13, 16, argv, &argc, &heap, &length))
    return fail(env, "gemm: 13 arguments expected, the first a Float32Array over the heap from byte 0");
  int64_t v[12];
  for (int i = 0; i < 12; i++)
    if (napi_get_value_int64(env, argv[i + 1], &v[i]) != napi_ok) return fail(env, "gemm: numbers expected");
  Gemm g;
  int64_t c = v[0], pa = v[2], pb = v[5];
  g.ldc = v[1];
  g.rsa = v[3];
  g.csa = v[4];
  g.rsb = v[6];
  g.csb = v[7];
  g.M = (int)v[8];
  g.N = (int)v[9];
  g.K = (int)v[10];
  g.accumulate = v[11] != 0;
  if ((c | pa | pb) & 3 || c < 0 || pa < 0 || pb < 0 || g.M < 0 || g.N < 0 || g.K < 0 || g.ldc < 0 ||
      g.rsa < 0 || g.csa < 0 || g.rsb < 0 || g.csb < 0)
    return fail(env, "gemm: bad addresses or sizes");
  if (g.M == 0 || g.N == 0) return nullptr;
  int64_t n = (int64_t)length;
  int64_t lastC = c / 4 + (int64_t)(g.M - 1) * g.ldc + g.N - 1;
  int64_t lastA = g.K == 0 ? 0 : pa / 4 + (int64_t)(g.M - 1) * g.rsa + (int64_t)(g.K - 1) * g.csa;
  int64_t lastB = g.K == 0 ? 0 : pb / 4 + (int64_t)(g.K - 1) * g.rsb + (int64_t)(g.N - 1) * g.csb;
  if (lastC >= n || lastA >= n || lastB >= n) return fail(env, "gemm: operand outside the heap");
  g.c = heap + c / 4;
  g.a = heap + pa / 4;
  g.b = heap + pb / 4;
  int level = LEVEL;
  int32_t wanted = 0;
  if (argc > 13 && napi_get_value_int32(env, argv[13], &wanted) == napi_ok && wanted > 0 && wanted < level)
    level = wanted;
  int64_t token = 0;
  int32_t share = 0;
  if (argc > 15 && (napi_get_value_int64(env, argv[14], &token) != napi_ok ||
                    napi_get_value_int32(env, argv[15], &share) != napi_ok || share < 0 || share > 2))
    return fail(env, "gemm: a job token and a share (0, 1 or 2) expected");
  if (level == 2) gemmShared<MR_AVX512, 32>(g, tileAvx512, token, share);
  else if (level == 1) gemmShared<MR_AVX2, 16>(g, tileAvx2, token, share);
  else return fail(env, "gemm: this CPU has no AVX2+FMA");
  return nullptr;
}

/**
 * adviseHugePages(heap: Float32Array over the shared memory from byte 0, bytes): asks the kernel to back the
 * 2 MB-aligned part of [heap, heap + bytes) with 2 MB pages (madvise MADV_HUGEPAGE; `bytes` may reach past the
 * memory's current end, up to its maximum, which V8 reserved up front for a shared memory). Pages touched
 * afterwards come as huge pages where the kernel allows it (transparent_hugepage "madvise" or "always"); moves
 * no data, changes no bits. Returns 0 or the errno. Why: the LM head's products read the [rows, vocabulary]
 * logits a column block at a time, one 4 kB page per row, and on the development VM each TLB miss walks two
 * page tables (issue 40).
 */
napi_value AdviseCall(napi_env env, napi_callback_info info) {
  size_t argc = 0;
  napi_value argv[2];
  size_t length = 0;
  float* data = nullptr;
  int64_t bytes = 0;
  if (!heapCall(env, info, 2, 2, argv, &argc, &data, &length) || napi_get_value_int64(env, argv[1], &bytes) != napi_ok ||
      bytes < 0)
    return fail(env, "adviseHugePages: a Float32Array from byte 0 and a byte count expected");
  constexpr uintptr_t HUGE = uintptr_t(2) << 20;
  uintptr_t lo = ((uintptr_t)data + HUGE - 1) & ~(HUGE - 1);
  uintptr_t hi = ((uintptr_t)data + (uintptr_t)bytes) & ~(HUGE - 1);
  int rc = 0;
  if (hi > lo && madvise((void*)lo, hi - lo, MADV_HUGEPAGE) != 0) rc = errno;
  napi_value out;
  napi_create_int32(env, rc, &out);
  return out;
}


/**
 * crossEntropy(heap, args, item): item `item` of the WebAssembly CROSS_ENTROPY task (assembly/train-tasks.ts)
 * whose arguments are the i32 cells at byte `args`: logits, targets (i32), losses (f64 a row), V, scale (f64),
 * rows, rows per item. The same bits as the task (crossEntropyRow above); needs AVX-512 (level 2).
 */
napi_value CrossEntropyCall(napi_env env, napi_callback_info info) {
  size_t argc = 0;
  napi_value argv[3];
  size_t length = 0;
  float* heap = nullptr;
  int64_t at = 0, item = 0;
  if (!heapCall(env, info, 3, 3, argv, &argc, &heap, &length) || napi_get_value_int64(env, argv[1], &at) != napi_ok ||
      napi_get_value_int64(env, argv[2], &item) != napi_ok)
    return fail(env, "crossEntropy: the heap, an argument address and an item expected");
  if (LEVEL < 2) return fail(env, "crossEntropy: this CPU has no AVX-512");
  int64_t n = (int64_t)length;
  if (at < 0 || (at & 3) || at / 4 + 8 > n || item < 0) return fail(env, "crossEntropy: bad arguments");
  const int32_t* cell = reinterpret_cast<const int32_t*>(heap) + at / 4;
  double scale;
  std::memcpy(&scale, cell + 4, sizeof scale);
  int64_t logits = cell[0], targets = cell[1], losses = cell[2], V = cell[3], rows = cell[6], per = cell[7];
  int64_t r0 = item * per, r1 = r0 + per < rows ? r0 + per : rows;
  if ((logits | targets | losses) & 3 || logits < 0 || targets < 0 || losses < 0 || V <= 0 ||
      per <= 0 || r0 >= rows || logits / 4 + rows * V > n || targets / 4 + rows > n || losses / 4 + 2 * rows > n)
    return fail(env, "crossEntropy: operand outside the heap");
  const int32_t* target = reinterpret_cast<const int32_t*>(heap) + targets / 4;
  char* loss = reinterpret_cast<char*>(heap) + losses;
  for (int64_t r = r0; r < r1; r++) {
    if (target[r] < 0 || target[r] >= V) return fail(env, "crossEntropy: a target outside the vocabulary");
    double value = crossEntropyRow(heap + logits / 4 + r * V, (int)V, target[r], scale);
    std::memcpy(loss + r * 8, &value, sizeof value);
  }
  return nullptr;
}


/**
 * fmaLoop(iterations): 12 independent AVX-512 (AVX2) fused multiply-add chains in registers, `iterations`
 * times each; returns a sum so nothing is optimized away. No memory traffic: what 1 and 2 threads of it make
 * (bench/lib/fma-scaling.ts) says whether the machine's second core adds FMA throughput at that moment, which
 * a VM's host may not grant (issue 40: 2.07x one minute, 1.00x the next).
 */
__attribute__((target("avx512f"))) static double fmaChains512(int64_t n) {
  __m512 a[12];
  const __m512 b = _mm512_set1_ps(0.999f), c = _mm512_set1_ps(0.001f);
  for (int i = 0; i < 12; i++) a[i] = _mm512_set1_ps((float)i);
  for (int64_t k = 0; k < n; k++)
    for (int i = 0; i < 12; i++) a[i] = _mm512_fmadd_ps(a[i], b, c);
  double s = 0;
  for (int i = 0; i < 12; i++) s += _mm512_reduce_add_ps(a[i]);
  return s;
}

__attribute__((target("avx2,fma"))) static double fmaChains256(int64_t n) {
  __m256 a[12];
  const __m256 b = _mm256_set1_ps(0.999f), c = _mm256_set1_ps(0.001f);
  for (int i = 0; i < 12; i++) a[i] = _mm256_set1_ps((float)i);
  for (int64_t k = 0; k < n; k++)
    for (int i = 0; i < 12; i++) a[i] = _mm256_fmadd_ps(a[i], b, c);
  alignas(32) float lanes[8];
  double s = 0;
  for (int i = 0; i < 12; i++) {
    _mm256_store_ps(lanes, a[i]);
    for (float x : lanes) s += x;
  }
  return s;
}

napi_value FmaLoopCall(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  int64_t n = 0;
  if (napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr) != napi_ok || argc < 1 ||
      napi_get_value_int64(env, argv[0], &n) != napi_ok || n < 0)
    return fail(env, "fmaLoop: an iteration count expected");
  if (LEVEL == 0) return fail(env, "fmaLoop: this CPU has no AVX2+FMA");
  double s = LEVEL == 2 ? fmaChains512(n) : fmaChains256(n);
  napi_value out;
  napi_create_double(env, s, &out);
  return out;
}

}  // namespace

NAPI_MODULE_INIT() {
  napi_value fn, level, advise;
  napi_create_function(env, "gemm", NAPI_AUTO_LENGTH, GemmCall, nullptr, &fn);
  napi_set_named_property(env, exports, "gemm", fn);
  napi_create_function(env, "adviseHugePages", NAPI_AUTO_LENGTH, AdviseCall, nullptr, &advise);
  napi_set_named_property(env, exports, "adviseHugePages", advise);
  napi_value ce;
  napi_create_function(env, "crossEntropy", NAPI_AUTO_LENGTH, CrossEntropyCall, nullptr, &ce);
  napi_set_named_property(env, exports, "crossEntropy", ce);
  napi_value fma;
  napi_create_function(env, "fmaLoop", NAPI_AUTO_LENGTH, FmaLoopCall, nullptr, &fma);
  napi_set_named_property(env, exports, "fmaLoop", fma);
  // 0: unavailable (no AVX2+FMA), 1: AVX2 tiles, 2: AVX-512 tiles
  napi_create_int32(env, LEVEL, &level);
  napi_set_named_property(env, exports, "level", level);
  return exports;
}
