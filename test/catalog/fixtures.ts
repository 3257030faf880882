import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Writes small catalog files of every supported format into a fresh temp folder. */
export function writeFixtures(): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), "catalog-"));
  const api = (tool: string, apiName: string, description: string) => ({
    category_name: "Data",
    tool_name: tool,
    api_name: apiName,
    api_description: description,
    required_parameters: [{ name: "city", type: "STRING", description: "City name", default: "Paris" }],
    optional_parameters: [{ name: "days", type: "NUMBER", description: "", default: "" }],
    method: "GET",
    template_response: { temp: "float" },
  });
  const files: Record<string, string> = {};
  const put = (name: string, content: unknown): void => {
    files[name] = join(dir, name);
    writeFileSync(files[name], typeof content === "string" ? content : JSON.stringify(content));
  };
  put("apis.json", [api("Weather", "current", "Current weather"), api("Weather", "forecast", "Forecast")]);
  put("G1_demo.json", [
    {
      query: "Weather in Paris?",
      query_id: 7,
      api_list: [api("Weather", "current", "Current weather"), api("Movies", "search", "Find films")],
      "relevant APIs": [["Weather", "current"]],
    },
  ]);
  put("tools.json", { calculator: "Evaluates formulas", weather: "Weather forecasts" });
  put("queries.csv", 'Query,Tool\n"What is 2+2, please?",calculator\nRain tomorrow?,weather\n');
  put("multi.json", [{ query: "Add and weather", tool: ["calculator", "weather"] }]);
  put(
    "queries.jsonl",
    '{"query":"Rain?","relevant":["weather"]}\n{"query":"Sum","relevant":["calculator"]}\n',
  );
  put(
    "BFCL_v4_simple_python.json",
    JSON.stringify({
      id: "simple_python_0",
      question: [[{ role: "user", content: "Area of a triangle with base 10 and height 5" }]],
      function: [
        {
          name: "geometry.area",
          description: "Triangle area",
          parameters: {
            type: "dict",
            properties: {
              base: { type: "integer", description: "Base" },
              height: { type: "float" },
              sides: { type: "tuple", items: { type: "float" } },
              meta: { type: "dict", properties: { unit: { type: "String" } } },
              any: { type: "any" },
            },
            required: ["base", "height"],
          },
        },
      ],
    }) + "\n",
  );
  put("openapi.json", {
    openapi: "3.0.0",
    info: { title: "Pets" },
    components: {
      schemas: { Pet: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } },
    },
    paths: {
      "/pets/{id}": {
        parameters: [{ name: "id", in: "path", schema: { type: "integer" } }],
        get: {
          operationId: "getPet",
          summary: "Get a pet",
          parameters: [{ name: "verbose", in: "query", schema: { type: "boolean" } }],
        },
        put: {
          summary: "Replace a pet",
          requestBody: {
            required: true,
            content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" } } },
          },
        },
      },
    },
  });
  mkdirSync(join(dir, "toolbench", "Finance"), { recursive: true });
  files.toolbench = join(dir, "toolbench");
  writeFileSync(
    join(dir, "toolbench", "Finance", "stocks.json"),
    JSON.stringify({
      tool_name: "Stocks",
      tool_description: "Stock data",
      api_list: [
        {
          name: "quote",
          description: "Latest quote",
          method: "GET",
          required_parameters: [{ name: "symbol", type: "STRING", description: "Ticker", default: "AAPL" }],
          optional_parameters: [],
        },
      ],
    }),
  );
  files.dir = dir;
  return files;
}
