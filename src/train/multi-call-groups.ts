/**
 * The argument scorer's training groups from questions that call several functions (issue 38, h38m): each called
 * function's parameters scored over the whole question, as decoding meets them, its own gold values the answer and
 * the other calls' values kept among the wrong ones (the hard negatives: the one-call questions hold none). With
 * `segments`, the pair features carry segment features (segment-features.ts) read as decoding reads them: the
 * segments and mentions of decide.ts callOwners / callMentions with default options, the spans the other calls take
 * being their gold values (decoding: the values they take first).
 */
import type { Candidate } from "../models/factored/candidates.ts";
import {
  blockOf,
  callMentions,
  callOwners,
  NULL_BLOCK,
  type ScoredFunction,
} from "../models/factored/decide.ts";
import {
  functionView,
  nullFeatures,
  pairFeatures,
  questionView,
  type WordStats,
} from "../models/factored/features.ts";
import type { SoftmaxGroup } from "../models/factored/linear.ts";
import { withSegmentFeatures } from "../models/factored/segment-features.ts";
import type { Rng } from "../nn/rng.ts";
import type { CallerExample } from "./caller-data.ts";
import { sameValue } from "./same-value.ts";

export interface MultiCallGroupOptions {
  /** Most wrong candidates kept per parameter beside the other calls' values (as the one-call groups' negatives). */
  negatives: number;
  rng: Rng;
  /** Pair features read with segment features (segment-features.ts). */
  segments: boolean;
  /** Read another parameter's name as a cue only within the span's family (features.ts kinNames). */
  kin?: boolean;
  /** Only candidates in the call's own segment (as decoding assigns them), none outside it (default false). */
  ownSegment?: boolean;
  /** Pair (and segment) features zeroed (FactoredTrainOptions.dropPairFeatures). */
  drop?: readonly number[];
}

/** Groups of questions whose calls name two or more functions; other questions give none. */
export function multiCallGroups(
  examples: readonly CallerExample[],
  stats: WordStats,
  joiners: ReadonlySet<string>,
  o: MultiCallGroupOptions,
): SoftmaxGroup[] {
  const groups: SoftmaxGroup[] = [];
  for (const e of examples) {
    const names = [...new Set(e.calls.map((c) => c.name))];
    const tools = names.map((n) => e.tools.find((t) => t.function.name === n));
    if (names.length < 2 || tools.some((t) => t === undefined)) continue;
    const view = questionView(e.question, joiners, true, true, o.kin ?? false);
    const chosen: ScoredFunction[] = tools.map((t) => ({
      view: functionView(t!, view, stats),
      params: [],
      features: new Float32Array(0),
    }));
    const owner = callOwners(chosen);
    const mentions = owner ? callMentions(chosen) : [];
    const mine = (i: number) => (c: Candidate) =>
      owner === undefined || owner[0] === -1 || c.start < 0 || owner[c.start] === i;
    // each function's gold candidates, those in its own segment where it writes them there
    const golds = chosen.map((s, i) =>
      s.view.params.map((p) => {
        const values = e.calls.filter((c) => c.name === names[i]).map((c) => c.arguments[p.name]);
        if (values.every((v) => v === undefined)) return { values, at: [] as number[] };
        const at = p.candidates.flatMap((c, k) =>
          values.some((v) => v !== undefined && sameValue(c.value, v)) ? [k] : [],
        );
        const inside = at.filter((k) => mine(i)(p.candidates[k]!));
        // ownSegment: a gold value written only outside its segment makes no group (decoding would not look there)
        return { values, at: inside.length > 0 || o.ownSegment ? inside : at };
      }),
    );
    const spans = chosen.map((s, i) =>
      s.view.params.flatMap((p, j) =>
        golds[i]![j]!.at.map((k) => p.candidates[k]!)
          .filter((c) => c.start >= 0)
          .map((c): [number, number] => [c.start, c.end]),
      ),
    );
    chosen.forEach((s, i) => {
      const f = s.view;
      const taken = spans.flatMap((r, j) => (j === i ? [] : r));
      const context = { owner, index: i, mentionAt: mentions[i] ?? -1, taken };
      f.params.forEach((p, j) => {
        const { values, at } = golds[i]![j]!;
        // a parameter some of its calls fill and others leave out, or a gold value no candidate writes: no group
        const some = values.some((v) => v !== undefined);
        if ((some && values.some((v) => v === undefined)) || (some && at.length === 0)) return;
        const overTaken = (c: Candidate) => c.start >= 0 && taken.some(([a, b]) => c.start < b && a < c.end);
        const rest = p.candidates
          .map((_, k) => k)
          .filter((k) => !at.includes(k) && (!o.ownSegment || mine(i)(p.candidates[k]!)));
        const hard = rest.filter((k) => overTaken(p.candidates[k]!));
        const others = rest.filter((k) => !overTaken(p.candidates[k]!));
        for (let k = others.length - 1; k > 0; k--) {
          const r = o.rng.int(k + 1);
          [others[k], others[r]] = [others[r]!, others[k]!];
        }
        const keep = [...at, ...hard, ...others.slice(0, o.negatives)];
        const items = keep.map((k) => {
          const c = p.candidates[k]!;
          const pair = pairFeatures(f, p, c);
          const x = o.segments ? withSegmentFeatures(pair, c, context) : pair;
          for (const d of o.drop ?? []) if (d < x.length) x[d] = 0;
          return { block: blockOf(c), x };
        });
        items.push({ block: NULL_BLOCK, x: nullFeatures(f, p) });
        groups.push({ items, gold: some ? at.map((_, k) => k) : [items.length - 1] });
      });
    });
  }
  return groups;
}
