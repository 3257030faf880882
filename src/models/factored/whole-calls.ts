/**
 * Whole calls: a call that lacks a required argument is no call the schema allows. With several functions called,
 * such a call is mostly a function the question does not ask for, read from the words it shares with one it does
 * ("Find the area and perimeter of a circle" gave rectangle.calculate_perimeter with its breadth alone beside the
 * circle's calls): it is dropped where another call is made. Where it would be the only call it stays unless
 * `always` (then the caller declines). Reads the schema's required list only.
 */

export interface Call {
  name: string;
  arguments: Record<string, unknown>;
}

/** `calls` per function, each function's calls lacking none of `required[i]`; unchanged where none would be left (unless `always`). */
export function wholeCalls(calls: readonly (readonly Call[])[], required: readonly (readonly string[])[], always = false): Call[][] {
  const whole = calls.map((cs, i) => cs.filter((c) => required[i]!.every((name) => name in c.arguments)));
  return always || whole.some((cs) => cs.length > 0) ? whole : calls.map((cs) => [...cs]);
}
