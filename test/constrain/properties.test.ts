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
import { fractionOnly, schema } from "./schemas.ts";

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

  it("the trie walk (and the string fast path) allows exactly the ids a token-by-token check allows", () => {
    const endId = trained.tokenToId(END)!;
    fc.assert(
      fc.property(schema, fc.nat(1_000_000), fc.nat(30), (s, seed, slack) => {
        let c;
        try {
          c = jsonSchemaConstraint(s, trained, [endId], {
            maxStringLength: 16,
            maxItems: 4,
            maxProperties: 3,
          });
        } catch {
          return; // a schema that accepts nothing
        }
        const a = c.automaton;
        const maxTokens = c.bytesToComplete + slack;
        const rng = new Rng(seed);
        for (let used = 0; used < maxTokens; used++) {
          const left = maxTokens - used;
          const allowed = c.allowed(left).sort((x, y) => x - y);
          const state = c.state;
          const expected: number[] = c.complete ? [endId] : [];
          c.vocab.bytes.forEach((b, id) => {
            const next = b ? a.stepBytes(state, b) : undefined;
            if (next && a.minBytesToComplete(next) <= left - 1) expected.push(id);
          });
          expect(allowed).toEqual(expected.sort((x, y) => x - y));
          if (allowed.length === 0) break;
          const id = allowed[Math.floor(rng.next() * allowed.length)]!;
          if (!c.accept(id)) break;
        }
      }),
      { numRuns: 40, seed: 7 },
    );
  });
});
