/**
 * Dates the way people type them, for the demo's calendar tools: ISO (2024-03-15, 2024/03/15), numeric with
 * slashes or dots (15/03/2024, 3/15/2024, 15.03.2024) and with month names in any order ("March 15th, 2024",
 * "15 March 2024", "Mar 15 2024", "the 15th of March 2024"). A numeric date whose first two numbers could both
 * be the month (01/02/2024) is read month first, as in the United States.
 */
export const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
] as const;

function monthOf(word: string): number | undefined {
  const w = word.toLowerCase().replace(/\.$/, "");
  if (w.length < 3) return undefined;
  const i = MONTHS.findIndex((m) => m === w || m.startsWith(w) || (w === "sept" && m === "september"));
  return i >= 0 ? i + 1 : undefined;
}

function utc(year: number, month: number, day: number): Date | undefined {
  const d = new Date(Date.UTC(year, month - 1, day));
  if (year < 100) d.setUTCFullYear(year);
  const ok = d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
  return ok ? d : undefined;
}

/** The calendar date a text names (at 00:00 UTC), or undefined when it is not one of the forms above. */
export function parseDateText(text: string): Date | undefined {
  const t = text.trim();
  let m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(t);
  if (m) return utc(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(t);
  if (m) {
    const [a, b, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
    const dayFirst = t.includes(".") || a > 12;
    return dayFirst ? utc(y, b, a) : utc(y, a, b);
  }
  const words = t
    .replace(/,/g, " ")
    .split(/\s+/)
    .filter((w) => w !== "" && !/^(the|of)$/i.test(w));
  let month: number | undefined;
  let day: number | undefined;
  let year: number | undefined;
  for (const w of words) {
    const num = /^(\d{1,4})(st|nd|rd|th)?$/i.exec(w);
    if (num) {
      const n = Number(num[1]);
      if (num[1]!.length === 4 && year === undefined) year = n;
      else if (day === undefined && n >= 1 && n <= 31) day = n;
      else return undefined;
      continue;
    }
    const mo = monthOf(w);
    if (mo === undefined || month !== undefined) return undefined;
    month = mo;
  }
  if (month === undefined || day === undefined || year === undefined) return undefined;
  return utc(year, month, day);
}

export function isoDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** The date a text names; a clear error when it names none. */
export function parseDate(text: string): Date {
  const d = parseDateText(text);
  if (!d) {
    throw new Error(`expected a date such as 2024-03-15 or March 15, 2024, got ${JSON.stringify(text)}`);
  }
  return d;
}
