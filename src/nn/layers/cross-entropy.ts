/**
 * Softmax cross-entropy over rows of `logits` [rows, V] against `targets` (one id per row). Returns the summed
 * loss and, in place, turns `logits` into its gradient (softmax − one-hot)·scale.
 */
export function crossEntropyInPlace(
  logits: Float32Array,
  targets: ArrayLike<number>,
  rows: number,
  V: number,
  scale: number,
): number {
  let total = 0;
  for (let r = 0; r < rows; r++) {
    const o = r * V;
    const target = targets[r];
    if (!(target >= 0 && target < V))
      throw new Error(`target id ${target} outside the vocabulary (size ${V})`);
    let max = -Infinity;
    for (let i = 0; i < V; i++) if (logits[o + i] > max) max = logits[o + i];
    let sum = 0;
    for (let i = 0; i < V; i++) {
      const e = Math.exp(logits[o + i] - max);
      logits[o + i] = e;
      sum += e;
    }
    total += -Math.log(logits[o + target] / sum);
    const k = scale / sum;
    for (let i = 0; i < V; i++) logits[o + i] *= k;
    logits[o + target] -= scale;
  }
  return total;
}

/** Log-softmax of one row, in a new array (inference, beam scores). */
export function logSoftmax(logits: Float32Array): Float32Array {
  let max = -Infinity;
  for (let i = 0; i < logits.length; i++) if (logits[i] > max) max = logits[i];
  let sum = 0;
  for (let i = 0; i < logits.length; i++) sum += Math.exp(logits[i] - max);
  const lse = max + Math.log(sum);
  const out = new Float32Array(logits.length);
  for (let i = 0; i < logits.length; i++) out[i] = logits[i] - lse;
  return out;
}
