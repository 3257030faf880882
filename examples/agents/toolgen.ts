// ToolGen (paper Fig. 8): thought → action token (constrained to the catalog + <<Finish>>) → JSON input.
import { createToolGenAgent, loadCatalog, loadTools, resolveModel } from "toolgen";

const agent = createToolGenAgent({
  model: await resolveModel(process.env.TOOLGEN_MODEL ?? "openai:toolgen-8b@http://127.0.0.1:8000/v1"),
  tools: await loadTools("examples/weather.ts"), // implementations, matched to catalog ids by name
  ...(process.env.CATALOG ? { catalog: loadCatalog(process.env.CATALOG) } : {}), // documents
});
const run = await agent.chat("carol", "Hey, what's the temperature in Paris right now?");
console.log(run.answer, run.stoppedBecause);
