// The tool-loop service: model → tool calls → tools → model, with memory per user (LangChain4j's AI services).
import { createAgent, loadTools, resolveModel } from "toolgen";

const agent = createAgent({
  model: await resolveModel(
    process.env.TOOLGEN_MODEL ?? "openai:qwen2.5-7b-instruct@http://127.0.0.1:8000/v1",
  ),
  tools: await loadTools("examples/weather.ts"),
  memory: { maxMessages: 20 }, // or { store: new SqliteChatMemoryStore("chat.sqlite") } to survive restarts
});
const run = await agent.chat("alice", "Hey, what's the temperature in Paris right now?");
console.log(run.answer, `(${run.stoppedBecause}, ${run.toolCalls.length} tool call(s))`);
