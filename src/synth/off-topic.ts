import type { CatalogEntry } from "../catalog/catalog.ts";
import { ENGLISH_STOPWORDS, tokenize } from "../text/terms.ts";
import { madeUpWord } from "./made-up.ts";
import type { SynthRng } from "./rng.ts";

/**
 * Everyday requests that are not about any tool: knowledge written by hand (a generic list, not drawn from any
 * benchmark). `{name}` is filled with a made-up name, `{n}` with a small number. Requests that share a word with
 * a tool's name in the catalog are not used, so a decline question names no tool of the catalog.
 */
export const EVERYDAY_REQUESTS: readonly string[] = [
  "tell me something funny",
  "write a short poem about the sea",
  "how are you doing today?",
  "what is the meaning of life?",
  "how do I tie a tie?",
  "what should I cook for dinner tonight?",
  "give me some advice on staying motivated",
  "help me write a birthday message for {name}",
  "what's a good name for a pet goldfish?",
  "why is the sky blue?",
  "do you like music?",
  "tell me a bedtime story about a dragon",
  "how can I fall asleep faster?",
  "what is your favourite colour?",
  "say hello to {name}",
  "explain how rainbows form",
  "how do I apologise to a friend?",
  "write a limerick about a cat named {name}",
  "I feel bored, any ideas?",
  "what are some tips for a job interview?",
  "how many legs does a spider have?",
  "who painted the ceiling of the Sistine Chapel?",
  "can you sing me a song?",
  "what's the best way to learn to juggle?",
  "give me {n} ideas for a rainy afternoon",
  "thank you, that is all",
  "how do I make my plants grow better?",
  "what should I pack for a picnic?",
  "is it rude to be late to a party?",
  "help me think of a gift for {name}",
  "what rhymes with orange?",
  "describe the smell of fresh bread",
  "how do you say goodbye politely?",
  "what do penguins eat?",
  "let's play twenty questions",
  "who would win, a lion or a tiger?",
  "write {n} sentences about friendship",
  "what is the capital of imagination?",
  "how do I stop procrastinating?",
  "can you keep a secret?",
];

function words(text: string): string[] {
  return tokenize(text, { stem: true }).filter((w) => w.length >= 3 && !ENGLISH_STOPWORDS.has(w));
}

/** The words of the catalog's tool names (stemmed), which a decline question must not contain. */
export function catalogNameWords(catalog: readonly CatalogEntry[]): Set<string> {
  const out = new Set<string>();
  for (const e of catalog) for (const w of words(`${e.tool} ${e.api}`)) out.add(w);
  return out;
}

/** A decline question: an everyday request sharing no word with the catalog's tool names, or undefined. */
export function offTopicQuestion(rng: SynthRng, forbidden: ReadonlySet<string>): string | undefined {
  for (let tries = 0; tries < 20; tries++) {
    const text = rng
      .pick(EVERYDAY_REQUESTS)
      .replace("{name}", madeUpWord(rng, true))
      .replace("{n}", String(2 + rng.int(4)));
    if (!words(text).some((w) => forbidden.has(w))) return text;
  }
  return undefined;
}
