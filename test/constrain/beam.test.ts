/**
 * Beam search under a schema constraint (src/constrain/beam.ts), over a fake model whose logits are a hash of
 * the ids so far (so a forked branch sees what the original would have): the reply always parses and
 * validates, its log-probability is the sum the model gives its ids, one beam is greedy decoding, and every
 * branch's session is disposed of.
 */
import { Ajv } from "ajv";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  beamDecodeConstrained,
  decodeConstrained,
  jsonSchemaConstraint,
  type ForkableLogitsSource,
} from "../../src/constrain/index.ts";
import { Tokenizer } from "../../src/nn/tokenizer/index.ts";
import { fractionOnly, schema } from "./schemas.ts";

const demo = Tokenizer.load("models/demo");
const endId = (demo.tokenToId("<|im_end|>") ?? demo.tokenToId("<|eot_id|>"))!;
const ajv = new Ajv({ strict: false });

function logitsAfter(ids: readonly number[], seed: number): Float32Array {
  let h = seed >>> 0;
  for (const id of ids) h = Math.imul(h ^ id, 2654435761) >>> 0;
  const out = new Float32Array(demo.vocabSize);
  for (let i = 0; i < out.length; i++) {
    h = Math.imul(h ^ (h >>> 15), 2246822519) >>> 0;
    out[i] = (h / 2 ** 32) * 8;
  }
  return out;
}

/** The fake model, counting live sessions. */
function fakeModel(seed: number) {
  const live = { count: 0 };
  const make = (history: number[]): ForkableLogitsSource => {
    live.count++;
    let disposed = false;
    return {
      append(ids) {
        if (disposed) throw new Error("append after dispose");
        history.push(...ids);
        return logitsAfter(history, seed);
      },
      fork: () => make([...history]),
      dispose() {
        if (!disposed) live.count--;
        disposed = true;
      },
    };
  };
  return { root: () => make([]), live };
}

function logProbOf(ids: readonly number[], prompt: number[], seed: number, end: boolean): number {
  let sum = 0;
  const all = [...ids, ...(end ? [endId] : [])];
  for (let i = 0; i < all.length; i++) {
    const logits = logitsAfter([...prompt, ...all.slice(0, i)], seed);
    const max = Math.max(...logits);
    const log = max + Math.log(logits.reduce((s, x) => s + Math.exp(x - max), 0));
    sum += logits[all[i]!]! - log;
  }
  return sum;
}

describe("beam search under a schema constraint", () => {
  it("always gives a valid value, scored as the model scores it, with every branch disposed of", () => {
    fc.assert(
      fc.property(
        schema,
        fc.nat(1_000_000),
        fc.nat(30),
        fc.constantFrom(2, 3),
        fc.boolean(),
        (s, seed, slack, beams, perToken) => {
          if (fractionOnly(s)) return;
          let valid: ReturnType<Ajv["compile"]>;
          let c;
          try {
            valid = ajv.compile(s);
            c = jsonSchemaConstraint(s, demo, [endId], {
              maxStringLength: 16,
              maxItems: 4,
              maxProperties: 3,
            });
          } catch {
            return; // not a schema ajv takes, or one that accepts nothing
          }
          const model = fakeModel(seed);
          const prompt = [1, 2, 3];
          const maxTokens = c.bytesToComplete + slack;
          const r = beamDecodeConstrained(model.root(), prompt, c, { maxTokens, beams, perToken });
          const out = demo.decode(r.ids);
          expect(valid(JSON.parse(out)), `${JSON.stringify(s)}\n${out}`).toBe(true);
          expect(r.logProb).toBeCloseTo(logProbOf(r.ids, prompt, seed, r.finishReason === "stop"), 3);
          expect(model.live.count).toBe(0);
        },
      ),
      { numRuns: 60, seed: 23 },
    );
  });

  it("with one beam, is greedy decoding", () => {
    fc.assert(
      fc.property(schema, fc.nat(1_000_000), fc.nat(30), (s, seed, slack) => {
        if (fractionOnly(s)) return;
        const make = () => {
          try {
            return jsonSchemaConstraint(s, demo, [endId], {
              maxStringLength: 16,
              maxItems: 4,
              maxProperties: 3,
            });
          } catch {
            return undefined;
          }
        };
        const a = make();
        const b = make();
        if (!a || !b) return;
        const maxTokens = a.bytesToComplete + slack;
        const beam = beamDecodeConstrained(fakeModel(seed).root(), [7], a, { maxTokens, beams: 1 });
        const greedy = decodeConstrained(fakeModel(seed).root(), [7], b, { maxTokens });
        expect(beam.ids).toEqual(greedy.ids);
      }),
      { numRuns: 60, seed: 29 },
    );
  });

  it("refuses a beam width that is not a positive integer", () => {
    const c = jsonSchemaConstraint({ type: "boolean" }, demo, [endId]);
    expect(() => beamDecodeConstrained(fakeModel(1).root(), [1], c, { maxTokens: 8, beams: 0 })).toThrow(
      /positive integer/,
    );
  });
});
