// One tool written five ways. Each file becomes the same Tool: the same JSON for the model, the same call.
//   npx tsx --conditions toolgen-source examples/tools-five-ways/main.ts
import { fileURLToPath } from "node:url";
import { executeToolCall, loadTools, toToolJson } from "toolgen";

const STYLES = ["json", "zod", "class", "spec", "function"];
const call = {
  id: "call-1",
  type: "function" as const,
  // "212" is a string, as models often write numbers: the schema says number, so it is coerced.
  function: { name: "convert_temperature", arguments: { value: "212", to: "celsius" } },
};

let reference: string | undefined;
for (const style of STYLES) {
  const tools = await loadTools(fileURLToPath(new URL(`${style}.ts`, import.meta.url)));
  const json = JSON.stringify(toToolJson(tools[0]!), null, 2);
  if (reference === undefined) {
    reference = json;
    console.log(`The tool as a model sees it (OpenAI / Hugging Face JSON):\n${json}\n`);
  }
  const result = await executeToolCall(call, tools);
  const answer = result.ok ? result.content : `error: ${result.error.message}`;
  console.log(
    `${style.padEnd(8)} ${json === reference ? "same JSON" : "DIFFERENT JSON"}  ` +
      `convert_temperature(value="212", to="celsius") → ${answer}`,
  );
}
