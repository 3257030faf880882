import { describe, expect, it } from "vitest";
import { readBfclAnswers, readBfclCategory, type BfclFunctionDoc } from "../../src/catalog/import/bfcl.ts";
import { bfclV4Summary } from "../../src/eval/bfcl-aggregate.ts";
import { checkBfclItem, checkCall, type BfclCall } from "../../src/eval/bfcl-checker.ts";
import { answerToCall } from "../../src/eval/bfcl-oracle.ts";
import { sharedData } from "../helpers/shared-data.ts";

/** The rules where toolgen once differed from BFCL's AST checker (issue 20), one test each. */

const doc: BfclFunctionDoc = {
  name: "recipes.find",
  parameters: {
    type: "dict",
    properties: {
      diet: { type: "string" },
      unit: { type: "string" },
      ingredients: { type: "array", items: { type: "string" } },
      steps: { type: "array", items: { type: "dict" } },
      options: { type: "dict", properties: { vegan: { type: "boolean" } } },
      servings: { type: "array", items: { type: "float" } },
    },
    required: ["diet"],
  },
};
const expected = {
  "recipes.find": {
    diet: ["gluten-free"],
    unit: ["grams", ""],
    ingredients: [""],
    steps: [[{ n: [1] }], ""],
    options: [{ vegan: [true] }, ""],
    servings: [[1.0, 3.0]],
  },
};
const check = (args: Record<string, unknown>) =>
  checkCall(
    doc,
    { name: "recipes.find", arguments: { diet: "gluten-free", servings: [1, 3], ...args } },
    expected,
    "python",
  );

describe("BFCL rules as the leaderboard's checker applies them", () => {
  it('passes "" and text that normalises to nothing for an optional string (the allowed "" is normalised too)', () => {
    expect(check({ unit: "" }).valid).toBe(true);
    expect(check({ unit: " - " }).valid).toBe(true);
    expect(check({ unit: "Grams." }).valid).toBe(true);
    expect(check({ unit: "ounces" }).errorType).toBe("value_error:string");
    // Not optional: "" is no allowed string there.
    expect(check({ diet: "" }).errorType).toBe("value_error:string");
  });

  it('passes [] for an optional list, a list of dicts included ("" reads as the empty list)', () => {
    expect(check({ ingredients: [] }).valid).toBe(true);
    expect(check({ ingredients: ["rice"] }).errorType).toBe("value_error:list/tuple");
    expect(check({ steps: [] }).valid).toBe(true);
    expect(check({ steps: [{ n: 2 }] }).valid).toBe(false);
    // Not optional: servings allows only [1.0, 3.0].
    expect(check({ servings: [] }).errorType).toBe("value_error:list/tuple");
  });

  it("compares exactly, without normalising, where the answers are of another type than declared (a variable)", () => {
    const venue: BfclFunctionDoc = {
      name: "game.winner",
      parameters: { type: "dict", properties: { venue: { type: "string" } }, required: [] },
    };
    const answers = { "game.winner": { venue: ["", true] } };
    const verdict = (value: unknown) =>
      checkCall(venue, { name: "game.winner", arguments: { venue: value } }, answers, "python");
    expect(verdict("").valid).toBe(true);
    expect(verdict(" - ").errorType).toBe("value_error:others");
    expect(verdict("home").errorType).toBe("value_error:others");
  });

  it("deviation kept: 1 for true inside a dict fails (Python's 1 == True would pass it)", () => {
    expect(check({ options: { vegan: true } }).valid).toBe(true);
    expect(check({ options: { vegan: 1 } }).errorType).toBe("value_error:dict_value");
  });

  it("deviation: ints inside a float list pass (JSON cannot tell 1 from 1.0)", () => {
    expect(check({ servings: [1, 3] }).valid).toBe(true);
  });
});

describe("relevance and irrelevance, scored on whether the reply is a call", () => {
  const call = (name: string, args: Record<string, unknown> = {}): BfclCall => ({ name, arguments: args });
  it("irrelevance and live_irrelevance want no call: [] and an unnamed call count as none", () => {
    for (const category of ["irrelevance", "live_irrelevance"]) {
      expect(checkBfclItem(category, [doc], [], []).valid).toBe(true);
      expect(checkBfclItem(category, [doc], [call("")], []).valid).toBe(true);
      expect(checkBfclItem(category, [doc], [call("anything", { x: 1 })], []).errorType).toBe(
        "irrelevance_error:decoder_success",
      );
    }
  });

  it("live_relevance wants at least one call, whatever its name, arguments or count", () => {
    expect(checkBfclItem("live_relevance", [doc], [call("not.offered", { zzq: 1 })], []).valid).toBe(true);
    expect(checkBfclItem("live_relevance", [doc], [call("a"), call("b")], []).valid).toBe(true);
    expect(checkBfclItem("live_relevance", [doc], [], []).errorType).toBe("relevance_error:decoder_failed");
    expect(checkBfclItem("live_relevance", [doc], [call("")], []).errorType).toBe(
      "relevance_error:decoder_failed",
    );
  });
});

describe("BFCL v4 summary figures", () => {
  const s = (correct: number, total: number) => ({ correct, total });
  it("non-live is the unweighted mean of simple (itself a mean over languages) and the other three", () => {
    const v4 = bfclV4Summary({
      simple_python: s(300, 400), // 75
      simple_java: s(50, 100), // 50
      simple_javascript: s(50, 50), // 100 → simple 75
      multiple: s(180, 200), // 90
      parallel: s(160, 200), // 80
      parallel_multiple: s(140, 200), // 70
      irrelevance: s(200, 240),
    });
    expect(v4.simple).toMatchObject({ accuracy: 75, total: 550, missing: [] });
    expect(v4.non_live).toMatchObject({ accuracy: 78.75, total: 1150, missing: [] });
    expect(v4.irrelevance).toMatchObject({ accuracy: 83.33, missing: ["live_irrelevance"] });
    expect(v4.live).toEqual({ accuracy: null, total: 0, categories: [], missing: expect.any(Array) });
    expect(v4.relevance.accuracy).toBeNull();
  });

  it("live is item-weighted; irrelevance the unweighted mean of the two; relevance live_relevance alone", () => {
    const v4 = bfclV4Summary({
      live_simple: s(200, 250), // 80
      live_multiple: s(500, 1000), // 50
      live_parallel: s(8, 16),
      live_parallel_multiple: s(12, 24),
      irrelevance: s(240, 240), // 100
      live_irrelevance: s(441, 882), // 50
      live_relevance: s(12, 18),
    });
    expect(v4.live).toMatchObject({ accuracy: 55.81, total: 1290, missing: [] }); // 720/1290 (unweighted: 57.5)
    expect(v4.irrelevance).toMatchObject({ accuracy: 75, total: 1122 }); // (weighted: 60.7)
    expect(v4.relevance).toMatchObject({ accuracy: 66.67, total: 18 });
    expect(v4.non_live.accuracy).toBeNull();
  });

  it("reads BFCL v3 names (simple, java, javascript)", () => {
    const v4 = bfclV4Summary({ simple: s(1, 2), java: s(1, 1), javascript: s(0, 1) });
    expect(v4.simple).toMatchObject({ accuracy: 50, categories: ["simple", "java", "javascript"] });
  });
});

const bfclDir =
  process.env.TOOLGEN_BFCL_DATA ?? (sharedData("bfcl/BFCL_v4_simple_python.json") && sharedData("bfcl"));
describe.skipIf(!bfclDir)("the rules on concrete BFCL items", () => {
  const load = (category: string, id: string) => {
    const item = readBfclCategory(bfclDir as string, category).find((i) => i.id === id);
    const answer = readBfclAnswers(bfclDir as string, category).get(id);
    if (item === undefined || answer === undefined) throw new Error(`${id} is not in the shared data`);
    const calls = answer.map((e) =>
      answerToCall(
        e,
        item.docs.find((d) => d.name === Object.keys(e)[0]),
      ),
    );
    const verdict = (edit: (calls: BfclCall[]) => void) => {
      const copy = structuredClone(calls);
      edit(copy);
      return checkBfclItem(category, item.docs, copy, answer);
    };
    return verdict;
  };

  it('simple_python_0: unit "" and " - " pass (possible answers ["units", ""])', () => {
    const verdict = load("simple_python", "simple_python_0");
    expect(verdict(() => {}).valid).toBe(true);
    expect(verdict((c) => (c[0].arguments.unit = "")).valid).toBe(true);
    expect(verdict((c) => (c[0].arguments.unit = " - ")).valid).toBe(true);
    expect(verdict((c) => (c[0].arguments.unit = "meters")).errorType).toBe("value_error:string");
  });

  it('simple_python_307: venue "" passes, " - " fails (possible answers ["", true]: a variable, compared exactly)', () => {
    const verdict = load("simple_python", "simple_python_307");
    expect(verdict((c) => (c[0].arguments.venue = "")).valid).toBe(true);
    expect(verdict((c) => (c[0].arguments.venue = " - ")).valid).toBe(false);
  });

  it('simple_python_353: ingredients [] passes (possible answers [""])', () => {
    const verdict = load("simple_python", "simple_python_353");
    expect(verdict((c) => (c[0].arguments.ingredients = [])).valid).toBe(true);
    expect(verdict((c) => (c[0].arguments.ingredients = ["rice"])).valid).toBe(false);
  });

  it("simple_javascript_20: a dict's boolean given as 1 fails (documented deviation)", () => {
    const verdict = load("simple_javascript", "simple_javascript_20");
    expect(verdict(() => {}).valid).toBe(true);
    expect(
      verdict((c) => ((c[0].arguments.options as Record<string, unknown>).stopPropagation = 1)).errorType,
    ).toBe("value_error:dict_value");
  });

  it("parallel_178: reversed calls fail, as BFCL's greedy matching fails them (an Apple call fits two answers)", () => {
    const verdict = load("parallel", "parallel_178");
    expect(verdict(() => {}).valid).toBe(true);
    expect(verdict((c) => c.reverse()).errorType).toBe(
      "parallel_function_checker_no_order:cannot_find_match",
    );
  });
});
