/**
 * How the demo's benches and tests decide that an answer is right: it states the expected result. A question
 * of the hand-written set (src/demo/held-out/handwritten.json) carries the real output of the call a person would
 * expect (`answer`) and the part of it that is the result (`key`, what follows the last " = " or ": ").
 * An answer is correct when it is that output, or when its own result part is the key (numbers within a
 * relative 1e-4, so "gcd(36, 48) = 12" answers "gcd of 48 and 36" as well as "gcd(48, 36) = 12" does).
 * A call is the expected one when its tool is and its arguments are, an enum name read as the value it stands for
 * ("miles" is "mi": ./tools/names.ts).
 */
import type { Tool } from "../tools/types.ts";
import { valueNamed, valuesOf } from "./tools/names.ts";

export interface HandwrittenQuestion {
  question: string;
  tool: string;
  arguments: Record<string, unknown>;
  answer: string;
  key: string;
}

export interface HandwrittenSet {
  about: string;
  questions: HandwrittenQuestion[];
  offTopic: string[];
}

const squash = (s: string) => s.replace(/\s+/g, " ").trim();

/** The result part of a tool's output or an answer: after the last " = ", else after the last ": ", else all. */
export function resultPart(text: string): string {
  const eq = text.lastIndexOf(" = ");
  if (eq >= 0) return text.slice(eq + 3);
  const colon = text.lastIndexOf(": ");
  return colon >= 0 ? text.slice(colon + 2) : text;
}

const LEADING_NUMBER = /^-?\d+(?:\.\d+)?/;

export function isCorrectAnswer(answer: string | null, expected: { answer: string; key: string }): boolean {
  if (answer === null) return false;
  if (squash(answer) === squash(expected.answer)) return true;
  const got = squash(resultPart(answer));
  const key = squash(expected.key);
  if (got === key) return true;
  const k = LEADING_NUMBER.exec(key);
  const g = LEADING_NUMBER.exec(got);
  if (!k || !g) return false;
  const [want, have] = [Number(k[0]), Number(g[0])];
  const close = Math.abs(want - have) <= 1e-4 * Math.max(1, Math.abs(want));
  return close && squash(got.slice(g[0].length)) === squash(key.slice(k[0].length));
}

/** Is `got` the call `want` makes: the same tool, the same arguments once enum names are read as their values? */
export function isSameCall(
  tools: readonly Tool[],
  got: { tool: string; arguments: unknown } | undefined,
  want: { tool: string; arguments: Record<string, unknown> },
): boolean {
  if (got?.tool !== want.tool) return false;
  const tool = tools.find((t) => t.name === want.tool);
  const read = (args: unknown) => {
    if (typeof args !== "object" || args === null) return args;
    const out: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(args)) {
      const names = tool?.parameters.properties[name]?.enum;
      out[name] =
        typeof value === "string" && names?.includes(value)
          ? valueNamed(value, valuesOf(names.map(String)))
          : value;
    }
    return out;
  };
  return JSON.stringify(read(got.arguments)) === JSON.stringify(read(want.arguments));
}
