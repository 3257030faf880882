/**
 * A distribution to learn at one predicted token, beside the token itself: distillation (learning without
 * forgetting), where a model being changed is trained toward what an earlier model of its own predicted there.
 */
export interface SoftTarget {
  /** Index, in the sample's ids, of the predicted token this distribution replaces or joins. */
  at: number;
  /** Token ids with probability (the rest of the vocabulary has none). */
  ids: Int32Array;
  /** Their probabilities, summing to 1 (at the temperature below). */
  probs: Float32Array;
  /** Share of the soft term: (1 − weight)·CE(token) + weight·T²·CE(probs, softmax(z / T)); in [0, 1]. */
  weight: number;
  /** Temperature T (> 0) of the student's softmax in the soft term, the one the probabilities were taken at. */
  temperature: number;
  /**
   * The tokens the soft term's softmax is taken over (distinct, `ids` among them); absent: the whole vocabulary.
   * A token outside gets no gradient from the soft term, so a token the teacher never knew (a tool added after
   * it) is not pushed down on the rows that distil it; the label term still ranks it over the whole vocabulary.
   */
  over?: Int32Array;
}

/**
 * Loss and gradient of one row of logits with a soft target: (1 − w)·(−log q[target]) + w·T²·(−Σ p·log q_T),
 * q = softmax(z), q_T = softmax(z / T). Writes (1 − w)·(q − onehot) + w·T·(q_T − p), times `scale`, into `grad`
 * (the row's gradient; `logits` is read only and must be another array).
 * The T² keeps the soft term's gradient on the scale of the hard one's as T changes (Hinton et al., 2015).
 * Returns the mixed loss and the hard loss alone (what the row would have cost without its soft target).
 */
export function softCrossEntropyRow(
  logits: Float32Array,
  grad: Float32Array,
  target: number,
  soft: SoftTarget,
  scale: number,
): { loss: number; hard: number } {
  if (soft.over) return scopedSoftCrossEntropyRow(logits, grad, target, soft, soft.over, scale);
  const V = logits.length;
  const w = soft.weight;
  const T = soft.temperature;
  let max = -Infinity;
  for (let i = 0; i < V; i++) if (logits[i]! > max) max = logits[i]!;
  let sum = 0;
  let sumT = 0;
  for (let i = 0; i < V; i++) {
    sum += Math.exp(logits[i]! - max);
    sumT += Math.exp((logits[i]! - max) / T);
  }
  const lse = max + Math.log(sum);
  const lseT = max / T + Math.log(sumT);
  const hard = lse - logits[target]!;
  let softLoss = 0;
  for (let k = 0; k < soft.ids.length; k++) {
    const p = soft.probs[k]!;
    if (p > 0) softLoss += p * (lseT - logits[soft.ids[k]!]! / T);
  }
  const zTarget = logits[target]!;
  const picked = Array.from(soft.ids, (id) => logits[id]!);
  for (let i = 0; i < V; i++) {
    const z = logits[i]!;
    grad[i] = scale * ((1 - w) * Math.exp(z - lse) + w * T * Math.exp(z / T - lseT));
  }
  grad[target] = scale * ((1 - w) * (Math.exp(zTarget - lse) - 1) + w * T * Math.exp(zTarget / T - lseT));
  for (let k = 0; k < soft.ids.length; k++) {
    const id = soft.ids[k]!;
    const hardPart = (1 - w) * (Math.exp(picked[k]! - lse) - (id === target ? 1 : 0));
    grad[id] = scale * (hardPart + w * T * (Math.exp(picked[k]! / T - lseT) - soft.probs[k]!));
  }
  return { loss: (1 - w) * hard + w * T * T * softLoss, hard };
}

/**
 * softCrossEntropyRow with the soft term's softmax over `over` alone: (1 − w)·(−log q[target]) +
 * w·T²·(−Σ p·log r_T), r_T = softmax(z[over] / T). Gradient (1 − w)·(q − onehot) everywhere, plus w·T·(r_T − p)
 * on `over`. Kept apart so that the whole-vocabulary path keeps its exact arithmetic (and its trained bytes).
 */
function scopedSoftCrossEntropyRow(
  logits: Float32Array,
  grad: Float32Array,
  target: number,
  soft: SoftTarget,
  over: Int32Array,
  scale: number,
): { loss: number; hard: number } {
  const V = logits.length;
  const w = soft.weight;
  const T = soft.temperature;
  let max = -Infinity;
  for (let i = 0; i < V; i++) if (logits[i]! > max) max = logits[i]!;
  let sum = 0;
  for (let i = 0; i < V; i++) sum += Math.exp(logits[i]! - max);
  const lse = max + Math.log(sum);
  let maxS = -Infinity;
  for (const id of over) if (logits[id]! > maxS) maxS = logits[id]!;
  let sumT = 0;
  for (const id of over) sumT += Math.exp((logits[id]! - maxS) / T);
  const lseT = maxS / T + Math.log(sumT);
  const hard = lse - logits[target]!;
  let softLoss = 0;
  for (let k = 0; k < soft.ids.length; k++) {
    const p = soft.probs[k]!;
    if (p > 0) softLoss += p * (lseT - logits[soft.ids[k]!]! / T);
  }
  const zTarget = logits[target]!;
  for (let i = 0; i < V; i++) grad[i] = scale * (1 - w) * Math.exp(logits[i]! - lse);
  grad[target] = scale * (1 - w) * (Math.exp(zTarget - lse) - 1);
  for (const id of over) grad[id] = grad[id]! + scale * w * T * Math.exp(logits[id]! / T - lseT);
  for (let k = 0; k < soft.ids.length; k++)
    grad[soft.ids[k]!] = grad[soft.ids[k]!]! - scale * w * T * soft.probs[k]!;
  return { loss: (1 - w) * hard + w * T * T * softLoss, hard };
}

/** Rejects a soft target the loss cannot use (ids outside the vocabulary, probabilities not a distribution). */
export function checkSoftTarget(s: SoftTarget, V: number): string | undefined {
  if (!(s.weight >= 0 && s.weight <= 1)) return `soft target weight ${s.weight} is not in [0, 1]`;
  if (!(s.temperature > 0 && Number.isFinite(s.temperature)))
    return `soft target temperature ${s.temperature} is not a positive number`;
  if (s.ids.length !== s.probs.length) return "soft target ids and probabilities differ in length";
  if (new Set(s.ids).size !== s.ids.length) return "soft target names a token twice";
  if (s.ids.some((id) => !(id >= 0 && id < V))) return `soft target id outside the vocabulary (size ${V})`;
  if (s.over) {
    if (s.over.some((id) => !(id >= 0 && id < V)))
      return `soft target scope id outside the vocabulary (size ${V})`;
    if (new Set(s.over).size !== s.over.length) return "soft target scope names a token twice";
    const scope = new Set(s.over);
    if (s.ids.some((id) => !scope.has(id))) return "soft target names a token outside its scope";
  }
  const total = s.probs.reduce((a, p) => a + p, 0);
  if (s.probs.some((p) => !(p >= 0)) || Math.abs(total - 1) > 1e-3)
    return `soft target probabilities sum to ${total}, not 1`;
  return undefined;
}
