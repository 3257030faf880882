/**
 * Whether a value is a JSON object: not null, not an array. Parsed JSON, tool arguments, schemas and config
 * files are all checked with this one test. Like src/errors.ts it imports nothing, so any folder may use it.
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
