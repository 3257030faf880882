import { describe, expect, it } from "vitest";
import { candidatesFor, paramKind } from "../../src/models/factored/candidates.ts";
import { questionView } from "../../src/models/factored/features.ts";
import { ENGLISH_NUMBER_SCALES, scaleAfter } from "../../src/models/factored/number-scales.ts";
import { tokenize } from "../../src/models/factored/text.ts";
import type { NumberScales } from "../../src/models/factored/number-scales.ts";

describe("factored caller: numbers written with a scale word", () => {
  it("reads a whole scale word after a number, and a short one only written onto the digits", () => {
    const t = tokenize("a payout of 50 million USD, revenue 1.2M and 3 M");
    expect(scaleAfter(t, 3, ENGLISH_NUMBER_SCALES)).toBe(1e6);
    // "1.2M": glued
    expect(scaleAfter(t, 8, ENGLISH_NUMBER_SCALES)).toBe(1e6);
    // "3 M": a letter apart from its digits is no scale
    expect(scaleAfter(t, 11, ENGLISH_NUMBER_SCALES)).toBeUndefined();
    // "300K" is kelvins as often as thousands: no scale
    expect(scaleAfter(tokenize("at 300K"), 1, ENGLISH_NUMBER_SCALES)).toBeUndefined();
  });

  it("offers the whole number to number parameters (unless numberScales is off)", () => {
    const q = "100 million outstanding shares and a population of 8.5 million";
    const numbers = (numberScales: NumberScales | undefined, type: "integer" | "number") =>
      candidatesFor({ ...questionView(q, new Set()), numberScales }, paramKind({ type })).map((c) => c.value);
    expect(numbers(ENGLISH_NUMBER_SCALES, "integer")).toEqual([100000000, 8500000]);
    expect(numbers(ENGLISH_NUMBER_SCALES, "number")).toEqual([100000000, 8500000]);
    expect(numbers(undefined, "number")).toEqual([100, 8.5]);
    // an integer parameter never takes 8.5 as written
    expect(numbers(undefined, "integer")).toEqual([100]);
  });
});
