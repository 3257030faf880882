// ReAct: Thought / Action / Action Input / Observation as plain text, for models without native tool calls.
import { createReactAgent, loadTools, resolveModel } from "toolgen";

const agent = createReactAgent({
  model: await resolveModel(
    process.env.TOOLGEN_MODEL ?? "openai:qwen2.5-7b-instruct@http://127.0.0.1:8000/v1",
  ),
  tools: await loadTools("examples/weather.ts"),
  maxIterations: 8, // plus guards: unknown tool, bad input, dead loops, context trimming
});
for await (const event of agent.run("bob", "What's the temperature in Paris right now?")) {
  if (event.type === "thought") console.log("Thought:", event.text);
  if (event.type === "final") console.log("Answer:", event.answer);
}
