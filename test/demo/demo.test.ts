import { describe, expect, it } from "vitest";
import { demoTools } from "../../src/demo/catalog.ts";
import { openDemoModel, prepareDemoModel, withSandbox } from "../../src/demo/model.ts";
import { DEMO_QUESTIONS } from "../../src/demo/questions.ts";
import { createDemoRunner } from "../../src/demo/runner.ts";
import { demoCatalog } from "../../src/demo/catalog.ts";
import { executeToolCall } from "../../src/tools/execute.ts";

/**
 * The main job end to end, on the model `npm start` uses (the committed one; a model trained into
 * .cache/demo-model only if the catalog changed since): every demo question goes through the ToolGen agent and
 * its answer is what the right tool really returns for the question.
 */
describe("toolgen demo", () => {
  it("answers each demo question with the tool's real output", { timeout: 600_000 }, async () => {
    const lines: string[] = [];
    const { dir, committed } = await prepareDemoModel({ progress: false, log: (l) => lines.push(l) });
    // The committed model must fit the current catalog and generator; after changing them run npm run demo:model.
    expect({ committed, lines }).toEqual({ committed: true, lines: [] });
    const { chat } = openDemoModel(dir);
    const [tools, catalog] = [await demoTools(), await demoCatalog()];
    let printed = "";
    const runner = createDemoRunner({ model: chat, catalog, tools, write: (t) => (printed += t) });
    await withSandbox(async () => {
      for (const q of DEMO_QUESTIONS) {
        const got = await runner.ask(q.question);
        const truth = await executeToolCall(
          { id: "truth", type: "function", function: { name: q.tool, arguments: q.arguments } },
          tools,
        );
        expect(truth.ok).toBe(true);
        expect({ question: q.question, stopped: got.stoppedBecause, answer: got.answer }).toEqual({
          question: q.question,
          stopped: "answer",
          answer: truth.ok ? truth.content : "",
        });
        expect(got.calls.map((c) => c.tool)).toContain(q.tool);
      }
    });
    expect(printed.match(/^Answer: /gm)).toHaveLength(DEMO_QUESTIONS.length);
    expect(printed).toMatch(/action {5}<<\w+>>/);
  });
});
