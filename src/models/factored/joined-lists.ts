/**
 * One list, not one call per item: "Find the high and low temperatures, humidity, and precipitation for London"
 * gave three calls of one item each. Where a list parameter is the only parameter holding several values, and each
 * of its values is a list joined to the one before (commas and learnt joiner words, decide.ts linkOf), the question
 * states one list: its values join into one, and one call takes it. Where another parameter holds several values too
 * ("Apple, Microsoft and Amazon over 1, 2 and 3 weeks respectively") the calls stay. Reads where the values stand
 * only (DecideOptions.joinedLists).
 */

/** A list value with its place in the question. */
export interface ListValue {
  value: unknown;
  start: number;
  end: number;
  items?: [number, number][];
}

/** The values joined into one list, or undefined where some value is no list or some pair is not joined. */
export function joinedList<T extends ListValue>(values: readonly T[], joined: (a: T, b: T) => boolean): T | undefined {
  if (values.length < 2 || !values.every((v) => Array.isArray(v.value))) return undefined;
  for (let i = 1; i < values.length; i++) if (!joined(values[i - 1]!, values[i]!)) return undefined;
  return {
    ...values[0]!,
    value: values.flatMap((v) => v.value as unknown[]),
    end: values.at(-1)!.end,
    items: values.flatMap((v) => v.items ?? (v.start >= 0 ? [[v.start, v.end] as [number, number]] : [])),
  };
}
