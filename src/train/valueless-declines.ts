import type { JsonSchema } from "../tools/types.ts";
import type { CallerExample } from "./caller-data.ts";

/**
 * Declines on the offered function's own topic: a one-call question asked again with its required values cut
 * out ("the current through a wire with voltage and resistance"), the same functions offered, and no call as the
 * answer. Synth's other declines are small talk or questions for tools not offered, whose words the offered
 * functions seldom share; these teach the call gate that a question about a function's topic still declines when
 * it gives none of the values the function needs (a real request lacking them: a function caller asks first).
 *
 * Only questions with a required number cut out, and no digit left after the cut, are used: that parameter then
 * has no candidate at all, which the gate reads (features.ts functionFeatures: fill, requiredShare). A string
 * parameter finds some span in any question, so its cut value leaves nothing the features can tell.
 */
export function valuelessDeclines(
  examples: readonly CallerExample[],
  share: number,
  seed: number,
): CallerExample[] {
  let state = seed >>> 0 || 1;
  const random = (): number => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  const out: CallerExample[] = [];
  for (const e of examples) {
    if (e.calls.length !== 1 || random() >= share) continue;
    const question = withoutRequiredValues(e);
    if (question !== undefined) out.push({ tools: e.tools, question, calls: [] });
  }
  return out;
}

/** The question with every required value of its one call cut out, or undefined when this does not apply. */
export function withoutRequiredValues(e: CallerExample): string | undefined {
  const call = e.calls[0];
  const tool = call && e.tools.find((t) => t.function.name === call.name);
  if (!call || !tool) return undefined;
  const schema = (tool.function.parameters ?? {}) as JsonSchema & { required?: unknown };
  const required = Array.isArray(schema.required)
    ? schema.required.filter((r): r is string => typeof r === "string")
    : [];
  const values = required.filter((r) => r in call.arguments).map((r) => call.arguments[r]);
  if (!values.some((v) => typeof v === "number")) return undefined;
  const texts = values
    .flatMap((v) => (Array.isArray(v) ? v : [v]))
    .map((v) => (typeof v === "string" || typeof v === "number" ? String(v) : ""))
    .sort((a, b) => b.length - a.length);
  let q = e.question;
  for (const t of texts) {
    const i = t === "" ? -1 : q.toLowerCase().indexOf(t.toLowerCase());
    // a value written otherwise than drawn (a number in words, a date reformatted): the cut would leave it in
    if (i < 0) return undefined;
    q = `${q.slice(0, i)} ${q.slice(i + t.length)}`;
  }
  if (/\d/.test(q)) return undefined;
  q = q
    // quote marks left around a cut value
    .replace(/["'“‘`]\s*["'”’`]/gu, " ")
    .replace(/\s+([,.?!])/g, "$1")
    .replace(/([,])(?:\s*,)+/g, "$1")
    .replace(/\s+/g, " ")
    .trim();
  return q === "" ? undefined : q;
}
