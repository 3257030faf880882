// An agent with 200 tools that offers the model only the 5 a BM25 search finds for each question.
//   npx tsx --conditions toolgen-source examples/agent-200-tools/main.ts                  (a scripted model, offline)
//   TOOLGEN_MODEL=openai:qwen2.5:7b@http://127.0.0.1:11434/v1 npx tsx --conditions toolgen-source examples/agent-200-tools/main.ts
import { Bm25Retriever, catalogEntryFromTool, createAgent, resolveModel, type ChatModel } from "toolgen";
import { ScriptedModel, type ScriptedReply } from "toolgen/testing";
import { TOOLS } from "./tools.ts";

const QUESTIONS: Array<[string, { name: string; arguments: Record<string, unknown> }]> = [
  [
    "How many euros do I get for 120 US dollars?",
    { name: "convert_currency", arguments: { amount: 120, from: "USD", to: "EUR" } },
  ],
  ["What's the weather like in Lisbon right now?", { name: "get_weather", arguments: { city: "Lisbon" } }],
];

/**
 * Without TOOLGEN_MODEL, a stand-in for an LLM: it calls the tool written next to the question above if the
 * agent offered it (and says it cannot otherwise), then answers with the tool's result.
 */
const respond: ScriptedReply = (messages, options) => {
  const last = messages.at(-1);
  if (last?.role === "tool") return `The ${last.name ?? "tool"} tool says: ${last.content}`;
  const call = QUESTIONS.find(([question]) => question === last?.content)?.[1];
  return call && options.tools?.some((t) => t.function.name === call.name)
    ? { tool_calls: [call] }
    : "None of the tools I was offered can do that.";
};
const scriptedModel = (): ChatModel => new ScriptedModel(QUESTIONS.flatMap(() => [respond, respond]));

const model = process.env.TOOLGEN_MODEL ? await resolveModel(process.env.TOOLGEN_MODEL) : scriptedModel();
const retriever = new Bm25Retriever(TOOLS.map(catalogEntryFromTool));
const agent = createAgent({ model, tools: TOOLS, retriever, topK: 5 });

console.log(`${TOOLS.length} tools; each question is shown the 5 that BM25 ranks first.\n`);
for (const [i, [question]] of QUESTIONS.entries()) {
  const offered = (await retriever.search(question, { k: 5 })).map((hit) => hit.id);
  const run = await agent.chat(`user-${i}`, question); // a memory id per conversation
  console.log(`Q: ${question}`);
  console.log(`   offered: ${offered.join(", ")}`);
  for (const { call, result } of run.toolCalls)
    console.log(
      `   called:  ${call.function.name}(${JSON.stringify(call.function.arguments)}) → ${result.ok ? result.content : result.error.message}`,
    );
  console.log(`A: ${run.answer} (${run.stoppedBecause})\n`);
}
