/**
 * Property: for random schemas and random logits, decoding under the schema constraint always yields text
 * that parses and that ajv accepts, within the token budget. Two real byte-level BPE vocabularies: the demo
 * model's, and one trained here on JSON with non-ASCII text, so tokens span several JSON characters
 * (`":"`, `"},{"`) and split UTF-8 characters.
 */
import { Ajv } from "ajv";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonSchemaConstraint } from "../../src/constrain/index.ts";
import { pickToken } from "../../src/nn/infer/decode.ts";
import { Rng } from "../../src/nn/rng.ts";
import { Tokenizer } from "../../src/nn/tokenizer/index.ts";
import type { JsonSchema } from "../../src/tools/types.ts";

const END = "<|end|>";
const jsonText = [
  '{"name": "Zoë", "city": "Zürich", "tags": ["a", "b"], "n": -12.5, "ok": true, "x": null}',
  '[{"value":1,"unit":"km"},{"value":2,"unit":"mi"}] {"a":{"b":[1,2,3]}} "日本語のテキスト" "emoji 😀🎉"',
  '{"return_type":"give_answer","final_answer":"100 °F = 37.777778 °C"} \\"quoted\\" \\n \\u00e9',
];
const trained = Tokenizer.train(Array.from({ length: 20 }, () => jsonText).flat(), 700, {
  specialTokens: [END],
});
const demo = Tokenizer.load("models/demo");
const demoEnd = demo.tokenToId("<|im_end|>") ?? demo.tokenToId("<|eot_id|>");

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

const { schema } = fc.letrec<{ schema: JsonSchema }>((tie) => ({
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
function fractionOnly(s: unknown): boolean {
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

const ajv = new Ajv({ strict: false });

function decode(
  tok: Tokenizer,
  endId: number,
  s: JsonSchema,
  seed: number,
  slack: number,
  temperature: number,
) {
  const c = jsonSchemaConstraint(s, tok, [endId], { maxStringLength: 16, maxItems: 4, maxProperties: 3 });
  const maxTokens = c.bytesToComplete + slack;
  const rng = new Rng(seed);
  const pickRng = new Rng(seed + 1);
  const logits = new Float32Array(tok.vocabSize);
  const ids: number[] = [];
  while (ids.length < maxTokens) {
    for (let i = 0; i < logits.length; i++) logits[i] = rng.next() * 8;
    const allowed = c.allowed(maxTokens - ids.length);
    if (allowed.length === 0) break;
    const id = pickToken(logits, { temperature }, pickRng, allowed);
    if (!c.accept(id)) break;
    ids.push(id);
  }
  expect(c.complete).toBe(true);
  return tok.decode(ids);
}

describe("schema-constrained decoding (property)", () => {
  for (const [name, tok, endId] of [
    ["a tokenizer trained on JSON", trained, trained.tokenToId(END)!],
    ["the demo model's tokenizer", demo, demoEnd!],
  ] as const) {
    it(`random schemas × random logits always give valid JSON, ${name}`, () => {
      fc.assert(
        fc.property(
          schema,
          fc.nat(1_000_000),
          fc.nat(40),
          fc.constantFrom(0, 1, 3),
          (s, seed, slack, temperature) => {
            if (fractionOnly(s)) return;
            let valid: ReturnType<Ajv["compile"]>;
            try {
              valid = ajv.compile(s);
            } catch {
              return; // not a schema ajv takes (e.g. an enum of duplicates): nothing to check
            }
            let compiled = true;
            let out = "";
            try {
              out = decode(tok, endId, s, seed, slack, temperature);
            } catch (error) {
              // only a schema that accepts nothing may be refused
              compiled = false;
              expect((error as Error).message).toMatch(
                /accepts no|no value|no integer|no number|accepts nothing/,
              );
            }
            if (!compiled) return;
            const value: unknown = JSON.parse(out);
            expect(valid(value), `${JSON.stringify(s)}\n${out}\n${ajv.errorsText(valid.errors)}`).toBe(true);
          },
        ),
        { numRuns: 150, seed: 19 },
      );
    });
  }
});
