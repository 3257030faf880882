import { logSoftmax } from "../layers/cross-entropy.ts";
import type { Llama } from "../llama.ts";
import { Rng } from "../rng.ts";
import { InferenceSession } from "./session.ts";
import { ToolgenError } from "../../errors.ts";

/** Greedy when temperature is 0 or absent; otherwise temperature sampling restricted to the top-p nucleus. */
export interface SamplingOptions {
  temperature?: number;
  topP?: number;
}

/** Picks the next token from logits. `allowed` restricts the choice (constrained decoding). */
export function pickToken(
  logits: Float32Array,
  o: SamplingOptions,
  rng: Rng,
  allowed?: readonly number[],
): number {
  const pool = allowed ?? null;
  const count = pool ? pool.length : logits.length;
  if (count === 0) throw new ToolgenError("invalid_option", "no token is allowed at this step");
  const idAt = (i: number) => (pool ? pool[i] : i);
  const temperature = o.temperature ?? 0;
  if (!(temperature > 0)) {
    let best = idAt(0);
    for (let i = 1; i < count; i++) if (logits[idAt(i)] > logits[best]) best = idAt(i);
    return best;
  }
  // softmax at the temperature over the pool, then keep the smallest top set with mass ≥ topP
  let max = -Infinity;
  for (let i = 0; i < count; i++) max = Math.max(max, logits[idAt(i)]);
  const cand = Array.from({ length: count }, (_, i) => ({
    id: idAt(i),
    p: Math.exp((logits[idAt(i)] - max) / temperature),
  }));
  const sum = cand.reduce((s, c) => s + c.p, 0);
  cand.sort((a, b) => b.p - a.p || a.id - b.id);
  const topP = o.topP ?? 1;
  let kept = 0;
  let mass = 0;
  while (kept < cand.length && (kept === 0 || mass < topP * sum)) mass += cand[kept++].p;
  let r = rng.next() * mass;
  for (let i = 0; i < kept; i++) {
    r -= cand[i].p;
    if (r < 0) return cand[i].id;
  }
  return cand[kept - 1].id;
}

export interface GenerateTokensOptions extends SamplingOptions {
  maxTokens: number;
  /** Generation stops after one of these ids (it is included in the output). */
  stopIds?: readonly number[];
  seed?: number;
  /** Constrained decoding: the ids allowed after `generated` (undefined: any). */
  allowed?: (generated: readonly number[]) => readonly number[] | undefined;
  onToken?: (id: number) => void;
  signal?: AbortSignal;
}

/** Feeds the prompt into the session, then decodes token by token from its KV cache. */
export function generateTokens(
  session: InferenceSession,
  prompt: readonly number[],
  o: GenerateTokensOptions,
): { ids: number[]; finishReason: "stop" | "length" } {
  const rng = new Rng(o.seed ?? 0);
  const ids: number[] = [];
  const room = session.model.config.maxPositions - session.length - prompt.length;
  const max = Math.min(o.maxTokens, room + 1);
  if (max <= 0)
    throw new ToolgenError(
      "invalid_option",
      `the prompt (${prompt.length} tokens) leaves no room in the context`,
    );
  let logits = session.append(prompt);
  while (ids.length < max) {
    if (o.signal?.aborted) break;
    const id = pickToken(logits, o, rng, o.allowed?.(ids));
    ids.push(id);
    o.onToken?.(id);
    if (o.stopIds?.includes(id)) return { ids, finishReason: "stop" };
    if (ids.length < max) logits = session.append([id]);
  }
  return { ids, finishReason: "length" };
}

export interface BeamOptions {
  beams: number;
  maxTokens: number;
  /** A hypothesis ending in one of these ids is finished. */
  stopIds?: readonly number[];
  /** Scores are logProb / length^lengthPenalty (default 1: the mean log-probability per token). */
  lengthPenalty?: number;
}

export interface Beam {
  ids: number[];
  logProb: number;
  score: number;
}

/**
 * Beam search for text generation: keeps the `beams` best partial sequences by summed log-probability, each
 * with its own forked KV cache; finished hypotheses are ranked by the length-normalised score.
 */
export function beamSearch(model: Llama, prompt: readonly number[], o: BeamOptions): Beam[] {
  if (!(Number.isInteger(o.beams) && o.beams > 0))
    throw new ToolgenError("invalid_option", `beams must be a positive integer, got ${o.beams}`);
  const score = (b: { ids: number[]; logProb: number }) =>
    b.logProb / Math.pow(Math.max(1, b.ids.length), o.lengthPenalty ?? 1);
  const root = new InferenceSession(model);
  let live = [{ session: root, ids: [] as number[], logProb: 0, logp: logSoftmax(root.append(prompt)) }];
  const done: Beam[] = [];
  const limit = Math.min(o.maxTokens, model.config.maxPositions - prompt.length);
  for (let step = 0; step < limit && live.length > 0; step++) {
    // every live beam proposes its `beams` best continuations; the best `beams` overall survive
    const proposals: { from: (typeof live)[number]; id: number; logProb: number }[] = [];
    for (const b of live) {
      for (const id of topK(b.logp, o.beams))
        proposals.push({ from: b, id, logProb: b.logProb + b.logp[id] });
    }
    proposals.sort((a, b) => b.logProb - a.logProb);
    const next: typeof live = [];
    const users = new Map<(typeof live)[number], number>();
    for (const p of proposals.slice(0, o.beams)) {
      const ids = [...p.from.ids, p.id];
      if (o.stopIds?.includes(p.id) || step + 1 === limit) {
        done.push({ ids, logProb: p.logProb, score: score({ ids, logProb: p.logProb }) });
        continue;
      }
      // the first continuation of a beam reuses its session; others fork it
      const n = users.get(p.from) ?? 0;
      users.set(p.from, n + 1);
      const session = n === 0 ? p.from.session : p.from.session.fork();
      next.push({ session, ids, logProb: p.logProb, logp: new Float32Array(0) });
    }
    // sessions that were forked from must not advance before the forks are taken: append afterwards
    for (const b of live) if (!users.has(b)) b.session.dispose();
    for (const b of next) b.logp = logSoftmax(b.session.append([b.ids[b.ids.length - 1]]));
    live = next;
    // stop once no live beam can still reach the top `beams` (log-probabilities only decrease; HF's bound)
    if (done.length >= o.beams) {
      const kth = done.map((d) => d.score).sort((a, b) => b - a)[o.beams - 1];
      const alpha = o.lengthPenalty ?? 1;
      if (live.every((b) => b.logProb / Math.pow(limit, alpha) <= kth)) break;
    }
  }
  for (const b of live) {
    done.push({ ids: b.ids, logProb: b.logProb, score: score(b) });
    b.session.dispose();
  }
  return done.sort((a, b) => b.score - a.score).slice(0, o.beams);
}

function topK(logp: Float32Array, k: number): number[] {
  const best: number[] = [];
  for (let i = 0; i < logp.length; i++) {
    if (best.length === k && logp[i] <= logp[best[k - 1]]) continue;
    let pos = best.length;
    while (pos > 0 && logp[best[pos - 1]] < logp[i]) pos--;
    best.splice(pos, 0, i);
    if (best.length > k) best.pop();
  }
  return best;
}
