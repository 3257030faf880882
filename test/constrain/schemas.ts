/** Random JSON Schemas of the kinds the constrained decoders read (for property tests). */
import fc from "fast-check";
import type { JsonSchema } from "../../src/tools/types.ts";

const key = fc.oneof(
  fc.constantFrom("a", "b", "name", "value", "unit", "é", "日本", 'q"k', "b\\s", ""),
  fc.string({ maxLength: 4 }),
);
const text = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom("km", "Zürich", "😀", 'a"b', "\n"));
const scalar = fc.oneof(
  text,
  fc.integer({ min: -1000, max: 1000 }),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }),
  fc.boolean(),
  fc.constant(null),
);

const bound = fc.oneof(fc.integer({ min: -300, max: 300 }), fc.double({ min: -50, max: 50, noNaN: true }));
const numberSchema: fc.Arbitrary<JsonSchema> = fc
  .record(
    {
      type: fc.constantFrom("number", "integer"),
      minimum: bound,
      maximum: bound,
      exclusiveMinimum: bound,
      exclusiveMaximum: bound,
    },
    { requiredKeys: ["type"] },
  )
  .map((s) => s as JsonSchema);

const leaf: fc.Arbitrary<JsonSchema> = fc.oneof(
  fc.record(
    { type: fc.constant("string"), minLength: fc.nat(3), maxLength: fc.integer({ min: 3, max: 12 }) },
    { requiredKeys: ["type"] },
  ),
  numberSchema,
  fc.constant({ type: "boolean" }),
  fc.constant({ type: "null" }),
  fc.record({
    enum: fc.uniqueArray(scalar, { minLength: 1, maxLength: 4, selector: (v) => JSON.stringify(v) }),
  }),
  fc.record({ const: scalar }),
  fc.constant<JsonSchema>({ type: ["string", "null"], maxLength: 5 }),
  fc.constant({ type: "integer", nullable: true }),
  fc.constant({}),
);

export const { schema } = fc.letrec<{ schema: JsonSchema }>((tie) => ({
  schema: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leaf,
    fc.record(
      {
        type: fc.constant("array"),
        items: tie("schema"),
        minItems: fc.nat(2),
        maxItems: fc.integer({ min: 2, max: 4 }),
      },
      { requiredKeys: ["type", "items"] },
    ),
    fc
      .dictionary(key, tie("schema"), { maxKeys: 4 })
      .chain((properties) =>
        fc.subarray(Object.keys(properties)).map((required) => ({ type: "object", properties, required })),
      ),
    fc.record({ anyOf: fc.array(tie("schema"), { minLength: 1, maxLength: 3 }) }),
  ),
}));

/**
 * Bounds of type number that no whole number meets (e.g. [0.2, 0.7]) are left to validation (README): the
 * property covers every other schema.
 */
export function fractionOnly(s: unknown): boolean {
  if (typeof s !== "object" || s === null) return false;
  const o = s as Record<string, unknown>;
  if (
    o.type === "number" &&
    ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"].some((k) => k in o)
  ) {
    const lo = Math.max(
      typeof o.minimum === "number" ? Math.ceil(o.minimum) : -Infinity,
      typeof o.exclusiveMinimum === "number" ? Math.floor(o.exclusiveMinimum) + 1 : -Infinity,
    );
    const hi = Math.min(
      typeof o.maximum === "number" ? Math.floor(o.maximum) : Infinity,
      typeof o.exclusiveMaximum === "number" ? Math.ceil(o.exclusiveMaximum) - 1 : Infinity,
    );
    if (lo > hi) return true;
  }
  return Object.values(o).some((v) => (Array.isArray(v) ? v.some(fractionOnly) : fractionOnly(v)));
}
