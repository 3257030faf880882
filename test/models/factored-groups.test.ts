import { describe, expect, it } from "vitest";
import type { Candidate } from "../../src/models/factored/candidates.ts";
import { numberGroupCalls, type GroupParam } from "../../src/models/factored/number-groups.ts";
import { quotedJoined } from "../../src/models/factored/quoted-joins.ts";
import { clauseStarts, clusteredPlace } from "../../src/models/factored/segment-shape.ts";
import { stemOf, tokenize } from "../../src/models/factored/text.ts";

describe("segment shape", () => {
  it("mentions a function where most of its own name words stand together", () => {
    const tokens = tokenize("What is the capital city of Australia and the largest city in Brazil?");
    const own = new Set(["largest", "city"].map(stemOf));
    expect(tokens[clusteredPlace(tokens, own)]!.text).toBe("largest");
    // the first of them when none stand together
    expect(tokens[clusteredPlace(tokens, new Set([stemOf("city")]))]!.text).toBe("city");
    expect(clusteredPlace(tokens, new Set([stemOf("weather")]))).toBe(-1);
  });

  it("starts a later function's segment after the last clause break before its mention", () => {
    const tokens = tokenize("scores for the United soccer team in 5 rounds and also for the Lakers basketball team");
    const at = (w: string) => tokens.findIndex((t) => t.text === w);
    const starts = clauseStarts(tokens, new Set(["and"]), [at("soccer"), at("basketball")]);
    expect(starts[0]).toBe(at("soccer"));
    expect(tokens[starts[1]!]!.text).toBe("also");
    // no learnt joiner and no punctuation between: the mention itself
    expect(clauseStarts(tokens, new Set(), [at("soccer"), at("basketball")])[1]).toBe(at("basketball"));
    // the order of the functions is the order of their mentions, whatever the order given
    expect(tokens[clauseStarts(tokens, new Set(["and"]), [at("basketball"), at("soccer")])[0]!]!.text).toBe("also");
  });
});

describe("number groups", () => {
  // "3 and 4, 5 and 12": numbers at tokens 0, 2, 4, 6
  const num = (value: number, start: number): Candidate => ({ family: "number", value, start, end: start + 1, quoted: false });
  const written = [num(3, 0), num(4, 2), num(5, 4), num(12, 6)];
  const param = (name: string, probs: number[]): GroupParam => ({ name, candidates: written, probs });

  it("cuts the numbers into groups of one per parameter, in the order the scores like best over all groups", () => {
    const rows = numberGroupCalls([param("a", [0.4, 0.1, 0.3, 0.2]), param("b", [0.1, 0.4, 0.2, 0.3])], () => true);
    expect(rows).toEqual([
      { a: 3, b: 4 },
      { a: 5, b: 12 },
    ]);
    // the order comes from all groups: b liking the first number of each group more deals them to b
    const swapped = numberGroupCalls([param("a", [0.1, 0.4, 0.2, 0.3]), param("b", [0.4, 0.1, 0.3, 0.2])], () => true);
    expect(swapped).toEqual([
      { a: 4, b: 3 },
      { a: 12, b: 5 },
    ]);
  });

  it("holds the schema's order of the parameters likelier, by the prior given per group", () => {
    // the scores like b first slightly (0.3 against 0.25 per number): the prior 2 keeps the schema's order, 1 does not
    const a = param("a", [0.25, 0.3, 0.25, 0.3]);
    const b = param("b", [0.3, 0.25, 0.3, 0.25]);
    expect(numberGroupCalls([a, b], () => true)).toEqual([
      { a: 3, b: 4 },
      { a: 5, b: 12 },
    ]);
    expect(numberGroupCalls([a, b], () => true, 0.05, 1)).toEqual([
      { a: 4, b: 3 },
      { a: 12, b: 5 },
    ]);
  });

  it("reads nothing when the plausible numbers do not divide into two or more groups", () => {
    // the last number implausible for both: three numbers left
    expect(numberGroupCalls([param("a", [0.5, 0.2, 0.29, 0.01]), param("b", [0.2, 0.5, 0.29, 0.01])], () => true, 0.05)).toBeUndefined();
    // outside the function's segment
    expect(numberGroupCalls([param("a", [0.4, 0.1, 0.3, 0.2]), param("b", [0.1, 0.4, 0.2, 0.3])], (c) => c.start < 4)).toBeUndefined();
    // one parameter: no groups
    expect(numberGroupCalls([param("a", [0.4, 0.1, 0.3, 0.2])], () => true)).toBeUndefined();
  });

  it("reads nothing when a number dealt is implausible for the parameter it goes to", () => {
    // group 2 would give a the 5 it finds implausible in every order
    const rows = numberGroupCalls([param("a", [0.5, 0.49, 0.001, 0.009]), param("b", [0.001, 0.3, 0.3, 0.399])], () => true, 0.05);
    expect(rows).toBeUndefined();
  });
});

describe("quoted joins", () => {
  const inside = (tokens: ReturnType<typeof tokenize>, w: string): [number, number] => {
    const k = tokens.findIndex((t) => t.text === w);
    return [k, k + 1];
  };

  it("joins two quoted texts with only quote marks and a comma or joiner between", () => {
    const t = tokenize(`news on "Climate" and "Energy", each for 'Europe'`);
    const and = new Set(["and"]);
    expect(quotedJoined(t, and, inside(t, "Climate"), inside(t, "Energy"))).toBe(true);
    expect(quotedJoined(t, and, inside(t, "Energy"), inside(t, "Climate"))).toBe(true);
    // a word between that is no joiner
    expect(quotedJoined(t, and, inside(t, "Energy"), inside(t, "Europe"))).toBe(false);
    // quote marks alone, no comma or joiner: not a list
    const u = tokenize(`"Climate" "Energy"`);
    expect(quotedJoined(u, and, inside(u, "Climate"), inside(u, "Energy"))).toBe(false);
    // the joiner is learnt: none known, none joins
    expect(quotedJoined(t, new Set(), inside(t, "Climate"), inside(t, "Energy"))).toBe(false);
  });
});
