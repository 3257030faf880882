import { describe, expect, it } from "vitest";
import { demoTools } from "../../src/demo/catalog.ts";
import {
  DECLINE_THOUGHT,
  generateSamples,
  offTopicSamples,
  styleTemplate,
  trajectoriesFor,
} from "../../src/demo/generator.ts";
import { handwrittenSet } from "../../src/demo/model.ts";
import { normalizeQuestion } from "../../src/demo/off-topic.ts";
import { numberWords } from "../../src/demo/surface.ts";
import { Rng } from "../../src/nn/rng.ts";

describe("the demo generator", () => {
  const set = handwrittenSet();
  const never = new Set([...set.questions.map((q) => q.question), ...set.offTopic].map(normalizeQuestion));

  it("would produce some hand-written questions, and never does when told to exclude them", async () => {
    const tools = await demoTools();
    const hits = (exclude?: ReadonlySet<string>) =>
      [1, 2, 3].flatMap((seed) =>
        generateSamples(tools, { perTool: 40, seed, ...(exclude ? { exclude } : {}) }).filter((s) =>
          never.has(normalizeQuestion(s.query)),
        ),
      );
    expect(hits().length).toBeGreaterThan(0); // so the exclusion below is tested, not vacuous
    expect(hits(never)).toEqual([]);
    expect(offTopicSamples(240, 501, never).filter((s) => never.has(normalizeQuestion(s.query)))).toEqual([]);
  }, 60_000);

  it("writes numbers as words, units by name and dates in several forms", async () => {
    const tools = await demoTools();
    const samples = generateSamples(tools, { perTool: 40, seed: 1 });
    const text = samples.map((s) => s.query).join("\n");
    expect(text).toMatch(/\b(twenty|thirty|forty|fifty)-?\s?\w*/);
    expect(text).toMatch(/\b(kilometres|miles|pounds|gallons|fahrenheit)\b/i);
    expect(text).toMatch(
      /\b(January|February|March|April|May|June|July|August|September|October|November|December) \d/,
    );
    expect(numberWords(25)).toBe("twenty-five");
    expect(numberWords(312)).toBe("three hundred and twelve");
    expect(numberWords(2000)).toBe("two thousand");
  }, 60_000);

  it("styles templates without touching the slots", () => {
    const rng = new Rng(3);
    for (let i = 0; i < 200; i++)
      expect(styleTemplate("Convert {value} {from_unit} to {to_unit}", rng)).toMatch(
        /\{value\} \{from_unit\} \w+ \{to_unit\}/,
      );
  });

  it("teaches off-topic questions to decline with give_up_and_restart", async () => {
    const tools = await demoTools();
    const [sample] = offTopicSamples(1, 5, new Set());
    const { trajectories } = await trajectoriesFor([sample!], tools);
    expect(trajectories[0]!.steps).toEqual([
      { thought: DECLINE_THOUGHT, action: "Finish", arguments: { return_type: "give_up_and_restart" } },
    ]);
    expect(DECLINE_THOUGHT).not.toMatch(/give up|sorry/i); // the agent would re-ask such a thought
  });
});
