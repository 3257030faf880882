import { describe, expect, it } from "vitest";
import { FactoredCallerModel } from "../../src/models/caller-factored.ts";
import { candidatesFor, paramKind } from "../../src/models/factored/candidates.ts";
import { assignLearned, chooseFunctions, DECLINE_BELOW, type ScoredParam } from "../../src/models/factored/decide.ts";
import { functionView, questionView } from "../../src/models/factored/features.ts";
import { ENGLISH_NAME_LINKS } from "../../src/models/factored/name-links.ts";
import { againstName, bindNameNeighbour } from "../../src/models/factored/name-neighbours.ts";
import { dealSiblings, siblingGroups } from "../../src/models/factored/numbered-siblings.ts";
import { ENGLISH_POSSESSIVE } from "../../src/models/factored/possessives.ts";
import { stemOf, tokenize } from "../../src/models/factored/text.ts";
import { tool } from "./factored-fixtures.ts";

/** Chances for a question's text candidates: `likely` gets most, every other span a little. */
function chances(q: string, likely: string, next = ""): { candidates: ReturnType<typeof candidatesFor>; probs: number[] } {
  const candidates = candidatesFor(questionView(q, new Set()), paramKind({ type: "string" }));
  const probs = candidates.map((c) => (c.value === likely ? 0.8 : c.value === next ? 0.05 : 0.1 / candidates.length));
  return { candidates, probs };
}

describe("factored caller: a name word binds the value right against it", () => {
  const cx = (q: string, name: string) => ({
    tokens: tokenize(q),
    nameStems: new Set([stemOf(name)]),
    commonness: () => 0,
    common: 0.5,
    possessive: ENGLISH_POSSESSIVE,
  });

  it("gives the word right before the name the chance of the capitalised name a preposition puts after it", () => {
    const q = "Find restaurants near me that offer Chinese cuisine in Seattle.";
    const { candidates, probs } = chances(q, "Seattle", "Chinese");
    const at = bindNameNeighbour(candidates, probs, cx(q, "cuisine"));
    expect(candidates[at]!.value).toBe("Chinese");
    expect(probs[at]).toBe(0.8);
    expect(probs[candidates.findIndex((c) => c.value === "Seattle")]).toBe(0.05);
  });

  it("leaves a value already against its name, a lower-case value, and a possessive owner as they are", () => {
    const bound = "Find Chinese cuisine Seattle.";
    const a = chances(bound, "Seattle");
    expect(bindNameNeighbour(a.candidates, a.probs, cx(bound, "cuisine"))).toBe(-1);
    // the likeliest value written in lower case ("12x18"-like values, verbs before the name) is no capitalised name
    const lower = "Please change size to large.";
    const b = chances(lower, "large");
    expect(bindNameNeighbour(b.candidates, b.probs, cx(lower, "size"))).toBe(-1);
    const owner = "Set my painting's medium to Oil.";
    const c = chances(owner, "Oil");
    expect(bindNameNeighbour(c.candidates, c.probs, cx(owner, "medium"))).toBe(-1);
    expect(againstName(tokenize(bound), new Set(["cuisi"]), a.candidates.find((k) => k.value === "Seattle")!)).toBe(true);
  });

  it("takes a capitalised name that holds a parameter's name word whole, with the name it links to (unless namedLinks is off)", () => {
    const info = tool("museum_info", { museum_name: { type: "string", description: "Name of the museum." } }, ["museum_name"]);
    const q = "Find the opening hours of the Metropolitan Museum of Art.";
    const pick = (namedLinks: boolean) => {
      const f = functionView(info, { ...questionView(q, new Set()), namedRuns: true, nameLinks: ENGLISH_NAME_LINKS, namedLinks }, new Map());
      const p = f.params[0]!;
      const params: ScoredParam[] = [{ info: p, probs: p.candidates.map((c) => (c.value === "Art" ? 0.9 : 0.001)), pNull: 0 }];
      return assignLearned(f, params, undefined)[0]!.values[0]!.value;
    };
    expect(pick(true)).toBe("Metropolitan Museum of Art");
    expect(pick(false)).toBe("Metropolitan Museum");
  });
});

describe("factored caller: numbered siblings", () => {
  it("groups parameters named alike but for their digits, of one type, in their numbers' order", () => {
    const groups = siblingGroups([
      { name: "species2", type: "string" },
      { name: "species1", type: "string" },
      { name: "format", type: "string" },
      { name: "team_1", type: "string" },
      { name: "team_2", type: "integer" },
    ]);
    expect(groups).toEqual([[1, 0]]);
  });

  it("deals a joined list as long as the group one value each, and nothing else", () => {
    const joined = () => true;
    expect(dealSiblings([["human", "chimp"], ["out", "percentage"]], (a, b) => a === "human" && b === "chimp")).toEqual([["human"], ["chimp"]]);
    expect(dealSiblings([["Apple", "Samsung"], ["USA"]], joined)).toEqual([["Apple"], ["Samsung"]]);
    // two joined lists, a list of another length, or values not joined: left as they are
    expect(dealSiblings([["a", "b"], ["c", "d"]], joined)).toBeUndefined();
    expect(dealSiblings([["a", "b", "c"], undefined], joined)).toBeUndefined();
    expect(dealSiblings([["a", "b"], undefined], () => false)).toBeUndefined();
  });

  it("makes one call with each sibling its own value where the committed model made two (unless siblings is off)", () => {
    const court = tool(
      "find_court_case",
      {
        company1: { type: "string", description: "The first company." },
        company2: { type: "string", description: "The second company." },
        country: { type: "string", description: "The country." },
      },
      ["company1", "company2"],
    );
    const q = "Find the latest court case between Nokia and Ericsson in Finland.";
    const calls = (options = {}) => FactoredCallerModel.load("models/caller", options).calls([court], q);
    expect(calls()).toEqual([{ name: "find_court_case", arguments: { company1: "Nokia", company2: "Ericsson" } }]);
    expect(calls({ siblings: false }).length).toBe(2);
  });
});

describe("factored caller: the bar for calling at all", () => {
  // a scored function whose call chance is `p` (the call model reads x[0] alone here) and whose fill is `fill`
  const scoredAt = (name: string, p: number, fill = 1) => {
    const features = new Float32Array(14);
    features[0] = Math.log(p / (1 - p));
    features[5] = fill;
    return { view: { tool: tool(name, {}) } as never, params: [], features };
  };
  const w = { argument: [], function: [1], callThreshold: 0.3, more: [], moreThreshold: 0.9, maxCalls: 3 };
  const names = (s: ReturnType<typeof chooseFunctions>) => s.map((f) => f.view.tool.function.name);

  it("calls the likeliest function under the call threshold when none passes and it clears declineBelow (unless it is off)", () => {
    expect(DECLINE_BELOW).toBeLessThan(w.callThreshold);
    expect(names(chooseFunctions([scoredAt("a", 0.25), scoredAt("b", 0.1)], w))).toEqual(["a"]);
    expect(names(chooseFunctions([scoredAt("a", 0.25)], w, { declineBelow: false }))).toEqual([]);
    expect(names(chooseFunctions([scoredAt("a", 0.15)], w))).toEqual([]);
    // the fill floor still holds, and a function past the threshold brings no second one under it
    expect(names(chooseFunctions([scoredAt("a", 0.25, 0.2)], w))).toEqual([]);
    expect(names(chooseFunctions([scoredAt("a", 0.9), scoredAt("b", 0.2)], w))).toEqual(["a"]);
  });
});
