// A plain-node program using the installed toolgen package: no TypeScript, no build step, no model server.
import { Bm25Retriever, catalogEntryFromTool, createAgent, tool } from "toolgen";
import { ScriptedModel } from "toolgen/testing";

const tools = [
  tool({
    name: "add",
    description: "Add two numbers",
    inputSchema: {
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a", "b"],
    },
    execute: ({ a, b }) => a + b,
  }),
  tool({
    name: "shout",
    description: "Write a text in capital letters",
    inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    execute: ({ text }) => text.toUpperCase(),
  }),
];

// Tool search over the tools' descriptions.
const hits = await new Bm25Retriever(tools.map(catalogEntryFromTool)).search("add up two numbers", { k: 1 });
console.log(`search "add up two numbers" → ${hits[0]?.id}`);

// An agent run on a scripted model (offline): it calls add with "2" and 40, then answers. A real model is one
// line away: `model: await resolveModel("openai:qwen2.5:7b@http://127.0.0.1:11434/v1")` (a local Ollama).
const model = new ScriptedModel([
  { tool_calls: [{ name: "add", arguments: { a: "2", b: 40 } }] },
  (messages) => `The sum is ${messages.at(-1).content}.`,
]);
const run = await createAgent({ model, tools }).chat("user-1", "What is 2 + 40?");
const [call] = run.toolCalls;
console.log(`agent: ${call.call.function.name} → ${call.result.content}; answer: ${run.answer}`);
