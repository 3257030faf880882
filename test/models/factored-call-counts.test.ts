import { describe, expect, it } from "vitest";
import { foreignNamed, namedSpan, placesOf, type ScoredFunction } from "../../src/models/factored/decide.ts";
import { functionView, questionView } from "../../src/models/factored/features.ts";
import { flagTurns } from "../../src/models/factored/flag-turns.ts";
import { ENGLISH_NEGATIONS } from "../../src/models/factored/negations.ts";
import { tokenize } from "../../src/models/factored/text.ts";
import { wholeCalls } from "../../src/models/factored/whole-calls.ts";
import type { ToolJson } from "../../src/tools/types.ts";

const joiners = new Set(["and"]);
const everywhere = () => true;

describe("factored caller: a sentence's first word in a further value", () => {
  it("makes no name of a longer span, and keeps a one-word span's capital", () => {
    const t = tokenize("Can you tell me the scores in the English Premier League for the last 5 rounds?");
    const at = (w: string) => t.findIndex((k) => k.text === w);
    expect(namedSpan(t, 0, 3)).toBe(false); // "Can you tell"
    expect(namedSpan(t, at("English"), at("League") + 1)).toBe(true);
    expect(namedSpan(t, 0, 1)).toBe(true); // "Can" alone may be a name
    // a sentence's first word before a capitalised one still names
    const u = tokenize("Manchester United played. Real Madrid won.");
    expect(namedSpan(u, 0, 2)).toBe(true);
    expect(namedSpan(u, 4, 6)).toBe(true);
  });
});

describe("factored caller: enum members spelt alike but for their capitals", () => {
  const tool: ToolJson = {
    type: "function",
    function: {
      name: "genotype_frequency",
      description: "Frequency of a genotype.",
      parameters: {
        type: "object",
        properties: { genotype: { type: "string", enum: ["AA", "Aa", "aa"] } },
        required: ["genotype"],
      },
    },
  };
  const q = "the homozygous dominant genotype (AA), heterozygous genotype (Aa), and homozygous recessive genotype (aa)";
  const member = (value: string) => ({ family: "enum" as const, value, start: -1, end: -1, quoted: false });

  it("places each member where the question writes it letter for letter", () => {
    const f = functionView(tool, { ...questionView(q, joiners), exactPlaces: true }, new Map());
    const t = f.view.tokens;
    const text = (r: [number, number][]) => r.map(([a, b]) => t.slice(a, b).map((k) => k.text).join(" "));
    expect(text(placesOf(f, member("AA")))).toEqual(["AA"]);
    expect(text(placesOf(f, member("Aa")))).toEqual(["Aa"]);
    expect(text(placesOf(f, member("aa")))).toEqual(["aa"]);
    expect(placesOf(f, member("Aa"))[0]![0]).toBeGreaterThan(placesOf(f, member("AA"))[0]![0]);
  });

  it("without exact places, all three share the first place of their stem (the ablation)", () => {
    const f = functionView(tool, questionView(q, joiners), new Map());
    expect(placesOf(f, member("Aa"))).toEqual(placesOf(f, member("AA")));
    expect(placesOf(f, member("aa"))).toEqual(placesOf(f, member("AA")));
  });
});

describe("factored caller: a flag named both ways", () => {
  const turns = (q: string, stems: string[], inPart: (k: number) => boolean = everywhere) =>
    flagTurns(tokenize(q), new Set(stems), ENGLISH_NEGATIONS, joiners, inPart);

  it("takes true where the name is plain and false where negated, in the order written", () => {
    expect(turns("The process is isothermal. Can you calculate it? What if the process is not isothermal?", ["isoth"])).toEqual([true, false]);
    expect(turns("No verdict for the first case; the verdict for the second case", ["verdi"])).toEqual([false, true]);
    // a name of two words, each within a word or two of the other
    expect(turns("considering the impact of human activities, and then without considering human impact", ["impac", "human"])).toEqual([true, false]);
  });

  it("asks nothing where the flag is said one way only", () => {
    expect(turns("The process is isothermal. Is the process isothermal?", ["isoth"])).toBeUndefined();
    expect(turns("The process is not isothermal.", ["isoth"])).toBeUndefined();
    expect(turns("no words of the flag here", ["isoth"])).toBeUndefined();
  });

  it("reads only the part of the question given (a function's segment)", () => {
    const q = "The process is isothermal. What if the process is not isothermal?";
    const t = tokenize(q);
    const cut = t.findIndex((k) => k.text === "What");
    expect(turns(q, ["isoth"], (k) => k < cut)).toBeUndefined();
  });
});

describe("factored caller: calls that lack a required argument", () => {
  const circle = [{ name: "circle.area", arguments: { radius: 5 } }];
  const rectangle = [{ name: "rectangle.perimeter", arguments: { breadth: 5 } }];
  const required = [["radius"], ["length", "breadth"]];

  it("drops them where another call is made", () => {
    expect(wholeCalls([circle, rectangle], required)).toEqual([circle, []]);
  });

  it("keeps one where it would be the only call, unless always", () => {
    expect(wholeCalls([[], rectangle], required)).toEqual([[], rectangle]);
    expect(wholeCalls([[], rectangle], required, true)).toEqual([[], []]);
  });
});

describe("factored caller: values another called function names", () => {
  const tool = (name: string, params: string[]): ToolJson => ({
    type: "function",
    function: {
      name,
      description: name,
      parameters: { type: "object", properties: Object.fromEntries(params.map((p) => [p, { type: "number" }])), required: params },
    },
  });
  const q = "The first material has a density of 5.2 g/cm^3. Two cones, each with a base radius of 10 cm and a height of 30 cm.";
  const view = questionView(q, joiners);
  const scored = (t: ToolJson): ScoredFunction => {
    const f = functionView(t, view, new Map());
    return { view: f, params: f.params.map((info) => ({ info, probs: [], pNull: 0 })), features: new Float32Array() };
  };
  const chosen = [scored(tool("cone_volume", ["radius", "height"])), scored(tool("cone_mass", ["radius", "height", "density"]))];
  const number = (text: string) => {
    const at = view.tokens.findIndex((k) => k.text === text);
    return { family: "number" as const, value: Number(text), start: at, end: at + 1, quoted: false };
  };

  it("gives a number named by another function's parameter, none of this one's, to that function", () => {
    const foreign = foreignNamed(chosen, 0);
    expect(foreign(number("5.2"))).toBe(true);
    expect(foreign(number("10"))).toBe(false); // radius: this function's own parameter's name
    expect(foreign(number("30"))).toBe(false);
    // the function that names it keeps it
    expect(foreignNamed(chosen, 1)(number("5.2"))).toBe(false);
  });
});
