import type { TokenModel, TokenSession } from "../models/model.ts";
import type { TokenTrie } from "./trie.ts";
import { ToolgenError } from "../errors.ts";

/**
 * Beam search over a TokenModel restricted by a trie of valid id sequences (ToolGen §3.6, App. C). Scores are
 * sums of full-vocabulary log-probabilities (disallowed tokens are masked, not renormalised away), as with a
 * prefix-constrained logits processor. With `constrained: false` the same search runs over the whole vocabulary,
 * which is how hallucinated ids are measured.
 */
export interface BeamSearchOptions {
  /** Beam width, also the number of results (default 5). */
  beams?: number;
  /** Restrict every step to the trie (default true). */
  constrained?: boolean;
  /** Unconstrained mode: a hypothesis that emits this token is finished. */
  endToken?: number;
  /** Unconstrained mode: the longest hypothesis (default: the trie's depth + 2). Constrained mode ignores it. */
  maxSteps?: number;
}

export interface BeamHypothesis {
  /** The catalog id the tokens complete; undefined for a sequence outside the trie (a hallucination). */
  id: string | undefined;
  tokens: number[];
  logProb: number;
}

interface LiveBeam {
  session: TokenSession;
  owned: boolean;
  tokens: number[];
  logProb: number;
  logits: Float32Array;
}

/** log-softmax normaliser: log Σ exp(logits). */
export function logSumExp(logits: Float32Array): number {
  let max = -Infinity;
  for (let i = 0; i < logits.length; i++) if (logits[i]! > max) max = logits[i]!;
  if (max === -Infinity) return -Infinity;
  let sum = 0;
  for (let i = 0; i < logits.length; i++) sum += Math.exp(logits[i]! - max);
  return max + Math.log(sum);
}

/** The k highest-scoring token ids among `allowed` (or among all tokens when `allowed` is undefined). */
export function topTokens(logits: Float32Array, k: number, allowed?: readonly number[]): number[] {
  const pool = allowed ?? Array.from({ length: logits.length }, (_, i) => i);
  if (k >= pool.length) {
    return [...pool].sort((a, b) => logits[b]! - logits[a]! || a - b);
  }
  // Keep a small sorted buffer: k is small (beam width) and the pool may be the whole vocabulary.
  const best: number[] = [];
  for (const id of pool) {
    const v = logits[id]!;
    if (best.length === k && v <= logits[best[k - 1]!]!) continue;
    let pos = best.length;
    while (pos > 0 && logits[best[pos - 1]!]! < v) pos--;
    best.splice(pos, 0, id);
    if (best.length > k) best.pop();
  }
  return best;
}

/**
 * Runs the search from a session that has already consumed the prompt; `logits` are the next-token logits after
 * the prompt. The given session is forked, never advanced or disposed. Results are sorted best first.
 */
export async function constrainedBeamSearch(
  session: TokenSession,
  logits: Float32Array,
  trie: TokenTrie,
  options: BeamSearchOptions = {},
): Promise<BeamHypothesis[]> {
  const width = options.beams ?? 5;
  if (!Number.isInteger(width) || width < 1)
    throw new ToolgenError("invalid_option", `constrainedBeamSearch: beams must be ≥ 1, got ${width}`);
  const constrained = options.constrained ?? true;
  // Constrained hypotheses always complete within the trie's depth, so no cut-off can leave one unfinished.
  const maxSteps = constrained ? trie.maxDepth : (options.maxSteps ?? trie.maxDepth + 2);
  let active: LiveBeam[] = [{ session, owned: false, tokens: [], logProb: 0, logits }];
  const finished: BeamHypothesis[] = [];
  try {
    for (let step = 0; step < maxSteps && active.length > 0; step++) {
      const candidates: Array<{ parent: LiveBeam; token: number; logProb: number }> = [];
      for (const beam of active) {
        const norm = logSumExp(beam.logits);
        const allowed = constrained ? trie.next(beam.tokens) : topTokens(beam.logits, width);
        for (const token of allowed) {
          if (token >= beam.logits.length) continue;
          candidates.push({ parent: beam, token, logProb: beam.logProb + beam.logits[token]! - norm });
        }
      }
      candidates.sort((a, b) => b.logProb - a.logProb || a.token - b.token);
      const chosen = candidates.slice(0, width);
      const next: LiveBeam[] = [];
      const lastUse = new Map<LiveBeam, number>();
      chosen.forEach((c, i) => lastUse.set(c.parent, i));
      for (let i = 0; i < chosen.length; i++) {
        const { parent, token, logProb } = chosen[i]!;
        const tokens = [...parent.tokens, token];
        const id = trie.valueOf(tokens);
        const offTrie = !trie.hasPrefix(tokens);
        if (id !== undefined || offTrie || token === options.endToken || step === maxSteps - 1) {
          finished.push({ id, tokens, logProb });
          continue;
        }
        // The parent's last chosen child may take over its session instead of forking it.
        const reuse = parent.owned && lastUse.get(parent) === i;
        const child = reuse ? parent.session : await parent.session.fork();
        if (reuse) parent.owned = false;
        next.push({ session: child, owned: true, tokens, logProb, logits: await child.append([token]) });
      }
      for (const beam of active) if (beam.owned) beam.session.dispose();
      active = next;
      // Scores only fall as hypotheses grow: stop once no live beam can enter the finished top `width`.
      if (finished.length >= width) {
        finished.sort((a, b) => b.logProb - a.logProb);
        const worst = finished[width - 1]!.logProb;
        if (active.every((b) => b.logProb <= worst)) break;
      }
    }
  } finally {
    for (const beam of active) if (beam.owned) beam.session.dispose();
  }
  finished.sort((a, b) => b.logProb - a.logProb);
  return finished.slice(0, width);
}

/**
 * One decoding of an id after a prompt: opens a session on `model`, feeds `promptIds`, and runs the beam search.
 * The ToolGen agent's action step and the generative retriever both use it.
 */
export async function decodeIds(
  model: TokenModel,
  promptIds: readonly number[],
  trie: TokenTrie,
  options: BeamSearchOptions = {},
): Promise<BeamHypothesis[]> {
  const session = await model.session();
  try {
    const logits = await session.append([...promptIds]);
    return await constrainedBeamSearch(session, logits, trie, options);
  } finally {
    session.dispose();
  }
}
