import { describe, expect, it } from "vitest";
import { createToolGenAgent } from "../../src/agents/toolgen.ts";
import { BuiltinChatModel } from "../../src/models/builtin-chat.ts";
import { BuiltinTokenModel } from "../../src/models/builtin.ts";
import { presetConfig } from "../../src/nn/config.ts";
import { Llama } from "../../src/nn/llama.ts";
import { initParams } from "../../src/nn/params.ts";
import { Tokenizer } from "../../src/nn/tokenizer/index.ts";
import { LLAMA3_SPECIAL_TOKENS } from "../../src/nn/train/text.ts";
import { GENERATE_ACTION, TOOLGEN_AGENT_SYSTEM } from "../../src/toolgen/agent-format.ts";
import { getCurrentTemperature, squareRoot } from "../helpers/reference-tools.ts";

/**
 * The ToolGen agent on the built-in engine (an untrained tiny Llama): its replies are noise, but the action
 * turn is decoded under the choice constraint, so every action must be a real tool token or <<Finish>>.
 */
describe("ToolGen agent on the built-in engine", () => {
  it("only ever takes actions from the catalog, and ends with a stop reason", async () => {
    const toolTokens = ["<<get_current_temperature>>", "<<squareRoot>>", "<<Finish>>"];
    const tok = Tokenizer.train(
      [TOOLGEN_AGENT_SYSTEM, GENERATE_ACTION, "Please give the input. Paris"],
      600,
      {
        specialTokens: [...LLAMA3_SPECIAL_TOKENS, ...toolTokens],
      },
    );
    const cfg = presetConfig("tiny", tok.vocabSize, {
      hiddenSize: 32,
      intermediateSize: 64,
      numLayers: 1,
      numHeads: 2,
      maxPositions: 4096,
    });
    const model = new BuiltinChatModel(new BuiltinTokenModel(new Llama(cfg, initParams(cfg, 7)), tok));
    const agent = createToolGenAgent({
      model,
      tools: [getCurrentTemperature, squareRoot],
      maxTokens: 12,
      maxRounds: 9,
      retryTemperatures: [],
    });
    const run = await agent.chat("u", "What's the temperature in Paris?");
    expect(["answer", "max_steps", "too_many_errors", "repeated_action", "gave_up"]).toContain(
      run.stoppedBecause,
    );
    const actions = run.steps.flatMap((s) =>
      s.type === "model" && s.decoding?.turn === "action" ? [s.message.content] : [],
    );
    expect(actions.length).toBeGreaterThan(0);
    for (const action of actions) expect(toolTokens).toContain(action);
    expect(run.steps.some((s) => s.type === "guard" && s.guard === "unknown_action")).toBe(false);
  });
});
