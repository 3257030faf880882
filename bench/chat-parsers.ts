/**
 * Throughput of the tool-call parsers: whole-text and streamed (token-sized deltas) on realistic replies
 * (free text around two calls), per format. Run: npm run bench:chat-parsers
 */
import {
  createToolCallStreamParser,
  parseToolCalls,
  TOOL_CALL_FORMATS,
  type ToolCallFormat,
} from "../src/chat/parse/index.ts";
import { writeBenchResult } from "./lib/result.ts";

const args = { location: "Paris, France", unit: "celsius", days: [1, 2, 3], note: 'a {brace} and a "quote"' };
const json = (name: string) => JSON.stringify({ name, arguments: args });
const prose = "Let me look that up for you; the forecast service is usually quick. ".repeat(4);

const REPLIES: Record<ToolCallFormat, string> = {
  hermes: `${prose}<tool_call>\n${json("get_current_temperature")}\n</tool_call>\n<tool_call>\n${json("get_current_wind_speed")}\n</tool_call>`,
  "llama3-json": `<|python_tag|>${JSON.stringify({ name: "get_current_temperature", parameters: args })}; ${JSON.stringify({ name: "get_current_wind_speed", parameters: args })}`,
  mistral: `${prose}[TOOL_CALLS] [${json("get_current_temperature")}, ${json("get_current_wind_speed")}]`,
  react: `Thought: ${prose}\nAction: get_current_temperature\nAction Input: ${JSON.stringify(args)}\nObservation: 22\nThought: now the wind\nAction: get_current_wind_speed\nAction Input: ${JSON.stringify(args)}\n`,
  toolgen: `Thought: ${prose} <<Weather&&get_current_temperature>> ${JSON.stringify(args)} <<Weather&&get_current_wind_speed>> ${JSON.stringify(args)}`,
};

/** Runs fn repeatedly for about `ms` and returns calls per second. */
function rate(fn: () => void, ms = 600): number {
  for (let i = 0; i < 50; i++) fn(); // warm-up
  let n = 0;
  const start = performance.now();
  while (performance.now() - start < ms) {
    fn();
    n++;
  }
  return n / ((performance.now() - start) / 1000);
}

const DELTA = 4; // characters per streamed delta, about one token
const figures: Record<string, unknown> = { delta_chars: DELTA };
for (const format of TOOL_CALL_FORMATS) {
  const text = REPLIES[format];
  const whole = parseToolCalls(format, text);
  if (whole.calls.length !== 2 || whole.errors.length > 0)
    throw new Error(`${format}: the sample reply did not parse to 2 calls`);
  const wholeRate = rate(() => parseToolCalls(format, text));
  const streamRate = rate(() => {
    const parser = createToolCallStreamParser(format);
    for (let i = 0; i < text.length; i += DELTA) parser.push(text.slice(i, i + DELTA));
    parser.end();
  });
  figures[format] = {
    reply_chars: text.length,
    whole_replies_per_s: Math.round(wholeRate),
    whole_mb_per_s: Number(((wholeRate * text.length) / 1e6).toFixed(2)),
    streamed_replies_per_s: Math.round(streamRate),
    streamed_mb_per_s: Number(((streamRate * text.length) / 1e6).toFixed(2)),
  };
}
writeBenchResult("chat-parsers", "npm run bench:chat-parsers", figures);
