import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";

/** The README's agent snippets (examples/agents/*.ts) run as written, on a scripted model from $TOOLGEN_MODEL. */
const dir = mkdtempSync(join(tmpdir(), "toolgen-examples-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

async function runExample(name: string, replies: unknown[]): Promise<string> {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(replies));
  vi.stubEnv("TOOLGEN_MODEL", `scripted:${file}`);
  const lines: string[] = [];
  vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => void lines.push(args.join(" ")));
  await import(`../../examples/agents/${name}.ts`);
  return lines.join("\n");
}

const paris = { location: "Paris, France", unit: "celsius" };

describe("examples/agents", () => {
  it("functions.ts", async () => {
    const out = await runExample("functions", [
      { tool_calls: [{ name: "get_current_temperature", arguments: paris }] },
      "It is 22 °C in Paris.",
    ]);
    expect(out).toBe("It is 22 °C in Paris. (answer, 1 tool call(s))");
  });

  it("react.ts", async () => {
    const out = await runExample("react", [
      `I need the temperature.\nAction: get_current_temperature\nAction Input: ${JSON.stringify(paris)}`,
      "I now know the final answer.\nFinal Answer: 22 °C",
    ]);
    expect(out).toBe(
      "Thought: I need the temperature.\nThought: I now know the final answer.\nAnswer: 22 °C",
    );
  });

  it("toolgen.ts", async () => {
    const out = await runExample("toolgen", [
      "I should call the temperature tool.",
      "<<get_current_temperature>>",
      JSON.stringify(paris),
      "I have it.",
      "<<Finish>>",
      JSON.stringify({ return_type: "give_answer", final_answer: "22 °C in Paris" }),
    ]);
    expect(out).toBe("22 °C in Paris answer");
  });
});
