/**
 * The llama.cpp path reads schemas through the same normaliser: for random schemas the GBNF it renders is
 * accepted by llama.cpp's grammar parser (when node-llama-cpp loads here).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { llamaCppAvailable } from "../../src/models/llamacpp.ts";
import { jsonSchemaGrammar } from "../../src/models/llamacpp/grammar.ts";
import { llamaRuntime } from "../../src/models/llamacpp/runtime.ts";
import { schema } from "./schemas.ts";

const available = await llamaCppAvailable();

describe.skipIf(!available)("GBNF from the shared schema normaliser", () => {
  it("llama.cpp parses the grammar of every random schema", async () => {
    const llama = await llamaRuntime();
    const grammars: string[] = [];
    fc.assert(
      fc.property(schema, (s) => {
        try {
          grammars.push(jsonSchemaGrammar(s));
        } catch (error) {
          expect((error as Error).message).toMatch(/no value|no integer|accepts nothing|maxLength|maxItems/);
        }
      }),
      { numRuns: 60, seed: 19 },
    );
    expect(grammars.length).toBeGreaterThan(30);
    for (const gbnf of grammars) await expect(llama.createGrammar({ grammar: gbnf })).resolves.toBeDefined();
  });
});
