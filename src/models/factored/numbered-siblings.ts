/**
 * Numbered siblings: parameters named alike but for a number (species1 and species2, team_1 and team_2) each take
 * one thing of a kind. Where one of them holds a list of exactly as many values joined one to the next (by commas or
 * learnt joiner words, or in the same frame: "Apple and Samsung", "a human and a chimp"), that list is one value per sibling, dealt in question order to the siblings in the
 * order of their numbers: not several calls of one function with the other sibling repeating a weaker value. Reads
 * the schema's parameter names and types only (DecideOptions.siblings; false for the ablation).
 */

/** Groups of parameter indices named alike but for their digits (two or more each, ordered by their numbers). */
export function siblingGroups(params: readonly { name: string; type: string }[]): number[][] {
  const byStem = new Map<string, number[]>();
  params.forEach((p, i) => {
    if (!/\d/.test(p.name)) return;
    const key = `${p.type}:${p.name.replace(/\d+/g, "#")}`;
    byStem.set(key, [...(byStem.get(key) ?? []), i]);
  });
  const number = (i: number) => Number(params[i]!.name.match(/\d+/)![0]);
  return [...byStem.values()].filter((g) => g.length > 1).map((g) => [...g].sort((a, b) => number(a) - number(b)));
}

/**
 * For one group of siblings (their values each, undefined where empty), the values dealt one per sibling, or
 * undefined where no sibling holds a joined list of exactly as many values (or more than one does).
 */
export function dealSiblings<V>(values: readonly (readonly V[] | undefined)[], joined: (a: V, b: V) => boolean): V[][] | undefined {
  const lists = values.filter((v): v is readonly V[] => v !== undefined && v.length === values.length && v.every((x, i) => i === 0 || joined(v[i - 1]!, x)));
  if (lists.length !== 1) return undefined;
  return lists[0]!.map((v) => [v]);
}
