import { describe, expect, it } from "vitest";
import { candidatesFor, paramKind } from "../../src/models/factored/candidates.ts";
import { questionView } from "../../src/models/factored/features.ts";
import { ENGLISH_NUMBER_WORDS, numberWordTokens } from "../../src/models/factored/number-words.ts";
import { tokenize } from "../../src/models/factored/text.ts";

const integer = paramKind({ type: "integer" });

describe("numbers written in words (a language policy of the factored caller)", () => {
  it("reads English number words, hyphenated tens included", () => {
    const found = numberWordTokens(tokenize("Find Three traits over twenty-five years, not 'fivefold'"), ENGLISH_NUMBER_WORDS);
    expect(found.map((x) => x.value)).toEqual([3, 25]);
  });

  it("offers them to number parameters only with the policy set and no number in digits", () => {
    const v = questionView("Get me two tickets for the next five days", new Set());
    expect(candidatesFor(v, integer)).toEqual([]);
    const on = { ...v, numberWords: ENGLISH_NUMBER_WORDS };
    expect(candidatesFor(on, integer).map((c) => [c.value, c.start])).toEqual([
      [2, 2],
      [5, 7],
    ]);
    // a question that writes numbers in digits writes its values so: "two objects" there counts things
    const digits = { ...questionView("Two objects fall from 10 m and 20 m", new Set()), numberWords: ENGLISH_NUMBER_WORDS };
    expect(candidatesFor(digits, integer).map((c) => c.value)).toEqual([10, 20]);
  });
});
