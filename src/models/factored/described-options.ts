/**
 * Options a description lists in quotes: "The type of roots to return: 'real' for real roots, 'all' for both real
 * and complex roots." A text parameter whose description quotes two or more values has, in effect, those values
 * for members, though the schema declares no enum: the scorer reads them only as example words (features.ts
 * exampleStems) and gave "full historyof" for 'full', nothing for 'all', "at" for 'single'. With one call, where
 * the question writes exactly one of the quoted options as a whole word (any case), not inside another
 * parameter's value, and the parameter's value is none of them, the parameter takes that option as the
 * description writes it. Reads the schema's text and the question's written form only (DecideOptions.describedOptions).
 */

/** Quoted values of a description: 1 to 3 words each, no sentence inside, at least two distinct (else none). */
export function describedOptions(description: string): string[] {
  const out: string[] = [];
  for (const m of description.matchAll(/(?<![\p{L}\p{N}])'([^'\n]{1,30})'(?![\p{L}\p{N}])|"([^"\n]{1,30})"/gu)) {
    const v = (m[1] ?? m[2] ?? "").trim();
    if (v === "" || /[,.;:!?]\s/.test(v) || v.split(/\s+/).length > 3) continue;
    if (!out.some((o) => o.toLowerCase() === v.toLowerCase())) out.push(v);
  }
  return out.length >= 2 ? out : [];
}

/** Where the question writes `option` as a whole word or words (any case): character ranges. */
export function writtenAt(question: string, option: string): [number, number][] {
  const escaped = option.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const re = new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, "giu");
  return [...question.matchAll(re)].map((m) => [m.index, m.index + m[0].length] as [number, number]);
}

/**
 * The option a parameter takes: the one the question writes outside `spent` (character ranges of other values),
 * when exactly one is written and `current` is none of them; undefined otherwise.
 */
export function writtenOption(
  question: string,
  options: readonly string[],
  current: unknown,
  spent: readonly [number, number][],
): string | undefined {
  if (options.length < 2) return undefined;
  if (typeof current === "string" && options.some((o) => o.toLowerCase() === current.toLowerCase())) return undefined;
  const free = (r: [number, number]) => spent.every(([a, b]) => r[1] <= a || b <= r[0]);
  const written = options.filter((o) => writtenAt(question, o).some(free));
  return written.length === 1 ? written[0] : undefined;
}
