export { Tokenizer } from "./tokenizer.ts";
export type { AddedTokenInfo, DecodeOptions, EncodeOptions, TrainTokenizerOptions } from "./tokenizer.ts";
export { GPT2_PATTERN, pretokenize } from "./pretokenize.ts";
