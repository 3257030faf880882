/**
 * The argument scorer's groups from labelled questions of any number of calls (people's written questions,
 * written-questions.ts): synth's one-call groups (factored-train.ts argumentGroups) read one request alone; here
 * a parameter's gold stands among the other requests' values, which are kept as its wrong spans (they are what
 * people's questions make it choose between: "Theft" a crime type, not a place). Read over the whole question,
 * as pseudo-labels.ts reads its groups.
 */
import { callSegments } from "../models/factored/decide.ts";
import type { Candidate } from "../models/factored/candidates.ts";
import { functionView, questionView, type WordStats } from "../models/factored/features.ts";
import type { SoftmaxGroup } from "../models/factored/linear.ts";
import type { RoleWordTable } from "../models/factored/role-words.ts";
import type { Rng } from "../nn/rng.ts";
import type { CallerExample } from "./caller-data.ts";
import { candidateRanges, labelledGroup } from "./labelled-groups.ts";
import { sameValue } from "./factored-train.ts";

export interface WrittenGroupOptions {
  /** Most wrong candidates kept per parameter beside the other functions' values. */
  negatives: number;
  rng: Rng;
  kin?: boolean;
  /** Pair features zeroed (FactoredTrainOptions.dropPairFeatures). */
  drop?: readonly number[];
  /**
   * With several functions called, each reads only its own segment of the question, as decoding cuts it
   * (callSegments; the whole question where some function is not mentioned). Default false: the whole question.
   */
  segments?: boolean;
  /** The learnt role-word table, read as decoding reads it (features.ts x[49], x[50]); default none. */
  roleWords?: RoleWordTable;
}

/**
 * One group per called function and parameter: gold every candidate writing a value some call of that function
 * gives the parameter (a function called for Oslo and Bergen has both as gold: the "more" model tells how many),
 * or leaving it out where no call gives one; the candidates over another function's values always kept as wrong,
 * and up to `negatives` others.
 */
export function writtenGroups(
  examples: readonly CallerExample[],
  stats: WordStats,
  joiners: ReadonlySet<string>,
  o: WrittenGroupOptions,
): SoftmaxGroup[] {
  const groups: SoftmaxGroup[] = [];
  for (const e of examples) {
    const view = { ...questionView(e.question, joiners, true, true, o.kin ?? false), roleWords: o.roleWords };
    const names = [...new Set(e.calls.map((c) => c.name))];
    const views = new Map(
      names.flatMap((n) => {
        const tool = e.tools.find((t) => t.function.name === n);
        return tool ? [[n, functionView(tool, view, stats)] as const] : [];
      }),
    );
    const valuesOf = (name: string, param: string): unknown[] =>
      e.calls
        .filter((c) => c.name === name && c.arguments[param] !== undefined)
        .map((c) => c.arguments[param]);
    const spansOf = (name: string): [number, number][] =>
      views
        .get(name)!
        .params.flatMap((p) =>
          p.candidates.filter((c) => valuesOf(name, p.name).some((v) => sameValue(c.value, v))),
        )
        .flatMap(candidateRanges);
    const owner =
      o.segments && views.size > 1
        ? callSegments(
            [...views.values()].map((view) => ({ view, params: [], features: new Float32Array(0) })),
          )
        : undefined;
    [...views.entries()].forEach(([name, f], i) => {
      const others = [...views.keys()].filter((n) => n !== name).flatMap(spansOf);
      const inside = (c: Candidate) =>
        owner === undefined || owner[0] === -1 || c.start < 0 || owner[c.start] === i;
      for (const p of f.params) {
        const values = valuesOf(name, p.name);
        const mine = p.candidates.flatMap((c, k) => (inside(c) ? [k] : []));
        const gold = mine.filter((k) => values.some((v) => sameValue(p.candidates[k]!.value, v)));
        if (values.length > 0 && gold.length === 0) continue; // a value no candidate writes: nothing to learn
        const rest = mine.filter((k) => !gold.includes(k));
        groups.push(labelledGroup(f, p, gold, rest, others, o));
      }
    });
  }
  return groups;
}
