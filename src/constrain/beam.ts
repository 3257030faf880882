/**
 * Beam search under a schema constraint: `beams` partial replies are kept, each extended only by the ids the
 * constraint allows, scored by the sum of the model's log-probabilities (softmax over the whole vocabulary, so
 * a path the model wanted to leave costs what it costs). Greedy decoding commits to its first token: a copy that
 * starts on a word pointing at the data ("the word …", "this: …") cannot recover; a beam keeps the alternative
 * alive. Stops once the best finished reply scores at least every live one (scores only fall).
 */
import type { LogitsSource } from "./decode.ts";
import type { TokenConstraint } from "./token-mask.ts";
import { ToolgenError } from "../errors.ts";

/** A session that can branch: the KV cache copied (InferenceSession.fork). */
export interface ForkableLogitsSource extends LogitsSource {
  fork(): ForkableLogitsSource;
  dispose(): void;
}

export interface BeamDecodeOptions {
  maxTokens: number;
  beams: number;
  /**
   * Finished replies compared by their mean log-probability per token instead of the sum (the sum favours
   * short values: "3" over "3.14159265"). The search then runs until every beam has ended.
   */
  perToken?: boolean;
  signal?: AbortSignal;
}

export interface BeamDecodeResult {
  ids: number[];
  /** Sum of the log-probabilities of the chosen ids (the end id included when one ended the reply). */
  logProb: number;
  finishReason: "stop" | "length";
}

interface Beam {
  session: ForkableLogitsSource;
  constraint: TokenConstraint;
  logits: Float32Array;
  ids: number[];
  logProb: number;
}

function logSoftmaxAt(logits: Float32Array): (id: number) => number {
  let max = -Infinity;
  for (let i = 0; i < logits.length; i++) if (logits[i]! > max) max = logits[i]!;
  let sum = 0;
  for (let i = 0; i < logits.length; i++) sum += Math.exp(logits[i]! - max);
  const log = max + Math.log(sum);
  return (id) => logits[id]! - log;
}

/**
 * The best reply of `o.beams` beams. The root session is consumed (appended to and disposed of by the search,
 * with every branch); the constraint passed in is left in its start state.
 */
export function beamDecodeConstrained(
  root: ForkableLogitsSource,
  prompt: readonly number[],
  constraint: TokenConstraint,
  o: BeamDecodeOptions,
): BeamDecodeResult {
  if (!(o.beams >= 1) || !Number.isInteger(o.beams))
    throw new ToolgenError("invalid_option", `beams must be a positive integer, got ${o.beams}`);
  if (constraint.bytesToComplete > o.maxTokens) {
    throw new ToolgenError(
      "invalid_option",
      `maxTokens ${o.maxTokens} is too small for the schema: its shortest value takes ${constraint.bytesToComplete} bytes`,
    );
  }
  let live: Beam[] = [
    { session: root, constraint: constraint.fork(), logits: root.append(prompt), ids: [], logProb: 0 },
  ];
  let best: BeamDecodeResult | undefined;
  const score = (r: { ids: readonly number[]; logProb: number }, ended: boolean) =>
    o.perToken ? r.logProb / (r.ids.length + (ended ? 1 : 0)) : r.logProb;
  const finish = (r: BeamDecodeResult, ended: boolean) => {
    if (!best || score(r, ended) > score(best, best.finishReason === "stop")) best = r;
  };
  try {
    while (live.length > 0) {
      if (o.signal?.aborted) throw o.signal.reason ?? new Error("aborted");
      const candidates: { beam: Beam; id: number; logProb: number }[] = [];
      for (const beam of live) {
        const left = o.maxTokens - beam.ids.length;
        const lp = logSoftmaxAt(beam.logits);
        const scored = beam.constraint
          .allowed(left)
          .map((id) => ({ beam, id, logProb: beam.logProb + lp(id) }));
        scored.sort((a, b) => b.logProb - a.logProb || a.id - b.id);
        candidates.push(...scored.slice(0, o.beams));
      }
      candidates.sort((a, b) => b.logProb - a.logProb || a.id - b.id);
      const children: { beam: Beam; id: number; logProb: number; constraint: TokenConstraint }[] = [];
      for (const c of candidates.slice(0, o.beams)) {
        if (!o.perToken && best && c.logProb <= best.logProb) break;
        const constraint = c.beam.constraint.fork();
        if (!constraint.accept(c.id))
          finish({ ids: c.beam.ids, logProb: c.logProb, finishReason: "stop" }, true);
        else if (c.beam.ids.length + 1 >= o.maxTokens)
          finish({ ids: [...c.beam.ids, c.id], logProb: c.logProb, finishReason: "length" }, false);
        else children.push({ ...c, constraint });
      }
      const pending = new Map<Beam, number>();
      for (const c of children) pending.set(c.beam, (pending.get(c.beam) ?? 0) + 1);
      const next: Beam[] = [];
      const reused = new Set<Beam>();
      for (const c of children) {
        // The last child of a beam takes its session over; the others copy the cache first.
        const left = pending.get(c.beam)! - 1;
        pending.set(c.beam, left);
        const session = left > 0 ? c.beam.session.fork() : c.beam.session;
        if (left === 0) reused.add(c.beam);
        const ids = [...c.beam.ids, c.id];
        next.push({
          session,
          constraint: c.constraint,
          logits: session.append([c.id]),
          ids,
          logProb: c.logProb,
        });
      }
      for (const beam of live) if (!reused.has(beam)) beam.session.dispose();
      live = next;
      if (best && !o.perToken) {
        const bar = best.logProb;
        for (const beam of live) if (beam.logProb <= bar) beam.session.dispose();
        live = live.filter((b) => b.logProb > bar);
      }
    }
  } finally {
    for (const beam of live) beam.session.dispose();
  }
  if (!best) throw new ToolgenError("invalid_option", "beam search ended without a complete value");
  return best;
}
