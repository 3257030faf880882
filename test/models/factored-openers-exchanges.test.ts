import { describe, expect, it } from "vitest";
import type { Candidate } from "../../src/models/factored/candidates.ts";
import { openerStarts } from "../../src/models/factored/opener-segments.ts";
import { dropSentenceOpeners, sentenceOpener } from "../../src/models/factored/sentence-openers.ts";
import { tokenize } from "../../src/models/factored/text.ts";
import { exchangeValues, type ExchangeSlot } from "../../src/models/factored/value-exchanges.ts";
import { bestQuote } from "../../src/models/factored/leftover-quotes.ts";

const span = (tokens: ReturnType<typeof tokenize>, text: string): Candidate => {
  const at = tokens.findIndex((k) => k.text === text);
  return { family: "span", value: text, start: at, end: at + 1, quoted: false };
};

describe("factored caller: sentence openers", () => {
  it("reads a sentence's first word set off by a comma as an opener, nothing else", () => {
    const t = tokenize("Book a hotel in Paris. Lastly, I need the date of the Battle of Waterloo in Belgium, please.");
    expect(sentenceOpener(t, t.findIndex((k) => k.text === "Lastly"))).toBe(true);
    // a name inside a sentence before a comma, and a sentence's first word without a comma, are none
    expect(sentenceOpener(t, t.findIndex((k) => k.text === "Belgium"))).toBe(false);
    expect(sentenceOpener(t, 0)).toBe(false);
    expect(sentenceOpener(tokenize("Paris, France"), 0)).toBe(true);
  });

  it("gives an opener no chance as a one-word text value and scales the rest back", () => {
    const t = tokenize("Lastly, I need the date of the Battle of Waterloo in Belgium.");
    const lastly = span(t, "Lastly");
    const belgium = span(t, "Belgium");
    const quoted: Candidate = { ...lastly, quoted: true };
    const probs = [0.5, 0.3, 0.1, 0.1];
    dropSentenceOpeners(t, [lastly, belgium, quoted], probs);
    expect(probs[0]).toBe(0);
    expect(probs[1]).toBeCloseTo(0.6);
    // a quoted text is written as a value: kept
    expect(probs[2]).toBeCloseTo(0.2);
    expect(probs.reduce((a, b) => a + b, 0)).toBeCloseTo(1);
  });
});

describe("factored caller: segments from sentence openers", () => {
  it("starts a later function's segment at the opener before its mention", () => {
    const t = tokenize("Run a t-test on these groups. Second, I'm in Boston, MA and hungry. Could you find the closest restaurant?");
    const ttest = t.findIndex((k) => k.text === "t-test");
    const restaurant = t.findIndex((k) => k.text === "restaurant");
    const could = t.findIndex((k) => k.text === "Could");
    const second = t.findIndex((k) => k.text === "Second");
    expect(openerStarts(t, [ttest, restaurant], [ttest, could])).toEqual([ttest, second]);
    // no opener between the two mentions: the starts stay
    const plain = tokenize("Run a t-test on these groups. I'm in Boston, MA. Could you find the closest restaurant?");
    const at = (s: string) => plain.findIndex((k) => k.text === s);
    expect(openerStarts(plain, [at("t-test"), at("restaurant")], [at("t-test"), at("Could")])).toEqual([at("t-test"), at("Could")]);
  });
});

describe("factored caller: value exchanges", () => {
  // two parameters of one function, one candidate each place: 0 'Apple Inc', 1 'Patent'
  const world = { sameAs: (_from: number, cand: number) => cand, fits: (slot: number, cand: number, at: readonly number[]) => at.every((a, i) => i === slot || a !== cand) };

  it("passes a value to the parameter surer of it, the giver taking its next one", () => {
    const slots: ExchangeSlot[] = [
      // company (required) took 'Patent' at 0.17, though 'Apple Inc' is 0.09
      { required: true, probs: [0.09, 0.17], pNull: 0, at: 1, fixed: false },
      // case type (optional) is sure of 'Patent'
      { required: false, probs: [0.005, 0.93], pNull: 0.03, at: -1, fixed: false },
    ];
    expect(exchangeValues(slots, world, 2)).toEqual([0, 1]);
    // a product that grows less than the margin: nothing passes
    expect(exchangeValues(slots, world, 1000)).toEqual([1, -1]);
    // a value a named run took stays
    expect(exchangeValues([{ ...slots[0]!, fixed: true }, slots[1]!], world, 2)).toEqual([1, -1]);
  });

  it("leaves a required giver its value where it has no other", () => {
    const slots: ExchangeSlot[] = [
      { required: true, probs: [0, 0.2], pNull: 0, at: 1, fixed: false },
      { required: false, probs: [0, 0.9], pNull: 0.1, at: -1, fixed: false },
    ];
    expect(exchangeValues(slots, world, 2)).toEqual([1, -1]);
  });
});

describe("factored caller: leftover quotes", () => {
  it("replaces an unquoted value by a quoted text at the given share of its chance, the largest share first", () => {
    // event holds 'Belgium' at 0.10; the quoted 'Battle of Waterloo' has 0.015 of its chance (0.15 of it)
    const event = { own: 0.1, quoted: [{ at: 7, chance: 0.015 }] };
    // location holds something at 0.3 and would take the same quote at 0.03 (a tenth of it)
    const location = { own: 0.3, quoted: [{ at: 4, chance: 0.03 }] };
    expect(bestQuote([event, location], 0.1)).toEqual({ slot: 0, at: 7 });
    // under the share: none
    expect(bestQuote([event, location], 0.2)).toBeUndefined();
    // nothing quoted free: none
    expect(bestQuote([{ own: 0.1, quoted: [] }], 0.1)).toBeUndefined();
  });
});
