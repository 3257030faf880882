// 200 tools: five that do something, and 195 made up from 39 topics × 5 actions so that many of them
// share words ("get", "current", "list", "price", "city") with the ones a question needs.
import { tool, type Tool } from "toolgen";

const RATES: Record<string, number> = { USD: 1, EUR: 0.92, GBP: 0.79, JPY: 151.2, CHF: 0.88 };

const REAL: Tool[] = [
  tool({
    name: "convert_currency",
    description:
      "Convert an amount of money (dollars, euros, pounds, yen, francs) into another currency at today's exchange rate.",
    inputSchema: {
      type: "object",
      properties: {
        amount: { type: "number", description: "The amount to convert" },
        from: { type: "string", enum: Object.keys(RATES), description: "ISO code of the currency held" },
        to: { type: "string", enum: Object.keys(RATES), description: "ISO code of the currency wanted" },
      },
      required: ["amount", "from", "to"],
    },
    execute: ({ amount, from, to }) =>
      Math.round(((amount as number) / RATES[from as string]!) * RATES[to as string]! * 100) / 100,
  }),
  tool({
    name: "get_weather",
    description: "Current weather (temperature in °C and sky) in a city.",
    inputSchema: {
      type: "object",
      properties: { city: { type: "string", description: "The city, e.g. Lisbon" } },
      required: ["city"],
    },
    execute: ({ city }) => ({ city, temperature: 19, sky: "sunny" }),
  }),
  tool({
    name: "count_words",
    description: "Count the words in a text.",
    inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    execute: ({ text }) => String(text).split(/\s+/).filter(Boolean).length,
  }),
  tool({
    name: "book_restaurant_table",
    description: "Reserve a table at a restaurant for a number of people at a given time.",
    inputSchema: {
      type: "object",
      properties: {
        restaurant: { type: "string" },
        people: { type: "integer", minimum: 1 },
        time: { type: "string", description: "e.g. 19:30" },
      },
      required: ["restaurant", "people", "time"],
    },
    execute: ({ restaurant, people, time }) => `table for ${people} at ${restaurant}, ${time}: confirmed`,
  }),
  tool({
    name: "translate_text",
    description: "Translate a short text into another language.",
    inputSchema: {
      type: "object",
      properties: { text: { type: "string" }, language: { type: "string" } },
      required: ["text", "language"],
    },
    execute: ({ text, language }) => `[${language}] ${text}`,
  }),
];

const TOPICS = [
  "stock",
  "flight",
  "hotel",
  "recipe",
  "movie",
  "song",
  "podcast",
  "news article",
  "job posting",
  "invoice",
  "calendar event",
  "email",
  "contact",
  "task",
  "note",
  "file",
  "photo",
  "playlist",
  "parking spot",
  "train",
  "bus route",
  "bike station",
  "package delivery",
  "order",
  "product",
  "coupon",
  "bank account",
  "loan",
  "insurance policy",
  "doctor appointment",
  "prescription",
  "workout",
  "meal plan",
  "book",
  "course",
  "github issue",
  "server",
  "database backup",
  "support ticket",
];
const ACTIONS: Array<[string, (topic: string) => string]> = [
  ["get", (t) => `Get the details of one ${t} by its id.`],
  ["search", (t) => `Search ${t}s by keyword, city or date.`],
  ["list", (t) => `List the most recent ${t}s of the current user.`],
  ["create", (t) => `Create a new ${t} with the given fields.`],
  ["price", (t) => `Get the current price or cost of a ${t}.`],
];

function madeUp(topic: string, action: string, description: string): Tool {
  const name = `${action}_${topic.replaceAll(" ", "_")}`;
  return tool({
    name,
    description,
    inputSchema: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
    execute: ({ query }) => `${name}(${JSON.stringify(query)}): nothing found`,
  });
}

export const TOOLS: Tool[] = [
  ...REAL,
  ...TOPICS.flatMap((topic) => ACTIONS.map(([action, describe]) => madeUp(topic, action, describe(topic)))),
];
