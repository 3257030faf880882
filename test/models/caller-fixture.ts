import type { CallerExample } from "../../src/train/caller-data.ts";
import type { ToolJson } from "../../src/tools/types.ts";

/** A few hand-made functions and questions for the function caller's tests (no synth, no BFCL). */
export const WEATHER: ToolJson = {
  type: "function",
  function: {
    name: "get_weather",
    description: "Current weather in a city.",
    parameters: {
      type: "object",
      properties: {
        city: { type: "string", description: "City name" },
        unit: { type: "string", enum: ["celsius", "fahrenheit"], description: "Temperature unit" },
      },
      required: ["city"],
    },
  },
};

export const ADD: ToolJson = {
  type: "function",
  function: {
    name: "math.add",
    description: "Add two numbers.",
    parameters: {
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a", "b"],
    },
  },
};

export const TRANSLATE: ToolJson = {
  type: "function",
  function: {
    name: "translate_text",
    description: "Translate a text into another language.",
    parameters: {
      type: "object",
      properties: {
        text: { type: "string" },
        target: { type: "string", enum: ["fr", "de", "es"] },
        formal: { type: "boolean" },
      },
      required: ["text", "target"],
    },
  },
};

export const FIXTURE_TOOLS = [WEATHER, ADD, TRANSLATE];

export const FIXTURE: CallerExample[] = [
  { tools: [WEATHER, ADD], question: "What is the weather in Lisbon?", calls: [{ name: "get_weather", arguments: { city: "Lisbon" } }] },
  { tools: [ADD, WEATHER], question: "What is 12 plus 30?", calls: [{ name: "math.add", arguments: { a: 12, b: 30 } }] },
  {
    tools: [TRANSLATE],
    question: "Translate good morning into fr",
    calls: [{ name: "translate_text", arguments: { text: "good morning", target: "fr" } }],
  },
  {
    tools: [WEATHER],
    question: "Weather in Oslo and in Rome in celsius",
    calls: [
      { name: "get_weather", arguments: { city: "Oslo", unit: "celsius" } },
      { name: "get_weather", arguments: { city: "Rome", unit: "celsius" } },
    ],
  },
  { tools: [WEATHER], question: "Tell me a joke about cats", calls: [] },
  { tools: [ADD, TRANSLATE], question: "Who painted the Mona Lisa?", calls: [] },
];
