import { ToolgenError } from "../errors.ts";

/** Thrown when a tool's return value cannot be written as JSON (circular, a function, a symbol). */
export class UnserializableResultError extends ToolgenError {
  override name = "UnserializableResultError";
  constructor(message: string, options?: { cause?: unknown }) {
    super("unserializable_result", message, options);
  }
}

/**
 * LangChain4j's return rules: void/undefined → "success", a string as is, anything else → JSON.
 * BigInt → decimal string, Date → ISO string, Map → object (or [key, value] pairs when keys are not
 * strings), Set → array, typed arrays → arrays. A circular value is a clear error naming where it loops.
 */
export function resultToContent(value: unknown): string {
  if (value === undefined) return "success";
  if (typeof value === "string") return value;
  return JSON.stringify(toJsonValue(value, "$", []));
}

function toJsonValue(value: unknown, path: string, ancestors: object[]): unknown {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      return Number.isFinite(value) ? value : String(value);
    case "bigint":
      return value.toString();
    case "undefined":
      return null;
    case "function":
    case "symbol":
      throw new UnserializableResultError(
        `tool result at ${path} is a ${typeof value}, which has no JSON form`,
      );
  }
  if (value === null) return null;
  const obj = value as object;
  if (ancestors.includes(obj))
    throw new UnserializableResultError(`tool result is circular: ${path} refers back to an enclosing value`);
  if (obj instanceof Date) return Number.isNaN(obj.getTime()) ? null : obj.toISOString();
  const inner = [...ancestors, obj];
  if (obj instanceof Map) {
    const entries = [...obj.entries()];
    if (entries.every(([k]) => typeof k === "string")) {
      return Object.fromEntries(entries.map(([k, v]) => [k, toJsonValue(v, `${path}.${String(k)}`, inner)]));
    }
    return entries.map(([k, v], i) => [
      toJsonValue(k, `${path}[${i}][0]`, inner),
      toJsonValue(v, `${path}[${i}][1]`, inner),
    ]);
  }
  if (obj instanceof Set) return [...obj].map((v, i) => toJsonValue(v, `${path}[${i}]`, inner));
  if (ArrayBuffer.isView(obj) && !(obj instanceof DataView))
    return Array.from(obj as unknown as ArrayLike<number | bigint>, (v) => toJsonValue(v, path, inner));
  if (Array.isArray(obj)) return obj.map((v, i) => toJsonValue(v, `${path}[${i}]`, inner));
  const withToJson = obj as { toJSON?: () => unknown };
  if (typeof withToJson.toJSON === "function") return toJsonValue(withToJson.toJSON(), path, inner);
  // A null prototype keeps a "__proto__" key as data instead of setting the prototype.
  const out: Record<string, unknown> = Object.create(null);
  for (const [k, v] of Object.entries(obj)) {
    if (v === undefined || typeof v === "function" || typeof v === "symbol") continue; // as JSON.stringify does
    out[k] = toJsonValue(v, `${path}.${k}`, inner);
  }
  return out;
}
