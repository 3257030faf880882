/**
 * A small trained model for the GGUF tests: a byte-level BPE tokenizer with chat markers and tool tokens, the
 * engine's tiny preset trained for a few seconds on repeated text (so its predictions are sharp and greedy
 * continuations are meaningful), saved as a checkpoint folder with a ChatML template.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { saveCheckpoint } from "../../src/nn/checkpoint.ts";
import { presetConfig } from "../../src/nn/config.ts";
import { Llama } from "../../src/nn/llama.ts";
import { initParams } from "../../src/nn/params.ts";
import { Tokenizer } from "../../src/nn/tokenizer/index.ts";
import { train } from "../../src/nn/train/trainer.ts";

export const SPECIALS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"];
export const TOOL_TOKENS = [
  "<<Weather&&Get current>>",
  "<<Flights&&Search>>",
  "<<北京&&天气>>",
  "<<Finish>>",
];
export const CHATML =
  "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}" +
  "{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

const SENTENCES = [
  "The weather in Paris is sunny and 21 degrees today.",
  "Search flights from Lisbon to São Paulo for 2 adults on 2026-12-01.",
  "北京今天的天气很好，气温二十度。",
  "User asks for the weather, the assistant calls <<Weather&&Get current>> with a city.",
  "User asks for flights, the assistant calls <<Flights&&Search>> and then <<Finish>>.",
  "Numbers: 1234567890, 3.14159, 42, 007 and 1,000,000.",
  "Tabs\tand  double  spaces   and\n\nnew lines   stay as they are.",
  "<|im_start|>user\nWhat's the weather in 北京?<|im_end|>\n<|im_start|>assistant\n<<北京&&天气>><|im_end|>\n",
  '<|im_start|>user\nWeather in Paris?<|im_end|>\n<|im_start|>assistant\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call><|im_end|>\n',
  '<|im_start|>user\nWeather in Paris?<|im_end|>\n<|im_start|>assistant\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call><|im_end|>\n',
];

export interface TrainedFixture {
  dir: string;
  tokenizer: Tokenizer;
  model: Llama;
}

export async function trainedFixture(steps = 30, maxPositions = 128): Promise<TrainedFixture> {
  const texts: string[] = [];
  for (let i = 0; i < 12; i++) for (const s of SENTENCES) texts.push(s);
  const tokenizer = Tokenizer.train(texts, 420, { specialTokens: SPECIALS });
  tokenizer.addTokens(TOOL_TOKENS);
  const config = presetConfig("tiny", tokenizer.vocabSize, { maxPositions });
  const model = new Llama(config, initParams(config, 7));
  const stream = Int32Array.from(tokenizer.encode(texts.join("<|endoftext|>")));
  await train(
    model,
    { kind: "stream", tokens: stream, seqLen: 64 },
    { steps, batchSize: 4, lr: 3e-3, seed: 1 },
  );
  const dir = mkdtempSync(join(tmpdir(), "toolgen-gguf-"));
  saveCheckpoint(dir, model, { tokenizer });
  writeFileSync(
    join(dir, "tokenizer_config.json"),
    JSON.stringify({ chat_template: CHATML, bos_token: "<|endoftext|>", eos_token: "<|im_end|>" }),
  );
  return { dir, tokenizer, model };
}

/** Prompts for parity: plain text, Unicode, whitespace runs, digits, chat markers and tool tokens. */
export const PROMPTS = [
  "The weather in Paris",
  "The weather in Paris is sunny and",
  "Search flights from Lisbon to",
  "Search flights from Lisbon to São Paulo for 2",
  "北京今天的天气",
  "北京",
  "User asks for the weather, the assistant calls",
  "User asks for flights, the assistant calls <<Flights&&Search>> and then",
  "Numbers: 1234567890, 3.",
  "Numbers: 1234567890, 3.14159, 42, 007",
  "Tabs\tand  double  spaces",
  "Tabs\tand  double  spaces   and\n\n",
  "<|im_start|>user\nWhat's the weather in 北京?<|im_end|>\n<|im_start|>assistant\n",
  "<|im_start|>user\nWhat's the weather",
  "<<Weather&&Get current>>",
  "<<Finish>> <<北京&&天气>> <<Flights&&Search>>",
  "a",
  "   ",
  "Zürich, Kraków, Ελλάδα 🤖 — unseen text 98765",
  "The weather in Paris is sunny and 21 degrees today. Search flights",
  "User asks",
  "for 2 adults on 2026-12-01.",
];
