import { importToolList } from "../../src/catalog/import/jsonl.ts";
import type { CatalogEntry } from "../../src/catalog/catalog.ts";

/** A small OpenAI-style tool list written for these tests: every kind of schema the generator reads. */
export const FIXTURE_TOOLS = [
  {
    type: "function",
    function: {
      name: "book_table",
      description: "Books a table at a restaurant for a given date and party size.",
      parameters: {
        type: "object",
        properties: {
          restaurant: { type: "string", description: "Name of the restaurant, e.g. 'Chez Panisse'" },
          date: { type: "string", format: "date", description: "The day of the booking" },
          party_size: { type: "integer", minimum: 1, maximum: 12 },
          seating: { type: "string", enum: ["indoor", "outdoor", "bar"] },
          notes: { type: "string", maxLength: 40 },
        },
        required: ["restaurant", "date", "party_size"],
      },
    },
  },
  {
    type: "function",
    function: {
      name: "convertCurrency",
      description: "Convert an amount of money from one currency to another.",
      parameters: {
        type: "object",
        properties: {
          amount: { type: "number", exclusiveMinimum: 0, maximum: 1000000 },
          from: { type: "string", pattern: "^[A-Z]{3}$", description: "ISO code such as 'USD'" },
          to: { type: "string", pattern: "^[A-Z]{3}$", examples: ["EUR", "JPY"] },
          round: { type: "boolean", default: true },
        },
        required: ["amount", "from", "to"],
        additionalProperties: false,
      },
    },
  },
  {
    type: "function",
    function: {
      name: "send_invite",
      description: "This API sends calendar invites to a list of people.",
      parameters: {
        type: "object",
        properties: {
          emails: { type: "array", items: { type: "string", format: "email" }, minItems: 1, maxItems: 3 },
          starts_at: { type: "string", format: "date-time" },
          meeting: {
            type: "object",
            properties: {
              title: { type: "string" },
              minutes: { type: "integer", multipleOf: 15, minimum: 15 },
            },
            required: ["title"],
          },
          link: { type: "string", format: "uri" },
        },
        required: ["emails", "meeting"],
      },
    },
  },
  {
    type: "function",
    function: { name: "get_server_status", description: "", parameters: { type: "object", properties: {} } },
  },
  {
    type: "function",
    function: {
      name: "set_thermostat",
      description: "Set the thermostat's target temperature.",
      parameters: {
        type: "object",
        properties: {
          celsius: { type: "number", minimum: 5, maximum: 30, multipleOf: 0.5 },
          mode: { anyOf: [{ type: "string", enum: ["heat", "cool"] }, { type: "null" }] },
          zones: { type: "array", items: { type: "integer", minimum: 1, maximum: 9 }, uniqueItems: true },
        },
        required: ["celsius", "mode"],
      },
    },
  },
];

export function fixtureCatalog(): CatalogEntry[] {
  return importToolList(FIXTURE_TOOLS, "fixture.json");
}
