// toolgen tools in the Vercel AI SDK's shape, and AI SDK tools as toolgen tools, without the `ai` package:
// the adapter writes and reads the AI SDK's tools record by shape.
//   npx tsx --conditions toolgen-source examples/ai-sdk/main.ts
import { executeToolCall, fromAiSdkTools, toAiSdkTools, tool } from "toolgen";
import { z } from "zod";

// 1. toolgen → AI SDK: the record `generateText({ model, tools })` takes.
const weather = tool({
  name: "get_weather",
  description: "Current temperature in a city, in °C",
  inputSchema: z.object({ city: z.string().describe("City name") }),
  execute: ({ city }) => ({ city, celsius: 21 }),
});
const tools = toAiSdkTools([weather]);
const entry = tools.get_weather!;
console.log("toAiSdkTools([weather]):");
console.log(`  keys: ${Object.keys(tools).join(", ")}`);
console.log(`  description: ${entry.description}`);
console.log(
  `  inputSchema.jsonSchema: ${JSON.stringify((entry.inputSchema as { jsonSchema: unknown }).jsonSchema)}`,
);
console.log(
  `  marked as the AI SDK's jsonSchema(): ${Symbol.for("vercel.ai.schema") in (entry.inputSchema as object)}`,
);

// The AI SDK calls execute(input, { toolCallId, messages, abortSignal }); toolgen validates and coerces first.
const execute = async (input: object, toolCallId: string): Promise<unknown> =>
  entry.execute!(input as never, { toolCallId, messages: [] });
console.log(`  execute({ city: "Oslo" }) → ${await execute({ city: "Oslo" }, "call-1")}`);
try {
  await execute({ town: "Oslo" }, "call-2");
} catch (error) {
  console.log(
    `  execute({ town: "Oslo" }) throws (the AI SDK reports a tool error): ${(error as Error).message.replace(/\n/g, " ")}`,
  );
}

// 2. AI SDK → toolgen: a tools record written for the AI SDK (zod `inputSchema`, `execute(input, options)`).
const aiSdkRecord = {
  add: {
    description: "Add two numbers",
    inputSchema: z.object({ a: z.number(), b: z.number() }),
    execute: async ({ a, b }: { a: number; b: number }) => a + b,
  },
};
const [add] = fromAiSdkTools(aiSdkRecord);
console.log("\nfromAiSdkTools({ add }):");
console.log(`  ${JSON.stringify({ name: add!.name, parameters: add!.parameters })}`);
const result = await executeToolCall(
  { id: "c1", type: "function", function: { name: "add", arguments: { a: 2, b: "40" } } },
  [add!],
);
console.log(`  executeToolCall(add, { a: 2, b: "40" }) → ${JSON.stringify(result)}`);
