/** A name as words: "colisId" → "colis id", "get_area" → "get area", "triangle_properties.get" → … */
export function nameWords(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .replace(/[_.\-/:]+/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();
}
