import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { createToolGenAgent } from "../../src/agents/toolgen.ts";
import { englishPolicy, neutralPolicy } from "../../src/constrain/policy.ts";
import type { Message } from "../../src/chat/messages.ts";
import { BuiltinTokenModel } from "../../src/models/builtin.ts";
import { BuiltinChatModel } from "../../src/models/builtin-chat.ts";
import { UnsupportedConstraintError } from "../../src/models/http-errors.ts";
import type { ChatModel, GenerateOptions } from "../../src/models/model.ts";
import { ScriptedModel } from "../../src/models/scripted.ts";
import { presetConfig } from "../../src/nn/config.ts";
import { Llama } from "../../src/nn/llama.ts";
import { initParams } from "../../src/nn/params.ts";
import { Tokenizer } from "../../src/nn/tokenizer/index.ts";
import { LLAMA3_SPECIAL_TOKENS } from "../../src/nn/train/text.ts";
import {
  actionDocumentation,
  FINISH_ARGUMENTS_SCHEMA,
  FINISH_DECLINE_SCHEMA,
  inputRequest,
  TOOLGEN_AGENT_SYSTEM,
} from "../../src/toolgen/agent-format.ts";
import { getCurrentTemperature, sum } from "../helpers/reference-tools.ts";

const finish = (answer: string) => JSON.stringify({ return_type: "give_answer", final_answer: answer });

describe("ToolGen agent: the arguments turn under a json-schema constraint", () => {
  it("asks for the tool's parameters schema, then the Finish schema", async () => {
    const model = new ScriptedModel([
      "I call the temperature tool.",
      "<<get_current_temperature>>",
      '{"location":"Paris, France","unit":"celsius"}',
      "I can answer.",
      "<<Finish>>",
      finish("22 °C"),
    ]);
    const agent = createToolGenAgent({
      model,
      tools: [getCurrentTemperature, sum],
      argumentsConstraint: "json-schema",
      maxTokens: 24,
      argumentsMaxTokens: 96,
    });
    const run = await agent.chat("u", "Temperature in Paris?");
    expect(model.calls[0]!.options.maxTokens).toBe(24);
    expect(model.calls[2]!.options.maxTokens).toBe(96);
    expect(run).toMatchObject({ answer: "22 °C", stoppedBecause: "answer" });
    expect(model.calls[2]!.options.constraint).toEqual({
      kind: "json-schema",
      schema: getCurrentTemperature.parameters,
    });
    expect(model.calls[5]!.options.constraint).toEqual({
      kind: "json-schema",
      schema: FINISH_ARGUMENTS_SCHEMA,
    });
    // every model step says which turn it was and what constrained it
    const decodings = run.steps.flatMap((s) => (s.type === "model" ? [s.decoding] : []));
    expect(decodings).toEqual([
      { turn: "thought", constraint: "none" },
      { turn: "action", constraint: "choice", options: 3 },
      { turn: "arguments", constraint: "json-schema" },
      { turn: "thought", constraint: "none" },
      { turn: "action", constraint: "choice", options: 3 },
      { turn: "finish", constraint: "json-schema" },
    ]);
    // free by default
    const free = new ScriptedModel(["t", "<<Finish>>", finish("x")]);
    await createToolGenAgent({ model: free, tools: [sum] }).chat("u", "q");
    expect(free.calls[2]!.options.constraint).toBeUndefined();
  });

  it("json-schema+copy: arguments copy from the question, the final answer also from the last result", async () => {
    const model = new ScriptedModel([
      "I add.",
      "<<sum>>",
      '{"a":2,"b":3}',
      "I can answer.",
      "<<Finish>>",
      finish("5"),
    ]);
    const agent = createToolGenAgent({ model, tools: [sum], argumentsConstraint: "json-schema+copy" });
    const run = await agent.chat("u", "What is 2 plus 3?");
    expect(run).toMatchObject({ answer: "5", stoppedBecause: "answer" });
    expect(model.calls[2]!.options.constraint).toEqual({
      kind: "json-schema",
      schema: sum.parameters,
      copyFrom: ["What is 2 plus 3?"],
      quotesWhole: [true],
      quotesFirst: true, // a call's string arguments take what the question quotes first
      whole: [false],
      requestWords: ["sum", "please", "pls", "plz", "kindly", "thanks"], // the tool's name and courtesy are not its data
      edgeWords: expect.arrayContaining(["the", "word", "this"]), // words that point at the data
      description: "Sums 2 given numbers", // its words before a property's name say which quote it takes
      policy: englishPolicy, // the language the copy constraint knows (the default)
    });
    expect(model.calls[5]!.options.constraint).toEqual({
      kind: "json-schema",
      schema: FINISH_ARGUMENTS_SCHEMA,
      copyFrom: ["5"], // an answer takes nothing from the question
      quotesWhole: [false], // a tool result's quotes are part of it
      quotesFirst: false, // an answer is built from the result
      whole: [true], // and reports it whole or not at all
      policy: englishPolicy,
    });
    const decodings = run.steps.flatMap((s) => (s.type === "model" ? [s.decoding] : []));
    expect(decodings[2]).toEqual({
      turn: "arguments",
      constraint: "json-schema+copy",
      copyFrom: ["question"],
    });
    expect(decodings[5]).toEqual({
      turn: "finish",
      constraint: "json-schema+copy",
      copyFrom: ["observation"],
    });
  });

  it("json-schema+copy under the neutral policy: no courtesy or pointing words, the policy passed on", async () => {
    const model = new ScriptedModel([
      "I add.",
      "<<sum>>",
      '{"a":2,"b":3}',
      "I can answer.",
      "<<Finish>>",
      finish("5"),
    ]);
    const agent = createToolGenAgent({
      model,
      tools: [sum],
      argumentsConstraint: "json-schema+copy",
      policy: neutralPolicy,
    });
    await agent.chat("u", "What is 2 plus 3?");
    expect(model.calls[2]!.options.constraint).toMatchObject({
      requestWords: ["sum"],
      edgeWords: [],
      policy: neutralPolicy,
    });
  });

  it("json-schema+copy: with no tool result to report, only declining", async () => {
    const model = new ScriptedModel([
      "None of these tools can answer this.",
      "<<Finish>>",
      JSON.stringify({ return_type: "give_up_and_restart" }),
    ]);
    const agent = createToolGenAgent({
      model,
      tools: [sum],
      argumentsConstraint: "json-schema+copy",
      maxRestarts: 0,
    });
    const run = await agent.chat("u", "Tell me a joke about sums");
    expect(run.stoppedBecause).toBe("gave_up");
    const finishTurn = model.calls[2]!.options.constraint;
    expect(finishTurn).toMatchObject({ kind: "json-schema", schema: FINISH_DECLINE_SCHEMA });
    expect(new Ajv().validate(FINISH_DECLINE_SCHEMA, { return_type: "give_up_and_restart" })).toBe(true);
    expect(new Ajv().validate(FINISH_DECLINE_SCHEMA, JSON.parse(finish("two")))).toBe(false);
    const decodings = run.steps.flatMap((s) => (s.type === "model" ? [s.decoding] : []));
    expect(decodings[2]).toEqual({
      turn: "finish",
      constraint: "json-schema+copy",
      copyFrom: [],
      declineOnly: true,
    });
  });

  it("json-schema+copy on a backend that cannot copy: the plain schema from then on", async () => {
    const scripted = new ScriptedModel(["t", "<<Finish>>", finish("x")]);
    const refusing: ChatModel = {
      id: "refusing",
      generate: (messages: Message[], options: GenerateOptions = {}) => {
        const c = options.constraint;
        if (c?.kind === "json-schema" && c.copyFrom)
          return Promise.reject(new UnsupportedConstraintError("no copying here"));
        return scripted.generate(messages, options);
      },
      stream: (messages, options) => scripted.stream(messages, options),
    };
    const agent = createToolGenAgent({
      model: refusing,
      tools: [sum],
      argumentsConstraint: "json-schema+copy",
    });
    const run = await agent.chat("u", "q");
    expect(run).toMatchObject({ answer: "x", stoppedBecause: "answer" });
    expect(run.steps.some((s) => s.type === "retry" && /without the copy constraint/.test(s.reason))).toBe(
      true,
    );
    expect(scripted.calls[2]!.options.constraint).toEqual({
      kind: "json-schema",
      schema: FINISH_ARGUMENTS_SCHEMA,
    });
  });

  it("asks freely from then on when the backend cannot enforce a json-schema", async () => {
    const scripted = new ScriptedModel(["t", "<<Finish>>", finish("x")]);
    const refusing: ChatModel = {
      id: "refusing",
      generate: (messages: Message[], options: GenerateOptions = {}) => {
        if (options.constraint?.kind === "json-schema")
          return Promise.reject(new UnsupportedConstraintError("no json-schema here"));
        return scripted.generate(messages, options);
      },
      stream: (messages, options) => scripted.stream(messages, options),
    };
    const agent = createToolGenAgent({ model: refusing, tools: [sum], argumentsConstraint: "json-schema" });
    const run = await agent.chat("u", "q");
    expect(run).toMatchObject({ answer: "x", stoppedBecause: "answer" });
    expect(run.steps.some((s) => s.type === "retry" && /unconstrained arguments/.test(s.reason))).toBe(true);
  });

  it("an untrained built-in model only ever calls tools with arguments their schema accepts", async () => {
    // a tokenizer that knows the prompt's text keeps the prompts short (and the test fast)
    const texts = [
      TOOLGEN_AGENT_SYSTEM,
      inputRequest(actionDocumentation("<<Finish>>", undefined)),
      JSON.stringify(sum.parameters),
      "Cutting Knowledge Date: December 2023 Today Date: 26 Jul 2024 Environment: ipython",
      '{"error":"","response":"5"} Begin!',
    ];
    const tok = Tokenizer.train(texts, 1200, { specialTokens: LLAMA3_SPECIAL_TOKENS });
    const cfg = presetConfig("tiny", tok.vocabSize, {
      hiddenSize: 32,
      intermediateSize: 64,
      numLayers: 1,
      numHeads: 2,
      maxPositions: 2048,
    });
    const model = new BuiltinChatModel(new BuiltinTokenModel(new Llama(cfg, initParams(cfg, 3)), tok));
    const agent = createToolGenAgent({
      model,
      tools: [sum],
      argumentsConstraint: "json-schema",
      maxTokens: 24,
      maxRounds: 6,
      temperature: 1,
      retryTemperatures: [],
    });
    const run = await agent.chat("u", "What is 2 plus 3?");
    const validate = new Ajv().compile(sum.parameters);
    for (const call of run.toolCalls) expect(validate(call.call.function.arguments)).toBe(true);
    expect(run.toolCalls.length).toBeGreaterThan(0);
    const invalid = run.steps.filter((s) => s.type === "guard" && s.guard === "invalid_input");
    expect(invalid).toEqual([]);
  });
});
