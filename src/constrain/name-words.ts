/**
 * The words of a property's name, lower case, that may stand beside its value in a question: "weight_kg" →
 * weight, kg; "toZone" → to, zone; "seed" → seed. A one-part name needs three letters ("a", "n" and "x" are
 * words or nothing).
 */
export function nameWords(name: string | undefined): string[] {
  if (!name) return [];
  const parts = name
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((w) => w.length > 0);
  return parts.length > 1 ? parts : parts.filter((w) => w.length >= 3);
}
