// Elementwise layers for the engine, in f32x4 lanes (compiled into the same module as matmul.ts). Pointers
// are byte addresses into the shared memory; n counts floats. A tail of n % 4 elements goes through the
// same vector code one lane at a time, so every element gets the same arithmetic wherever it sits.

import { rmsnormInputGrad, rmsnormWeightGrad } from "./train";
import { exp4 } from "./exp";

// σ(g) = 1 / (1 + e^−g)
function sigmoid4(g: v128): v128 {
  return f32x4.div(f32x4.splat(1), f32x4.add(f32x4.splat(1), exp4(f32x4.neg(g))));
}

// Loads lane 0 of a vector from one float (the tail elements).
function load1(p: usize): v128 {
  return f32x4.splat(load<f32>(p));
}

/** SwiGLU forward: a = silu(g)·u = g·σ(g)·u. */
export function swigluForward(a: usize, g: usize, u: usize, n: i32): void {
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    const o = <usize>i * 4;
    const gv = v128.load(g + o);
    v128.store(a + o, f32x4.mul(f32x4.mul(gv, sigmoid4(gv)), v128.load(u + o)));
  }
  for (; i < n; i++) {
    const o = <usize>i * 4;
    const gv = load1(g + o);
    store<f32>(a + o, f32x4.extract_lane(f32x4.mul(f32x4.mul(gv, sigmoid4(gv)), load1(u + o)), 0));
  }
}

/**
 * swigluForward that also keeps σ(g) in `sg` (the backward then reads it: swigluBackwardKept), the same bits
 * for a.
 */
export function swigluForwardKeep(a: usize, sg: usize, g: usize, u: usize, n: i32): void {
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    const o = <usize>i * 4;
    const gv = v128.load(g + o);
    const s = sigmoid4(gv);
    v128.store(sg + o, s);
    v128.store(a + o, f32x4.mul(f32x4.mul(gv, s), v128.load(u + o)));
  }
  for (; i < n; i++) {
    const o = <usize>i * 4;
    const gv = load1(g + o);
    const s = sigmoid4(gv);
    store<f32>(sg + o, f32x4.extract_lane(s, 0));
    store<f32>(a + o, f32x4.extract_lane(f32x4.mul(f32x4.mul(gv, s), load1(u + o)), 0));
  }
}

/** swigluBackward reading σ(g) from `sg` (swigluForwardKeep) instead of computing it again: the same bits. */
export function swigluBackwardKept(
  dg: usize,
  du: usize,
  da: usize,
  g: usize,
  u: usize,
  sg: usize,
  n: i32,
): void {
  let i = 0;
  const one = f32x4.splat(1);
  for (; i + 4 <= n; i += 4) {
    const o = <usize>i * 4;
    const gv = v128.load(g + o);
    const s = v128.load(sg + o);
    const dav = v128.load(da + o);
    v128.store(du + o, f32x4.mul(f32x4.mul(dav, gv), s));
    v128.store(
      dg + o,
      f32x4.mul(
        f32x4.mul(f32x4.mul(dav, v128.load(u + o)), s),
        f32x4.add(one, f32x4.mul(gv, f32x4.sub(one, s))),
      ),
    );
  }
  for (; i < n; i++) {
    const o = <usize>i * 4;
    const gv = load1(g + o);
    const s = load1(sg + o);
    const dav = load1(da + o);
    store<f32>(du + o, f32x4.extract_lane(f32x4.mul(f32x4.mul(dav, gv), s), 0));
    store<f32>(
      dg + o,
      f32x4.extract_lane(
        f32x4.mul(
          f32x4.mul(f32x4.mul(dav, load1(u + o)), s),
          f32x4.add(one, f32x4.mul(gv, f32x4.sub(one, s))),
        ),
        0,
      ),
    );
  }
}

/** SwiGLU backward: dg = da·u·σ·(1 + g·(1 − σ)), du = da·g·σ (overwrites both). */
export function swigluBackward(dg: usize, du: usize, da: usize, g: usize, u: usize, n: i32): void {
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    const o = <usize>i * 4;
    const gv = v128.load(g + o);
    const s = sigmoid4(gv);
    const dav = v128.load(da + o);
    const one = f32x4.splat(1);
    v128.store(du + o, f32x4.mul(f32x4.mul(dav, gv), s));
    v128.store(
      dg + o,
      f32x4.mul(
        f32x4.mul(f32x4.mul(dav, v128.load(u + o)), s),
        f32x4.add(one, f32x4.mul(gv, f32x4.sub(one, s))),
      ),
    );
  }
  for (; i < n; i++) {
    const o = <usize>i * 4;
    const gv = load1(g + o);
    const s = sigmoid4(gv);
    const dav = load1(da + o);
    const one = f32x4.splat(1);
    store<f32>(du + o, f32x4.extract_lane(f32x4.mul(f32x4.mul(dav, gv), s), 0));
    store<f32>(
      dg + o,
      f32x4.extract_lane(
        f32x4.mul(
          f32x4.mul(f32x4.mul(dav, load1(u + o)), s),
          f32x4.add(one, f32x4.mul(gv, f32x4.sub(one, s))),
        ),
        0,
      ),
    );
  }
}

/**
 * One AdamW step over n floats (decoupled weight decay `wd` = lr·weight decay, 0 for vectors): m and v move
 * towards g and g², p −= lr·m̂/(√v̂ + eps) + wd·p, with the bias corrections c1 = 1/(1 − β1ᵗ), c2 = 1/(1 − β2ᵗ).
 */
export function adamw(
  p: usize,
  g: usize,
  m: usize,
  v: usize,
  n: i32,
  lr: f32,
  beta1: f32,
  beta2: f32,
  eps: f32,
  wd: f32,
  c1: f32,
  c2: f32,
): void {
  adamwScaled(p, g, m, v, n, lr, beta1, beta2, eps, wd, c1, c2, 1.0);
}

/** g·k in f64 rounded once to f32, four lanes: what train.ts scaleInPlace stores (gradient clipping). */
function scaled4(gv: v128, k: v128): v128 {
  const lo = f32x4.demote_f64x2_zero(f64x2.mul(f64x2.promote_low_f32x4(gv), k));
  const hi = f32x4.demote_f64x2_zero(
    f64x2.mul(f64x2.promote_low_f32x4(v128.shuffle<f32>(gv, gv, 2, 3, 2, 3)), k),
  );
  return v128.shuffle<f32>(lo, hi, 0, 1, 4, 5);
}

/**
 * adamw() reading each gradient as g·gscale (f64, rounded once to f32): the same bits as scaling g in place
 * first (gradient clipping, train.ts scaleInPlace) without another pass over the gradients. g is not written.
 */
export function adamwScaled(
  p: usize,
  g: usize,
  m: usize,
  v: usize,
  n: i32,
  lr: f32,
  beta1: f32,
  beta2: f32,
  eps: f32,
  wd: f32,
  c1: f32,
  c2: f32,
  gscale: f64,
): void {
  adamwUpdate(p, g, m, v, n, lr, beta1, beta2, eps, wd, c1, c2, gscale, false);
}

/** Present in modules whose ADAMW task can zero each gradient once read (its argument 14, adamwUpdate). */
export function adamwZeroes(): i32 {
  return 1;
}

/**
 * adamwScaled(), and with `zero` each gradient set to 0 once read: the next step's backward then adds into
 * zeros and needs no pass of its own to clear them (issue 40). The other results are the same bits.
 */
export function adamwUpdate(
  p: usize,
  g: usize,
  m: usize,
  v: usize,
  n: i32,
  lr: f32,
  beta1: f32,
  beta2: f32,
  eps: f32,
  wd: f32,
  c1: f32,
  c2: f32,
  gscale: f64,
  zero: bool,
): void {
  const scale = gscale != 1.0;
  const zeros = f32x4.splat(0);
  const kv = f64x2.splat(gscale);
  const b1 = f32x4.splat(beta1);
  const b2 = f32x4.splat(beta2);
  const a1 = f32x4.splat(1 - beta1);
  const a2 = f32x4.splat(1 - beta2);
  const lrv = f32x4.splat(lr);
  const epsv = f32x4.splat(eps);
  const wdv = f32x4.splat(wd);
  const c1v = f32x4.splat(c1);
  const c2v = f32x4.splat(c2);
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    const o = <usize>i * 4;
    const graw = v128.load(g + o);
    if (zero) v128.store(g + o, zeros);
    const gv = scale ? scaled4(graw, kv) : graw;
    const mv = f32x4.add(f32x4.mul(b1, v128.load(m + o)), f32x4.mul(a1, gv));
    const vv = f32x4.add(f32x4.mul(b2, v128.load(v + o)), f32x4.mul(f32x4.mul(a2, gv), gv));
    v128.store(m + o, mv);
    v128.store(v + o, vv);
    const pv = v128.load(p + o);
    const stepv = f32x4.div(f32x4.mul(mv, c1v), f32x4.add(f32x4.sqrt(f32x4.mul(vv, c2v)), epsv));
    v128.store(p + o, f32x4.sub(pv, f32x4.add(f32x4.mul(lrv, stepv), f32x4.mul(wdv, pv))));
  }
  for (; i < n; i++) {
    const o = <usize>i * 4;
    const gi = scale ? <f32>(<f64>load<f32>(g + o) * gscale) : load<f32>(g + o);
    if (zero) store<f32>(g + o, 0);
    const mi = beta1 * load<f32>(m + o) + (1 - beta1) * gi;
    const vi = beta2 * load<f32>(v + o) + (1 - beta2) * gi * gi;
    store<f32>(m + o, mi);
    store<f32>(v + o, vi);
    const pi = load<f32>(p + o);
    store<f32>(p + o, pi - (lr * ((mi * c1) / (Mathf.sqrt(vi * c2) + eps)) + wd * pi));
  }
}

// Σ over n floats of x·y (x, y at byte addresses), f32x4 lanes then the tail.
function dot4(x: usize, y: usize, n: i32): f32 {
  let acc = f32x4.splat(0);
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    const o = <usize>i * 4;
    acc = f32x4.add(acc, f32x4.mul(v128.load(x + o), v128.load(y + o)));
  }
  let s =
    f32x4.extract_lane(acc, 0) +
    f32x4.extract_lane(acc, 1) +
    f32x4.extract_lane(acc, 2) +
    f32x4.extract_lane(acc, 3);
  for (; i < n; i++) s += load<f32>(x + <usize>i * 4) * load<f32>(y + <usize>i * 4);
  return s;
}

/** RMSNorm forward over `rows` rows of width d: out = x·inv·w, inv = 1/√(mean(x²) + eps) saved per row. */
export function rmsnormForward(
  out: usize,
  inv: usize,
  x: usize,
  w: usize,
  rows: i32,
  d: i32,
  eps: f32,
): void {
  for (let r = 0; r < rows; r++) {
    const xr = x + <usize>(r * d) * 4;
    const or = out + <usize>(r * d) * 4;
    const k: f32 = 1 / Mathf.sqrt(dot4(xr, xr, d) / <f32>d + eps);
    store<f32>(inv + <usize>r * 4, k);
    const kv = f32x4.splat(k);
    let i = 0;
    for (; i + 4 <= d; i += 4) {
      const o = <usize>i * 4;
      v128.store(or + o, f32x4.mul(f32x4.mul(v128.load(xr + o), kv), v128.load(w + o)));
    }
    for (; i < d; i++) {
      const o = <usize>i * 4;
      store<f32>(or + o, load<f32>(xr + o) * k * load<f32>(w + o));
    }
  }
}

/**
 * RMSNorm backward: with g = dy·w, dx += inv·(g − x·inv²·mean(g·x)) (accumulated), dw += Σ_rows dy·x·inv.
 */
export function rmsnormBackward(
  dx: usize,
  dw: usize,
  dy: usize,
  x: usize,
  w: usize,
  inv: usize,
  rows: i32,
  d: i32,
): void {
  rmsnormWeightGrad(dw, dy, x, inv, rows, d, 0, d);
  rmsnormInputGrad(dx, dy, x, w, inv, 0, rows, d);
}
