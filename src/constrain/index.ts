/**
 * Schema-constrained decoding for the built-in engine (see README.md): a JSON Schema becomes a byte-level
 * automaton, the automaton a per-step mask over a BPE vocabulary.
 */
import type { Tokenizer } from "../nn/tokenizer/index.ts";
import type { JsonSchema } from "../tools/types.ts";
import { JsonSchemaAutomaton, type AutomatonOptions } from "./json-automaton.ts";
import { TokenConstraint } from "./token-mask.ts";
import { TokenVocabulary } from "./token-vocabulary.ts";

export { JsonSchemaAutomaton, type AutomatonOptions, type AutomatonState } from "./json-automaton.ts";
export { TokenConstraint } from "./token-mask.ts";
export { CopySource } from "./copy.ts";
export {
  COURTESY_WORDS,
  englishPolicy,
  neutralPolicy,
  POINTING_WORDS,
  POLICY_FAMILIES,
  policyFrom,
  type LanguagePolicy,
  type PolicyFamily,
} from "./policy.ts";
export { numbersIn, numberWordsIn } from "./number-words.ts";
export { quotedSpans, unquotedPieces, type QuotedSpan } from "./quotes.ts";
export { TokenVocabulary } from "./token-vocabulary.ts";
export {
  decodeConstrained,
  type ConstrainedDecodeOptions,
  type ConstrainedDecodeResult,
  type LogitsSource,
} from "./decode.ts";
export {
  beamDecodeConstrained,
  type BeamDecodeOptions,
  type BeamDecodeResult,
  type ForkableLogitsSource,
} from "./beam.ts";
export { ToolCallOrText } from "./tool-call-or-text.ts";
export { toolCallSchema } from "./tool-call-schema.ts";
export { orderLikeSchema } from "./canonical.ts";
export { normaliseSchema, type PropertyNode, type SchemaNode } from "./schema-node.ts";

const compiled = new Map<string, JsonSchemaAutomaton>();

/**
 * The automaton for `schema`, compiled once per distinct schema and options (a small cache); with a copy
 * source, compiled afresh (it holds one conversation's texts).
 */
export function compileJsonSchema(schema: JsonSchema, options: AutomatonOptions = {}): JsonSchemaAutomaton {
  if (options.copy) return JsonSchemaAutomaton.fromSchema(schema, options);
  const key = JSON.stringify([schema, options]);
  let automaton = compiled.get(key);
  if (!automaton) {
    automaton = JsonSchemaAutomaton.fromSchema(schema, options);
    if (compiled.size >= 128) compiled.delete(compiled.keys().next().value!);
    compiled.set(key, automaton);
  }
  return automaton;
}

export interface SchemaConstraintOptions extends AutomatonOptions {
  /** The model's vocabulary size when its embedding is padded beyond the tokenizer's. */
  vocabSize?: number;
}

/**
 * A fresh per-reply constraint: `schema` over `tokenizer`'s byte-level tokens, ending with one of `endIds`
 * (the chat format's end-of-turn token). Compiling and the vocabulary trie are cached, so this is cheap.
 * `options.copy` (a CopySource) adds the copy constraint: free string and number leaves copy from its texts.
 */
export function jsonSchemaConstraint(
  schema: JsonSchema,
  tokenizer: Tokenizer,
  endIds: readonly number[],
  options: SchemaConstraintOptions = {},
): TokenConstraint {
  const { vocabSize, ...automaton } = options;
  return new TokenConstraint(
    compileJsonSchema(schema, automaton),
    TokenVocabulary.of(tokenizer, vocabSize ?? tokenizer.vocabSize),
    endIds,
  );
}
