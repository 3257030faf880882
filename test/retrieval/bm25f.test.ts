import { describe, expect, it } from "vitest";
import type { CatalogEntry } from "../../src/catalog/catalog.ts";
import {
  BM25F_DEFAULTS,
  Bm25fRetriever,
  FieldIndex,
  INDEX_FIELDS,
  type Bm25fParams,
} from "../../src/retrieval/bm25f.ts";
import { expandDocument, learnAssociations } from "../../src/retrieval/term-associations.ts";
import { toolFields } from "../../src/retrieval/tool-fields.ts";

function entry(
  tool: string,
  api: string,
  description: string,
  properties: Record<string, { type: string; description?: string; enum?: string[] }> = {},
): CatalogEntry {
  return {
    id: api === "" ? tool : `${tool}&&${api}`,
    tool,
    api,
    category: "Data",
    description,
    parameters: { type: "object", properties, required: [] },
    doc: {},
  };
}

const catalog = [
  // The word "forecast" is in this one's name only...
  entry("meteo", "getForecastByCity", "Current conditions for a place.", {
    city_name: { type: "string", description: "the town" },
  }),
  // ...and in this one's description only (twice, in a long text).
  entry(
    "news",
    "headlines",
    "Top stories of the day, including the forecast of markets and the forecast of sport.",
  ),
  entry("units", "convert", "Convert units.", {
    unit: { type: "string", enum: ["celsius", "fahrenheit"] },
  }),
];

const weights = (over: Partial<Bm25fParams["weights"]>): Bm25fParams => ({
  ...BM25F_DEFAULTS,
  weights: { ...BM25F_DEFAULTS.weights, ...over },
});

describe("tool fields", () => {
  it("cuts an entry into name, tool, description, parameter names and parameter text", () => {
    expect(toolFields(catalog[0])).toEqual({
      name: "getForecastByCity",
      tool: "meteo Data",
      description: "Current conditions for a place.",
      params: "city_name",
      paramText: "the town",
      response: "",
    });
    expect(toolFields(catalog[2]).paramText).toBe("celsius fahrenheit");
  });
});

describe("BM25F", () => {
  it("finds a tool by the words of its camelCase name and its parameters' enums", () => {
    const bm25f = new Bm25fRetriever(catalog);
    expect(bm25f.searchSync("forecast by city", { k: 1 })[0].id).toBe("meteo&&getForecastByCity");
    expect(bm25f.searchSync("in fahrenheit please", { k: 1 })[0].id).toBe("units&&convert");
  });

  it("moves a known ranking when a field's weight changes", () => {
    const nameHeavy = new Bm25fRetriever(catalog, weights({ name: 6, description: 1 }));
    const nameless = new Bm25fRetriever(catalog, weights({ name: 0, description: 1 }));
    expect(nameHeavy.searchSync("forecast", { k: 2 }).map((h) => h.id)).toEqual([
      "meteo&&getForecastByCity",
      "news&&headlines",
    ]);
    expect(nameless.searchSync("forecast", { k: 2 }).map((h) => h.id)).toEqual(["news&&headlines"]);
  });

  it("saturates once over fields: a word in two fields scores less than two independent matches", () => {
    const one = [entry("a", "forecast", "nothing here")];
    const two = [entry("a", "forecast", "forecast")];
    const params = weights({ name: 1, description: 1, tool: 0 });
    const s1 = new Bm25fRetriever(one, params).searchSync("forecast")[0].score;
    const s2 = new Bm25fRetriever(two, params).searchSync("forecast")[0].score;
    expect(s2).toBeGreaterThan(s1);
    expect(s2).toBeLessThan(2 * s1);
  });

  it("reads a field's term frequency by binary search", () => {
    const index = new FieldIndex(catalog);
    const description = INDEX_FIELDS.indexOf("description");
    expect(index.tf(description, "forecast", 1)).toBe(2);
    expect(index.tf(description, "forecast", 0)).toBe(0);
    expect(index.tf(description, "absent", 2)).toBe(0);
  });

  it("refuses a negative weight or a b outside [0, 1]", () => {
    expect(() => new Bm25fRetriever(catalog, weights({ name: -1 }))).toThrow(/field weights/);
    expect(
      () => new Bm25fRetriever(catalog, { ...BM25F_DEFAULTS, b: { ...BM25F_DEFAULTS.b, name: 2 } }),
    ).toThrow(/0 ≤ b ≤ 1/);
  });
});

describe("learnt document expansion", () => {
  // Three training tools whose documents say "recipe" and whose users say "cook"; one whose users do not.
  const units = [
    {
      documentTerms: ["recip", "food"],
      queries: [
        ["cook", "dinner"],
        ["cook", "pasta"],
      ],
    },
    { documentTerms: ["recip", "book"], queries: [["cook", "cake"]] },
    { documentTerms: ["recip", "drink"], queries: [["cook", "cocktail"]] },
    { documentTerms: ["weather"], queries: [["rain", "tomorrow"], ["sunni"]] },
  ];
  const associations = learnAssociations(units, {
    minTools: 3,
    perTerm: 5,
    minStrength: 0.05,
    queriesPerTool: 20,
    prior: 1,
  });

  it("learns which query words a document word brings, from tools that share the word", () => {
    expect(associations.table.recip?.[0]?.[0]).toBe("cook");
    expect(associations.table.weather).toBeUndefined(); // one tool only: it would learn that tool's queries
    expect(expandDocument(associations, ["recip", "soup"]).get("cook")).toBeGreaterThan(0);
  });

  it("lets a tool that no query named be found by its users' words", () => {
    const unseen = [entry("kitchen", "recipes", "Recipes for soup."), entry("garage", "parts", "Car parts.")];
    const withExpansion = { ...BM25F_DEFAULTS, weights: { ...BM25F_DEFAULTS.weights, expansion: 1 } };
    const plain = new Bm25fRetriever(new FieldIndex(unseen), withExpansion);
    const expanded = new Bm25fRetriever(new FieldIndex(unseen, { associations }), withExpansion);
    expect(plain.searchSync("how do I cook tonight")).toEqual([]);
    expect(expanded.searchSync("how do I cook tonight", { k: 1 })[0].id).toBe("kitchen&&recipes");
  });
});
