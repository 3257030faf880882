import { describe, expect, it } from "vitest";
import { afterAbbreviation, listedExamples } from "../../src/models/factored/abbreviations.ts";
import { candidatesFor, paramKind } from "../../src/models/factored/candidates.ts";
import { emptyWords, plainWord } from "../../src/models/factored/empty-words.ts";
import { functionView, pairFeatures, questionView } from "../../src/models/factored/features.ts";
import { ENGLISH_NAME_LINKS, linkedName } from "../../src/models/factored/name-links.ts";
import { widenedPhrase } from "../../src/models/factored/phrases.ts";
import { ENGLISH_PERCENT_WORDS, saysPercent } from "../../src/models/factored/percent-words.ts";
import { ENGLISH_POSSESSIVE, withoutPossessive } from "../../src/models/factored/possessives.ts";
import { tokenize } from "../../src/models/factored/text.ts";
import { unitAfter, weighUnits, writesUnit } from "../../src/models/factored/units.ts";
import { tool } from "./factored-fixtures.ts";

describe("factored caller: values as the question and the schema write them", () => {
  it("reads a description's examples after a dotted abbreviation, whatever their case (unless abbreviations is off)", () => {
    const d = tokenize("The city and state, e.g. Seattle, WA. Not Boston");
    expect(d.filter((_, i) => afterAbbreviation(d, i)).map((t) => t.text)).toEqual(["Seattle"]);
    const l = tokenize("The information type, i.e., victim, accused, verdict. Other words");
    expect(listedExamples(l).map((t) => t.text)).toEqual(["victim", "accused", "verdict"]);
    // a sentence's first word after an ordinary full stop is no example
    expect(listedExamples(tokenize("A type. Victim or not")).length).toBe(0);
    const find = tool("get_case_info", {
      court: { type: "string", description: "Court in which the case was heard." },
      info_type: { type: "string", description: "The information type needed, i.e., victim, accused, verdict" },
    });
    const q = "Who was the victim in the case in California?";
    const x44 = (abbreviations: boolean | "lists" | undefined) => {
      const f = functionView(find, { ...questionView(q, new Set()), abbreviations }, new Map());
      const p = f.params.find((k) => k.name === "info_type")!;
      return pairFeatures(f, p, p.candidates.find((c) => c.value === "victim")!)[44];
    };
    expect(x44("lists")).toBe(1);
    expect(x44(true)).toBe(0);
    expect(x44(undefined)).toBe(0);
  });

  it("gives a text value without a possessive ending (unless possessives is off)", () => {
    expect(withoutPossessive("The Weeknd's", ENGLISH_POSSESSIVE)).toBe("The Weeknd");
    expect(withoutPossessive("Germany’s", ENGLISH_POSSESSIVE)).toBe("Germany");
    expect(withoutPossessive("Let's", undefined)).toBe("Let's");
    expect(withoutPossessive("s", ENGLISH_POSSESSIVE)).toBe("s");
    const q = "What is the timing of The Weeknd's concert?";
    const spans = (possessives?: RegExp) => candidatesFor({ ...questionView(q, new Set()), possessives }, paramKind({ type: "string" })).map((c) => c.value);
    expect(spans(ENGLISH_POSSESSIVE)).toContain("The Weeknd");
    expect(spans(ENGLISH_POSSESSIVE)).not.toContain("The Weeknd's");
    expect(spans(undefined)).toContain("The Weeknd's");
  });

  it("offers '5%' as 5 only where the description says it takes a percentage (unless percentWords is off)", () => {
    expect(saysPercent("The interest rate for a year as a percentage.", ENGLISH_PERCENT_WORDS)).toBe(true);
    expect(saysPercent("The annual interest rate.", ENGLISH_PERCENT_WORDS)).toBe(false);
    expect(saysPercent("as a percentage", undefined)).toBe(false);
    const rates = tool("compound_interest", {
      annual_rate: { type: "number", description: "The interest rate for a year as a percentage." },
      rate: { type: "number", description: "The annual interest rate." },
    });
    const q = "an annual interest rate of 5% for 5 years";
    const offered = (percentWords?: ReadonlySet<string>) => {
      const f = functionView(rates, { ...questionView(q, new Set()), percentWords }, new Map());
      return Object.fromEntries(f.params.map((p) => [p.name, p.candidates.map((c) => c.value)]));
    };
    expect(offered(ENGLISH_PERCENT_WORDS)).toEqual({ annual_rate: [5, 5], rate: [5, 0.05, 5] });
    expect(offered(undefined).annual_rate).toContain(0.05);
  });
});

describe("factored caller: a number's unit names its parameter", () => {
  it("reads the unit written after a number, glued or as the next word", () => {
    const q = "accelerating at 2 meters/second^2 for 5 seconds, then 440Hz.";
    const t = tokenize(q);
    const after = (v: number) => unitAfter(q, t.find((k) => k.value === v)!.end);
    expect([after(2), after(5), after(440)]).toEqual(["meters/second^2", "seconds", "Hz"]);
    expect(unitAfter("it costs 5.", 10)).toBe("");
    expect(writesUnit("The acceleration in meters/second^2.", "meters/second^2")).toBe(true);
    expect(writesUnit("The acceleration in meters/second^2.", "meters/second")).toBe(false);
    expect(writesUnit("The speed in meters/second.", "meters/second")).toBe(true);
    expect(writesUnit("The time in seconds.", "second")).toBe(false);
  });

  it("makes a number likelier for the one parameter whose description writes its unit (unless units is off)", () => {
    const sound = tool("generate_sound_wave", {
      frequency: { type: "integer", description: "The frequency of the sound wave in Hz." },
      duration: { type: "integer", description: "The duration of the sound in seconds." },
      count: { type: "integer", description: "How many, in seconds or Hz." },
    });
    const q = "a sound of 440Hz for 5 seconds";
    const chances = (units?: number) => {
      const f = functionView(sound, { ...questionView(q, new Set()), units }, new Map());
      return Object.fromEntries(
        f.params.map((p) => {
          const probs = [0.3, 0.3, 0.4];
          weighUnits(f, p, probs, units ?? 1);
          return [p.name, probs.map((x) => Math.round(x * 100) / 100)];
        }),
      );
    };
    // frequency: 440 x4, 5 as it was, scaled back to 0.6 in all; the null's 0.4 unchanged
    expect(chances(4)).toEqual({ frequency: [0.48, 0.12, 0.4], duration: [0.12, 0.48, 0.4], count: [0.3, 0.3, 0.4] });
    expect(chances(undefined)).toEqual({ frequency: [0.3, 0.3, 0.4], duration: [0.3, 0.3, 0.4], count: [0.3, 0.3, 0.4] });
  });
});

describe("factored caller: a one-word value widens to the two-word name it stands in", () => {
  const tokens = tokenize("proteins found in the plasma membrane of Chinese cuisine");
  const span = (s: number, e: number) => ({ family: "span" as const, value: tokens.slice(s, e).map((t) => t.text).join(" "), start: s, end: e, quoted: false });
  const candidates = [span(5, 6), span(4, 6), span(4, 5), span(8, 9), span(8, 10), span(5, 7)];
  const cx = { tokens, commonness: (st: string) => (st === "of" ? 0.9 : 0), names: new Set(["cuisi"]), free: () => true };

  it("takes the pair when its chance reaches minRatio of the word's, not past an everyday or a name word", () => {
    const probs = [0.5, 0.2, 0.1, 0.5, 0.4, 0.3];
    // "membrane" (0.5) -> "plasma membrane" (0.2 >= 0.3 * 0.5); "membrane of" is past an everyday word
    expect(widenedPhrase({ candidates, probs, at: 0 }, cx, 0.3, 0.5)).toBe(1);
    expect(widenedPhrase({ candidates, probs, at: 0 }, cx, 0.5, 0.5)).toBe(-1);
    // "Chinese cuisine": the parameter's own name word stays out
    expect(widenedPhrase({ candidates, probs, at: 3 }, cx, 0.3, 0.5)).toBe(-1);
    // a word written otherwise (a capital on one, none on the other) stays out: "in Zorbalin" is no name
    const z = tokenize("the forecast in Zorbalin");
    const zs = [
      { family: "span" as const, value: "Zorbalin", start: 3, end: 4, quoted: false },
      { family: "span" as const, value: "in Zorbalin", start: 2, end: 4, quoted: false },
      { family: "span" as const, value: "in", start: 2, end: 3, quoted: false },
    ];
    expect(widenedPhrase({ candidates: zs, probs: [0.57, 0.35, 0.07], at: 0 }, { ...cx, tokens: z, names: new Set() }, 0.3, 0.5)).toBe(-1);
    // a word another value spent stays out
    expect(widenedPhrase({ candidates, probs, at: 0 }, { ...cx, free: () => false }, 0.3, 0.5)).toBe(-1);
  });
});

describe("factored caller: an empty optional text parameter takes a plain word", () => {
  const tokens = tokenize("Draw a rectangle of width 20 in red with Paint");
  const span = (s: number) => ({ family: "span" as const, value: tokens[s]!.text, start: s, end: s + 1, quoted: false });
  const candidates = [span(0), span(1), span(2), span(7), span(9)];
  const taken: unknown[] = [];
  const cx = {
    tokens,
    commonness: (st: string) => (st === "a" || st === "with" ? 0.9 : 0),
    names: new Set(["recta"]),
    free: () => true,
    take: (c: { value: unknown }) => taken.push(c.value),
  };

  it("at minRatio of leaving it out, not a capitalised, everyday or name word", () => {
    // "red" 0.1 against a null of 0.8: taken at 0.1, not at 0.2; "Paint" (capitalised) and "rectangle" (a name word) never
    const probs = [0.02, 0.02, 0.5, 0.1, 0.3];
    expect(emptyWords([{ candidates, probs, pNull: 0.8 }], cx, 0.1, 0.5)).toEqual([3]);
    expect(taken).toEqual(["red"]);
    expect(emptyWords([{ candidates, probs, pNull: 0.8 }], cx, 0.2, 0.5)).toEqual([-1]);
    expect(plainWord(cx, span(9), 0.5)).toBe(false);
    expect(plainWord(cx, span(2), 0.5)).toBe(false);
    expect(plainWord(cx, span(1), 0.5)).toBe(false);
  });
});

describe("factored caller: a capitalised name linked by a name word is taken whole", () => {
  it("widens over the link word and the capitalised run beside it (unless nameLinks is off)", () => {
    const t = tokenize("exhibitions in the Museum of Modern Art, New York and Paris");
    // "Modern Art" (5..7) -> "Museum of Modern Art" (3..7); "Museum" (3..4) -> the same
    expect(linkedName(t, 5, 7, ENGLISH_NAME_LINKS)).toEqual([3, 7]);
    expect(linkedName(t, 3, 4, ENGLISH_NAME_LINKS)).toEqual([3, 7]);
    // no link word: "New York and Paris" stays apart; a lower-case value stays as it is
    expect(linkedName(t, 8, 10, ENGLISH_NAME_LINKS)).toEqual([8, 10]);
    expect(linkedName(t, 0, 1, ENGLISH_NAME_LINKS)).toEqual([0, 1]);
    expect(linkedName(t, 5, 7, new Set())).toEqual([5, 7]);
  });
});
