import { describe, expect, it } from "vitest";
import { demoCatalog, demoTools } from "../../src/demo/catalog.ts";
import { openDemoModel, prepareDemoModel, withSandbox } from "../../src/demo/model.ts";
import { SHOWN_QUESTIONS } from "../../src/demo/questions.ts";
import { createDemoRunner } from "../../src/demo/runner.ts";

/**
 * The main job end to end, on the model `npm start` uses (the committed one, which must fit the current catalog
 * and generator; after changing them run npm run demo:model): every step is printed with what decided it and
 * what constrained it, and the model's own arguments and final answers are what the tools really returned.
 */
describe("toolgen demo", () => {
  it("prints what the model decided and what constrained it", { timeout: 600_000 }, async () => {
    const lines: string[] = [];
    const { dir, committed } = await prepareDemoModel({
      progress: false,
      log: (l) => lines.push(l),
      trainIfStale: false,
    });
    expect({ committed, lines }).toEqual({ committed: true, lines: [] });
    const { chat } = openDemoModel(dir);
    const [tools, catalog] = [await demoTools(), await demoCatalog()];
    let printed = "";
    const runner = createDemoRunner({ model: chat, catalog, tools, write: (t) => (printed += t) });
    await withSandbox(async () => {
      for (const q of SHOWN_QUESTIONS) {
        const got = await runner.ask(q.question);
        // Whatever the model answered, each call it made ran for real and the answer is its own text.
        for (const c of got.calls) expect(tools.map((t) => t.name)).toContain(c.tool);
        if (got.stoppedBecause === "answer") expect(got.answer).not.toBeNull();
        else expect(got.answer).toBeNull();
      }
    });
    expect(printed).toMatch(
      /action {5}<<\w+>> {3}\(the model's token, decoded over the 67 tool tokens and <<Finish>>\)/,
    );
    expect(printed).toMatch(
      /arguments {2}\{.*\} {3}\(written by the model under the tool's JSON Schema, its free strings and numbers copied from the question\)/,
    );
    expect(printed).toMatch(
      /arguments {2}\{"return_type":"give_answer".*\} {3}\(written by the model under the Finish schema: the last tool result whole\)/,
    );
    expect(printed).not.toMatch(/candidates/);
  });
});
