import { describe, expect, it } from "vitest";
import { argumentChoice, argumentCandidates, numbersIn, querySpans } from "../../src/demo/arguments.ts";
import { demoCatalog } from "../../src/demo/catalog.ts";
import { fillTemplate, functionTurn, generateSamples } from "../../src/demo/generator.ts";
import { demoTools } from "../../src/demo/catalog.ts";
import { SHOWN_QUESTIONS } from "../../src/demo/questions.ts";
import { actionDocumentation, agentTask, inputRequest } from "../../src/toolgen/agent-format.ts";

describe("arguments constraint", () => {
  it("offers each demo question's correct arguments among its candidates (--candidates)", async () => {
    const catalog = await demoCatalog();
    for (const { question, truth } of SHOWN_QUESTIONS) {
      if (!truth || truth.tool === "add_days") continue; // a date in words is passed as written
      const entry = catalog.find((e) => e.id === truth.tool)!;
      const doc = JSON.parse(actionDocumentation(`<<${truth.tool}>>`, entry)) as Parameters<
        typeof argumentCandidates
      >[0];
      const candidates = argumentCandidates(doc, question)!.map((c) => JSON.stringify(c));
      expect(candidates).toContain(JSON.stringify(truth.arguments));
    }
  }, 60_000);

  it("covers the generated questions' arguments for almost every tool", async () => {
    const tools = await demoTools();
    const catalog = await demoCatalog();
    const samples = generateSamples(tools, { perTool: 3, seed: 11 });
    let covered = 0;
    for (const s of samples) {
      if (s.tool === null) continue;
      const entry = catalog.find((e) => e.id === s.tool)!;
      const messages = [
        { role: "user" as const, content: agentTask(s.query) },
        { role: "user" as const, content: inputRequest(actionDocumentation(`<<${s.tool}>>`, entry)) },
      ];
      if (argumentChoice(messages)?.options.includes(JSON.stringify(s.arguments))) covered++;
    }
    expect(covered / samples.length).toBeGreaterThan(0.9);
  }, 60_000);

  it("reads numbers written with words and thousands commas", () => {
    expect(numbersIn("add seventeen and twenty-five")).toEqual([17, 25]);
    expect(numbersIn("three hundred and twelve, then 9,589 and 2.5")).toEqual([9589, 2.5, 312]);
    expect(numbersIn("a password of length twelve (seed 2024)")).toEqual([2024, 12]);
    expect(numbersIn("no numbers here")).toEqual([]);
  });

  it("reads quoted text and word runs, and offers the tools' results for <<Finish>>", () => {
    expect(querySpans('Count "a b" in "a b c"')).toEqual(expect.arrayContaining(["a b", "a b c", "Count"]));
    expect(fillTemplate("x {a} {b}", { a: 1 })).toBe("x 1 {b}");
    const finish = argumentChoice([
      { role: "user", content: agentTask("q") },
      { role: "tool", content: functionTurn("", "42 km = 26.09759 mi") },
      { role: "user", content: inputRequest(actionDocumentation("<<Finish>>", undefined)) },
    ]);
    expect(finish?.options).toEqual([
      JSON.stringify({ return_type: "give_answer", final_answer: "42 km = 26.09759 mi" }),
    ]);
    expect(argumentChoice([{ role: "user", content: "hello" }])).toBeUndefined();
  });
});
