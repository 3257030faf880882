import { numberWords } from "../../src/demo/surface.ts";

// An independent reading of "the value appears in the question" (the demo's number words, not the generator's).
const MONTHS = "january february march april may june july august september october november december".split(
  " ",
);

function squash(text: string): string {
  return text.replace(/\s+/g, " ");
}

/** Why a leaf value does not appear in the question, or undefined when it does. */
export function missingValue(question: string, value: unknown): string | undefined {
  const q = squash(question);
  if (Array.isArray(value)) return value.map((v) => missingValue(q, v)).find((m) => m !== undefined);
  if (value !== null && typeof value === "object")
    return Object.values(value)
      .map((v) => missingValue(q, v))
      .find((m) => m !== undefined);
  if (typeof value === "boolean") return /\b(true|false|yes|no)\b/i.test(q) ? undefined : `boolean ${value}`;
  if (typeof value === "number") {
    const forms = [String(value), value.toLocaleString("en-US"), numberWords(value), numberWords(value, " ")];
    return forms.some((f) => f !== undefined && q.toLowerCase().includes(f)) ? undefined : `number ${value}`;
  }
  if (typeof value === "string") {
    const date = /^(\d{4})-(\d{2})-(\d{2})(T(\d{2}):(\d{2}))?/.exec(value);
    if (date) {
      const [, y, m, d] = date;
      const month = MONTHS[Number(m) - 1]!;
      const monthShown =
        q.includes(`${y}-${m}-${d}`) ||
        q.toLowerCase().includes(month.slice(0, 3)) ||
        q.includes(`${Number(m)}/`) ||
        q.includes(`/${Number(m)}/`);
      return q.includes(y!) && monthShown && q.includes(String(Number(d))) ? undefined : `date ${value}`;
    }
    return q.includes(squash(value)) ? undefined : `string ${JSON.stringify(value)}`;
  }
  return undefined;
}
