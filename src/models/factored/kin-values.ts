/**
 * Kin values: with several functions called, the values each called function's first call gives to a parameter
 * of the same value family sharing a name word with this one ("city" of city_name and of city): a value said once
 * may serve two calls ("the weather and the hotels, both in Lisbon"). features.ts x[49] reads whether a span is
 * such a value; its weight is learnt (a pass over synth's multi-call questions, train/kin-groups.ts), no word list.
 * Decoding reads it with the calls a first decoding made (decide.ts), training with the gold calls.
 */

/** What kinTakenValues reads of a parameter: its name, its name's stems and its value family (features.ts familyOf). */
export interface KinParam {
  name: string;
  nameStems: ReadonlySet<string>;
  family: string;
}

/** The pair feature that reads kin values. */
export const KIN_VALUE_FEATURE = 49;

/** Per function name, per parameter name: the values kin parameters of the other functions' first calls take. */
export type KinTaken = ReadonlyMap<string, ReadonlyMap<string, readonly unknown[]>>;

const scalar = (v: unknown): string | undefined =>
  typeof v === "string"
    ? v.trim().replace(/\s+/g, " ").toLowerCase()
    : typeof v === "number" && Number.isFinite(v)
      ? String(v)
      : undefined;

/** Is `value` one of `taken` (texts without case or extra spaces, numbers by value; lists and objects never)? */
export function takenValue(value: unknown, taken: readonly unknown[]): boolean {
  const v = scalar(value);
  return v !== undefined && v !== "" && taken.some((t) => scalar(t) === v);
}

const kin = (p: KinParam, q: KinParam): boolean =>
  p.family === q.family && [...p.nameStems].some((s) => s !== "" && q.nameStems.has(s));

/**
 * `functions[i]`'s parameters and `firstCalls[i]` (the arguments of its first call, undefined where none): for each
 * function, each parameter with a kin parameter in another function that holds a value, those values.
 */
export function kinTakenValues(
  functions: readonly { name: string; params: readonly KinParam[] }[],
  firstCalls: readonly (Record<string, unknown> | undefined)[],
): KinTaken {
  const out = new Map<string, Map<string, unknown[]>>();
  functions.forEach((f, i) => {
    for (const p of f.params) {
      const values: unknown[] = [];
      functions.forEach((g, j) => {
        const args = firstCalls[j];
        if (j === i || g.name === f.name || !args) return;
        for (const q of g.params) if (args[q.name] !== undefined && kin(p, q)) values.push(args[q.name]);
      });
      if (values.length === 0) continue;
      const own = out.get(f.name) ?? new Map<string, unknown[]>();
      own.set(p.name, values);
      out.set(f.name, own);
    }
  });
  return out;
}
