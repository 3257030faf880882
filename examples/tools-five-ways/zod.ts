// Style 2: a zod schema; the arguments reach execute() typed.
import { tool } from "toolgen";
import { z } from "zod";

export const convertTemperature = tool({
  name: "convert_temperature",
  description: "Convert a temperature between Celsius and Fahrenheit.",
  inputSchema: z.object({
    value: z.number().describe("The temperature to convert"),
    to: z.enum(["celsius", "fahrenheit"]).describe("The unit to convert to"),
  }),
  execute: ({ value, to }) => (to === "celsius" ? (value - 32) / 1.8 : value * 1.8 + 32),
});
