/**
 * Learns the role-word table (src/models/factored/role-words.ts) from labelled training questions: for each
 * parameter-name stem s and each context w (the token just before a gold value's span; separately the one just
 * after), the count of (s, w) at gold values against the share q(w) of w beside any token of the questions (where
 * any candidate span may start or end), as a log-odds smoothed toward no evidence (additive, in proportion to q)
 *   log((n(s,w) + a q(w)) / (n(s) + a)) - log q(w),   q(w) = (m(w) + 1) / (m + V),
 * kept only for pairs seen at least `minCount` times: a stem seen with few values keeps its pairs near 0. Function words are not listed: a word beside every kind of
 * value ("the") gets a log-odds near 0 from the counts alone. A parameter's own name word beside its value gets no
 * entry (x[2] reads it).
 */
import { roleContext, roleKey, type RoleWordTable } from "../models/factored/role-words.ts";
import { nameWords, stemOf, tokenize, type QToken } from "../models/factored/text.ts";
import type { CallerExample } from "./caller-data.ts";

export interface RoleWordOptions {
  /** Fewest gold values a (stem, context) pair needs to be kept (default 5). */
  minCount?: number;
  /** The smoothing a: pseudo-values spread as the background spreads (default 10). */
  smoothing?: number;
  /** Log-odds clipped to ±this (default 4). */
  clip?: number;
  /** Pairs whose log-odds is below this are left out (default -clip: none): 0 keeps only words that speak for a parameter. */
  floor?: number;
  /**
   * What a pair is set against: "tokens" (default) the word beside any token, so a word that marks values of every
   * kind (synth's "=", "using") counts for every parameter; "values" the word beside any parameter's gold values, so
   * only what tells one parameter's values from another's (a role) counts.
   */
  baseline?: "tokens" | "values";
}

/** A source of questions and how much each counts (written questions may count more than synth's many). */
export interface RoleWordSource {
  examples: readonly CallerExample[];
  weight: number;
}

const SIDES = ["before", "after"] as const;

/** The token range [start, end) that writes `value` (case aside, at token edges), or undefined. */
export function valueSpan(
  question: string,
  tokens: readonly QToken[],
  value: string,
): [number, number] | undefined {
  if (value === "") return undefined;
  const lower = question.toLowerCase();
  const v = value.toLowerCase();
  for (let i = lower.indexOf(v); i >= 0; i = lower.indexOf(v, i + 1)) {
    const start = tokens.findIndex((t) => t.start === i);
    const last = tokens.findIndex((t) => t.end === i + v.length);
    if (start >= 0 && last >= start) return [start, last + 1];
  }
  return undefined;
}

/** Each call's plain values (strings, numbers, and the items of lists of them) with their parameter's name stems. */
function goldValues(e: CallerExample): { stems: string[]; text: string }[] {
  const out: { stems: string[]; text: string }[] = [];
  for (const c of e.calls)
    for (const [name, v] of Object.entries(c.arguments)) {
      const stems = [...new Set(nameWords(name).map(stemOf))].filter((s) => s !== "");
      for (const item of Array.isArray(v) ? v : [v])
        if (typeof item === "string" || typeof item === "number") out.push({ stems, text: String(item) });
    }
  return out;
}

export function learnRoleWords(sources: readonly RoleWordSource[], o: RoleWordOptions = {}): RoleWordTable {
  const minCount = o.minCount ?? 5;
  const a = o.smoothing ?? 10;
  const clip = o.clip ?? 4;
  const byValues = o.baseline === "values";
  const table: RoleWordTable = { before: {}, after: {} };
  for (const side of SIDES) {
    const pair = new Map<string, number>();
    const perStem = new Map<string, number>();
    const background = new Map<string, number>();
    let all = 0;
    for (const { examples, weight } of sources) {
      // each question once per source (synth offers some again with other functions, to decline)
      const seen = new Set<string>();
      for (const e of examples) {
        const tokens = tokenize(e.question);
        if (!byValues && !seen.has(e.question)) {
          seen.add(e.question);
          tokens.forEach((t, k) => {
            if (t.kind === "punct") return;
            const w = roleContext(tokens, k, k + 1, side);
            if (w === undefined) return;
            background.set(w, (background.get(w) ?? 0) + weight);
            all += weight;
          });
        }
        for (const g of goldValues(e)) {
          const span = valueSpan(e.question, tokens, g.text);
          const w = span && roleContext(tokens, span[0], span[1], side);
          if (w === undefined) continue;
          if (byValues) {
            background.set(w, (background.get(w) ?? 0) + weight);
            all += weight;
          }
          for (const s of g.stems) {
            perStem.set(s, (perStem.get(s) ?? 0) + weight);
            if (!g.stems.includes(w)) pair.set(roleKey(s, w), (pair.get(roleKey(s, w)) ?? 0) + weight);
          }
        }
      }
    }
    const vocabulary = background.size;
    for (const [key, n] of [...pair].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))) {
      if (n < minCount) continue;
      const [s, w] = [key.slice(0, key.indexOf(" ")), key.slice(key.indexOf(" ") + 1)];
      const q = ((background.get(w) ?? 0) + 1) / (all + vocabulary);
      const odds = Math.log((n + a * q) / (perStem.get(s)! + a)) - Math.log(q);
      if (odds < (o.floor ?? -clip)) continue;
      table[side][key] = Math.round(Math.max(-clip, Math.min(clip, odds)) * 1000) / 1000;
    }
  }
  return table;
}
