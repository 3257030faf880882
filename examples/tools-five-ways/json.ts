// Style 1: the OpenAI / Hugging Face JSON a model is shown, with the code that runs it attached by tool().
import { tool } from "toolgen";

export const convertTemperature = tool({
  name: "convert_temperature",
  description: "Convert a temperature between Celsius and Fahrenheit.",
  inputSchema: {
    type: "object",
    properties: {
      value: { type: "number", description: "The temperature to convert" },
      to: { type: "string", enum: ["celsius", "fahrenheit"], description: "The unit to convert to" },
    },
    required: ["value", "to"],
  },
  execute: ({ value, to }) =>
    to === "celsius" ? ((value as number) - 32) / 1.8 : (value as number) * 1.8 + 32,
});
