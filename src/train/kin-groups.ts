/**
 * The argument scorer's groups for x[49] (kin values, src/models/factored/kin-values.ts): from questions that call
 * two or more functions, each function's first call's parameters scored over the whole question with the values
 * the other functions' gold calls give kin parameters, as decoding reads them from a first decoding. Only groups
 * where some candidate is such a value: the others carry nothing for x[49], the one weight that learns on them.
 */
import { blockOf, NULL_BLOCK } from "../models/factored/decide.ts";
import {
  familyOf,
  functionView,
  nullFeatures,
  pairFeatures,
  questionView,
  type WordStats,
} from "../models/factored/features.ts";
import { KIN_VALUE_FEATURE, kinTakenValues } from "../models/factored/kin-values.ts";
import type { SoftmaxGroup } from "../models/factored/linear.ts";
import type { Rng } from "../nn/rng.ts";
import type { CallerExample } from "./caller-data.ts";

export function kinValueGroups(
  examples: readonly CallerExample[],
  stats: WordStats,
  joiners: ReadonlySet<string>,
  o: { negatives: number; rng: Rng; kin: boolean; same: (a: unknown, b: unknown) => boolean },
): SoftmaxGroup[] {
  const groups: SoftmaxGroup[] = [];
  for (const e of examples) {
    const names = [...new Set(e.calls.map((c) => c.name))];
    const tools = names.map((n) => e.tools.find((t) => t.function.name === n));
    if (names.length < 2 || tools.some((t) => t === undefined)) continue;
    const view = questionView(e.question, joiners, true, true, o.kin);
    const firsts = names.map((n) => e.calls.find((c) => c.name === n)!.arguments);
    const plain = tools.map((t) => functionView(t!, view, stats));
    const taken = kinTakenValues(
      plain.map((f) => ({
        name: f.tool.function.name,
        params: f.params.map((p) => ({ name: p.name, nameStems: p.nameStems, family: familyOf(p.kind) })),
      })),
      firsts,
    );
    tools.forEach((t, i) => {
      const own = taken.get(names[i]!);
      if (!own) return;
      const f = functionView(t!, view, stats, own);
      for (const p of f.params) {
        if (!own.has(p.name)) continue;
        const gold = firsts[i]![p.name];
        const xs = p.candidates.map((c) => pairFeatures(f, p, c));
        const marked = xs.flatMap((x, k) => (x[KIN_VALUE_FEATURE] !== 0 ? [k] : []));
        if (marked.length === 0) continue;
        const matches =
          gold === undefined ? [] : p.candidates.flatMap((c, k) => (o.same(c.value, gold) ? [k] : []));
        if (gold !== undefined && matches.length === 0) continue;
        const others = p.candidates
          .map((_, k) => k)
          .filter((k) => !matches.includes(k) && !marked.includes(k));
        for (let k = others.length - 1; k > 0; k--) {
          const r = o.rng.int(k + 1);
          [others[k], others[r]] = [others[r]!, others[k]!];
        }
        const keep = [
          ...matches,
          ...marked.filter((k) => !matches.includes(k)),
          ...others.slice(0, o.negatives),
        ];
        const items = keep.map((k) => ({ block: blockOf(p.candidates[k]!), x: xs[k]! }));
        items.push({ block: NULL_BLOCK, x: nullFeatures(f, p) });
        groups.push({ items, gold: gold === undefined ? [items.length - 1] : matches.map((_, k) => k) });
      }
    });
  }
  return groups;
}
