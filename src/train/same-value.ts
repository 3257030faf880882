/** Argument values compared as a call's checker compares them: strings without case or extra spaces, keys in any order. */

export const norm = (v: unknown): unknown => {
  if (typeof v === "string") return v.trim().toLowerCase().replace(/\s+/g, " ");
  if (Array.isArray(v)) return v.map(norm);
  if (v !== null && typeof v === "object")
    return Object.fromEntries(
      Object.entries(v)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, x]) => [k, norm(x)]),
    );
  return v;
};

/** Do two argument values agree (strings without case or extra spaces, numbers by value, lists item by item)? */
export function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(norm(a)) === JSON.stringify(norm(b));
}
