import { CLAUSE_LEADS, CLAUSE_LINKS, VALUE_PREPOSITIONS } from "./english.ts";
import type { SynthRng } from "./rng.ts";
import { nameWords } from "./words.ts";

const escape = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * A question rewritten as people write values: some "<clause words> <parameter name> <value>" clauses
 * ("with city Lisbon", "where start date is 2024-01-02") become "<preposition> <value>" ("in Lisbon"), so
 * that a value is told by where it sits and what it looks like, not only by its parameter's name beside it.
 * Each scalar argument is rewritten with chance `share`; undefined when none was. Training data for a
 * caller (scripts/build-factored-caller.ts); `toolgen synth`'s own questions are unchanged.
 */
export function plainPhrasing(
  question: string,
  args: Readonly<Record<string, unknown>>,
  rng: SynthRng,
  share = 0.5,
): string | undefined {
  let q = question;
  const lead = `(?:(?:${CLAUSE_LEADS.join("|")})\\s+)?`;
  const link = `(?:\\s+(?:${CLAUSE_LINKS.join("|")}))?`;
  for (const [name, v] of Object.entries(args)) {
    if ((typeof v !== "string" && typeof v !== "number") || !rng.chance(share)) continue;
    const words = escape(nameWords(name)).replace(/ /g, "\\s+");
    if (words === "") continue;
    const pattern = new RegExp(
      `\\b${lead}${words}${link}\\s*[:=]?\\s*(?=["'\u201c]?${escape(String(v))})`,
      "iu",
    );
    const next = q.replace(pattern, `${rng.pick(VALUE_PREPOSITIONS)} `);
    q = next;
  }
  return q === question ? undefined : q;
}
