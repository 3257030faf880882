import { describe, expect, it } from "vitest";
import { withContinueBias } from "../../src/models/caller-count-bias.ts";

// a toy vocabulary: the reply's structural pieces as a byte-level BPE merges them
const TEXTS = ['[{"name":"f","parameters":{"x":"', "a", '"}},{"name":"f","parameters":{"x":"', '"}}]', '","y":"', ",", '"}', "}", "]"];
const CONTINUE = 2;
const END = 3;
const NEXT_KEY = 4;

function session() {
  return { append: (_ids: readonly number[]) => new Float32Array(TEXTS.length) };
}

describe("the caller's continue bias", () => {
  it("raises only the tokens that start another call, once a call can complete", () => {
    const s = withContinueBias(session(), TEXTS, 3);
    s.append([7, 7, 7]); // the prompt: never scanned, whatever it holds
    const inValue = (s.append([0]), s.append([1]));
    expect(inValue[CONTINUE]).toBe(3); // closes the value and the call, then ","
    expect(inValue[END]).toBe(0);
    expect(inValue[NEXT_KEY]).toBe(0); // a comma inside the arguments is not another call
    const afterSecond = (s.append([CONTINUE]), s.append([1]));
    expect(afterSecond[CONTINUE]).toBe(3);
    expect(afterSecond[NEXT_KEY]).toBe(0); // after a completed call too
    expect(afterSecond[END]).toBe(0);
  });

  it("changes nothing with a bias of 0, and skips commas inside strings", () => {
    const s = withContinueBias(session(), TEXTS, 0);
    s.append([1]);
    s.append([0]);
    expect([...s.append([1])].every((v) => v === 0)).toBe(true);
    const quoted = withContinueBias(session(), ['[{"x":"', ",", '"}]'], 5);
    quoted.append([]);
    expect(quoted.append([0])[1]).toBe(0); // a comma in a value, not between calls
  });
});
