/**
 * Where a function caller's reply loss goes: the model reads new synth questions of its training kind (the same
 * set as `build-caller.ts --synth-check`: seed 999, every 50th StableToolBench API, one to four calls, no
 * distractors) with the right reply, and each reply token's loss (nats) is filed under what it writes —
 * the list's structure, a function name, a parameter key, a string value, a number, a boolean or null, and the
 * tokens that end the list or start another call (where the choice "another call or done" is made).
 *
 *   npx tsx scripts/caller-loss-check.ts --out models/caller-lm
 */
import { parseArgs } from "node:util";
import { CALLER_END, callerPrompt, callerReply } from "../src/models/caller-prompt.ts";
import { CallerChatModel } from "../src/models/caller-chat.ts";
import { InferenceSession } from "../src/nn/infer/session.ts";
import { callerCheckSet } from "./caller-check-set.ts";

const { values: args } = parseArgs({ options: { out: { type: "string", default: "models/caller-lm" } } });

type Kind = "structure" | "name" | "key" | "string" | "number" | "literal" | "continue" | "end";

/** What each character of a reply writes (a small JSON scanner over the reply text). */
function characterKinds(reply: string): Kind[] {
  const kinds: Kind[] = [];
  let depth = 0;
  let inString: "name" | "key" | "string" | undefined;
  let escaped = false;
  let expectKey = false;
  let lastKey = "";
  let keyText = "";
  for (const ch of reply.split("")) {
    if (inString) {
      // a string's quotes are structure; what is between them is the name, key or value
      if (escaped) escaped = false;
      else if (ch === "\\") escaped = true;
      else if (ch === '"') {
        kinds.push("structure");
        if (inString === "key") lastKey = keyText;
        inString = undefined;
        continue;
      } else if (inString === "key") keyText += ch;
      kinds.push(inString);
      continue;
    }
    if (ch === '"') {
      // a key after "{" or ","; at depth 2 the value of "name" is the function name
      inString = expectKey ? "key" : depth === 2 && lastKey === "name" ? "name" : "string";
      if (expectKey) keyText = "";
      expectKey = false;
      kinds.push("structure");
      continue;
    }
    if (ch === "{") expectKey = true;
    else if (ch === "," && depth >= 2) expectKey = true;
    if (ch === "[" || ch === "{") depth++;
    if (ch === "]" || ch === "}") depth--;
    if (ch === "," && depth === 1) kinds.push("continue");
    else if (ch === "]" && depth === 0) kinds.push("end");
    else if (/[0-9.eE+-]/.test(ch)) kinds.push("number");
    else if (/[a-z]/.test(ch)) kinds.push("literal");
    else kinds.push("structure");
  }
  return kinds;
}

const PRIORITY: Kind[] = ["continue", "end", "name", "key", "string", "number", "literal", "structure"];

const examples = callerCheckSet();
const caller = CallerChatModel.load(args.out!);
const tok = caller.tokens.tokenizer;
const endId = tok.tokenToId(CALLER_END)!;
const sums: Record<string, { tokens: number; nats: number }> = {};
const add = (kind: string, nats: number) => {
  const s = (sums[kind] ??= { tokens: 0, nats: 0 });
  s.tokens++;
  s.nats += nats;
};
for (const e of examples) {
  const prompt = tok.encode(callerPrompt(e.tools, e.question, caller.manifest.limits));
  const replyText = callerReply(e.tools, e.calls);
  const reply = [...tok.encode(replyText, { special: false }), endId];
  const charKinds = characterKinds(replyText);
  const session = new InferenceSession(caller.tokens.model);
  try {
    let logits = session.append(prompt);
    let at = 0;
    for (const id of reply) {
      const max = logits.reduce((m, v) => Math.max(m, v), -Infinity);
      const logZ = Math.log(logits.reduce((s, v) => s + Math.exp(v - max), 0)) + max;
      const nats = logZ - logits[id]!;
      const text = id === endId ? "" : tok.decode([id]);
      const kinds = new Set(charKinds.slice(at, at + text.length));
      const kind = id === endId ? "end_marker" : (PRIORITY.find((k) => kinds.has(k)) ?? "structure");
      add(kind, nats);
      add("all", nats);
      at += text.length;
      logits = session.append([id]);
    }
  } finally {
    session.dispose();
  }
}
const table = Object.fromEntries(
  Object.entries(sums).map(([k, s]) => [
    k,
    { tokens: s.tokens, meanNats: Number((s.nats / s.tokens).toFixed(3)), shareOfLoss: 0 },
  ]),
);
for (const k of Object.keys(table))
  if (k !== "all") table[k]!.shareOfLoss = Number((sums[k]!.nats / sums.all!.nats).toFixed(3));
process.stdout.write(JSON.stringify({ model: args.out, examples: examples.length, byKind: table }) + "\n");
