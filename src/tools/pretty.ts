/**
 * JSON with two-space indentation, like Python's `json.dumps(indent=2)`, except that arrays of scalars
 * stay on one line (`"required": ["a", "b"]`), the way HF's docs print tool schemas.
 */
export function prettyJson(value: unknown, indent = ""): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  const next = indent + "  ";
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    if (value.every((v) => v === null || typeof v !== "object"))
      return `[${value.map((v) => JSON.stringify(v)).join(", ")}]`;
    return `[\n${value.map((v) => next + prettyJson(v, next)).join(",\n")}\n${indent}]`;
  }
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return "{}";
  return `{\n${entries.map(([k, v]) => `${next}${JSON.stringify(k)}: ${prettyJson(v, next)}`).join(",\n")}\n${indent}}`;
}
