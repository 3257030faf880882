import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CatalogError } from "../../src/catalog/catalog.ts";
import { detectCatalogFormat, loadCatalog, loadQueries } from "../../src/catalog/load.ts";
import { writeFixtures } from "./fixtures.ts";

const f = writeFixtures();

describe("catalog importers", () => {
  it("recognises every format from the file itself", () => {
    expect(detectCatalogFormat(f["apis.json"])).toBe("stabletoolbench");
    expect(detectCatalogFormat(f["G1_demo.json"])).toBe("stabletoolbench-queries");
    expect(detectCatalogFormat(f["tools.json"])).toBe("metatool");
    expect(detectCatalogFormat(f["BFCL_v4_simple_python.json"])).toBe("bfcl");
    expect(detectCatalogFormat(f["openapi.json"])).toBe("openapi");
    expect(detectCatalogFormat(f.toolbench)).toBe("toolbench");
  });

  it("imports StableToolBench APIs with ToolBench parameters as JSON Schema", () => {
    const [entry] = loadCatalog(f["apis.json"]);
    expect(entry.id).toBe("Weather&&current");
    expect(entry.category).toBe("Data");
    expect(entry.parameters).toEqual({
      type: "object",
      properties: {
        city: { type: "string", description: "City name", default: "Paris" },
        days: { type: "number" },
      },
      required: ["city"],
    });
  });

  it("builds a catalog from a query file's api_lists and reads its labels", () => {
    const catalog = loadCatalog(f["G1_demo.json"]);
    expect(catalog.map((e) => e.id)).toEqual(["Weather&&current", "Movies&&search"]);
    expect(loadQueries(f["G1_demo.json"], catalog)).toEqual([
      { query: "Weather in Paris?", relevant: ["Weather&&current"], source: "G1_demo.json", id: "7" },
    ]);
  });

  it("imports MetaTool tools and its three query shapes", () => {
    const catalog = loadCatalog(f["tools.json"]);
    expect(catalog.map((e) => e.id)).toEqual(["calculator", "weather"]);
    expect(loadQueries(f["queries.csv"], catalog)[0]).toEqual({
      query: "What is 2+2, please?",
      relevant: ["calculator"],
      source: "queries.csv",
      id: "1",
    });
    expect(loadQueries(f["multi.json"], catalog)[0].relevant).toEqual(["calculator", "weather"]);
    expect(loadQueries(f["queries.jsonl"], catalog).map((q) => q.relevant[0])).toEqual([
      "weather",
      "calculator",
    ]);
  });

  it("converts BFCL types to JSON Schema", () => {
    const [entry] = loadCatalog(f["BFCL_v4_simple_python.json"]);
    expect(entry.id).toBe("geometry.area");
    expect(entry.parameters).toEqual({
      type: "object",
      properties: {
        base: { type: "integer", description: "Base" },
        height: { type: "number" },
        sides: { type: "array", items: { type: "number" } },
        meta: { type: "object", properties: { unit: { type: "string" } } },
        any: {},
      },
      required: ["base", "height"],
    });
  });

  it("imports OpenAPI operations (one tool each, $refs resolved) and ToolBench folders", () => {
    const ops = loadCatalog(f["openapi.json"]);
    expect(ops.map((e) => e.id)).toEqual(["Pets&&getPet", "Pets&&PUT /pets/{id}"]);
    expect(ops[0].parameters.required).toEqual(["id"]);
    expect(ops[1].parameters.properties.name).toEqual({ type: "string" });
    expect(ops[1].parameters.required).toEqual(["id", "name"]);
    const tb = loadCatalog(f.toolbench);
    expect(tb).toHaveLength(1);
    expect(tb[0]).toMatchObject({ id: "Stocks&&quote", category: "Finance", description: "Latest quote" });
  });

  it("names the file, the record and the field on bad input", () => {
    const bad = join(f.dir, "bad-apis.json");
    writeFileSync(
      bad,
      JSON.stringify([
        { tool_name: "A", api_name: "b" },
        { tool_name: "A", api_name: 3 },
      ]),
    );
    expect(() => loadCatalog(bad)).toThrow(CatalogError);
    expect(() => loadCatalog(bad)).toThrow(/bad-apis\.json, record 1, field "api_name": expected a string/);
    const dup = join(f.dir, "dup.json");
    writeFileSync(
      dup,
      JSON.stringify([
        { tool_name: "A", api_name: "b" },
        { tool_name: "A", api_name: "b" },
      ]),
    );
    expect(() => loadCatalog(dup)).toThrow(/record 1, field "id": duplicate id A&&b/);
    const bfcl = join(f.dir, "BFCL_v4_bad.json");
    writeFileSync(
      bfcl,
      JSON.stringify({
        id: "x_0",
        question: [],
        function: [{ name: "f", parameters: { type: "dict", properties: { a: { type: "quaternion" } } } }],
      }),
    );
    expect(() => loadCatalog(bfcl)).toThrow(
      /field "parameters.properties.a.type": unknown BFCL type "quaternion"/,
    );
    expect(() => loadQueries(f["queries.jsonl"], loadCatalog(f["apis.json"]))).toThrow(
      /queries\.jsonl, record "1", field "relevant": relevant id "weather" is not in the catalog/,
    );
    expect(() => loadCatalog(join(f.dir, "missing.json"))).toThrow(/no such file/);
    expect(() => loadCatalog(f["queries.csv"])).toThrow(/tools\.json/);
    const junk = join(f.dir, "junk.json");
    writeFileSync(junk, "[1, 2");
    expect(() => loadCatalog(junk)).toThrow(/junk\.json: not valid JSON/);
    expect(() => loadCatalog(f["tools.json"], { format: "nope" as never })).toThrow(/unknown format "nope"/);
  });
});
