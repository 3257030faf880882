/** SwiGLU's gate: a = silu(g) · u, elementwise, silu(g) = g·σ(g). */
export function swigluForward(a: Float32Array, g: Float32Array, u: Float32Array, n: number): void {
  for (let i = 0; i < n; i++) {
    const gi = g[i];
    a[i] = (gi / (1 + Math.exp(-gi))) * u[i];
  }
}

/** Backward: dg = da·u·σ(g)·(1 + g·(1 − σ(g))), du = da·silu(g). Overwrites dg and du. */
export function swigluBackward(
  dg: Float32Array,
  du: Float32Array,
  da: Float32Array,
  g: Float32Array,
  u: Float32Array,
  n: number,
): void {
  for (let i = 0; i < n; i++) {
    const gi = g[i];
    const s = 1 / (1 + Math.exp(-gi));
    du[i] = da[i] * gi * s;
    dg[i] = da[i] * u[i] * s * (1 + gi * (1 - s));
  }
}
