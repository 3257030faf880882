import { describe, expect, it } from "vitest";
import { choiceGrammar } from "../../src/models/llamacpp/grammar.ts";
import { constraintFields } from "../../src/models/openai-request.ts";

describe("choice constraints sent to an OpenAI-compatible server", () => {
  // Options with characters GBNF escapes differently from JSON: a backspace (JSON \b, GBNF \x08), a form feed,
  // a quote, a backslash and a tab.
  const options = ['say "hi"', "back\\slash", "tab\there", "bs\b", "ff\f"];

  it("carry the llama.cpp backend's grammar: GBNF escapes, not JSON's", () => {
    const fields = constraintFields({ kind: "choice", options }, "llamacpp");
    expect(fields.grammar).toBe('root ::= "say \\"hi\\"" | "back\\\\slash" | "tab\\there" | "bs\\x08" | "ff\\x0c"');
    expect(fields.grammar).toBe(choiceGrammar(options).trimEnd());
    expect(fields.grammar).not.toContain("\\b");
  });

  it("give vLLM the options themselves and a generic server both fields", () => {
    expect(constraintFields({ kind: "choice", options }, "vllm")).toEqual({ guided_choice: options });
    const generic = constraintFields({ kind: "choice", options }, "generic");
    expect(generic.guided_choice).toEqual(options);
    expect(generic.grammar).toBe(choiceGrammar(options).trimEnd());
  });
});
