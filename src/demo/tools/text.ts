import { toolSpec } from "../../tools/spec-builder.ts";

/** Text statistics and regular expressions, defined with the LangChain4j-style ToolSpec builder. */
const words = (text: string) => text.split(/\s+/).filter((w) => w !== "");
const textTool = (name: string, description: string, run: (text: string) => string) =>
  toolSpec()
    .name(name)
    .description(description)
    .param("text", "string", "The text")
    .execute((args) => run(String(args.text)))
    .build();

function regexOf(pattern: string): RegExp {
  try {
    return new RegExp(pattern, "g");
  } catch (error) {
    throw new Error(`invalid regular expression ${JSON.stringify(pattern)}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

export const textTools = [
  textTool("word_count", "Count the words in a text", (t) => `${words(t).length} words`),
  textTool("character_count", "Count the characters in a text", (t) => `${[...t].length} characters`),
  textTool("reverse_text", "Reverse a text character by character", (t) => [...t].reverse().join("")),
  textTool("uppercase_text", "Convert a text to upper case letters", (t) => t.toUpperCase()),
  textTool("lowercase_text", "Convert a text to lower case letters", (t) => t.toLowerCase()),
  textTool("title_case", "Capitalise the first letter of every word of a text", (t) =>
    t.replace(/\p{L}+/gu, (w) => w[0]!.toUpperCase() + w.slice(1).toLowerCase()),
  ),
  textTool("count_vowels", "Count the vowels (a, e, i, o, u) in a text", (t) => {
    const found = t.normalize("NFD").match(/[aeiou]/gi) ?? [];
    return `${found.length} vowels`;
  }),
  textTool(
    "is_palindrome",
    "Check whether a text reads the same backwards, ignoring case and spaces",
    (t) => {
      const s = t.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");
      return `"${t}" is ${s === [...s].reverse().join("") ? "" : "not "}a palindrome`;
    },
  ),
  textTool("slugify", "Turn a title into a URL slug of lower-case words joined by hyphens", (t) =>
    t
      .normalize("NFD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, ""),
  ),
  textTool("longest_word", "Find the longest word in a text", (t) => {
    const all = t.match(/\p{L}+/gu) ?? [];
    return all.reduce((best, w) => (w.length > best.length ? w : best), "");
  }),
  toolSpec()
    .name("count_occurrences")
    .description("Count how many times a word occurs in a text, ignoring case")
    .param("text", "string", "The text to search")
    .param("word", "string", "The word to count")
    .execute(({ text, word }) => {
      const target = String(word).toLowerCase();
      const n = (
        String(text)
          .toLowerCase()
          .match(/\p{L}+|\p{N}+/gu) ?? []
      ).filter((w) => w === target).length;
      return `"${word}" occurs ${n} times`;
    })
    .build(),
  toolSpec()
    .name("regex_find_all")
    .description("Find every match of a regular expression in a text")
    .param("text", "string", "The text to search")
    .param("pattern", "string", "A JavaScript regular expression, e.g. \\d+")
    .execute(({ text, pattern }) => JSON.stringify(String(text).match(regexOf(String(pattern))) ?? []))
    .build(),
  toolSpec()
    .name("regex_replace")
    .description("Replace every match of a regular expression in a text")
    .param("text", "string", "The text")
    .param("pattern", "string", "A JavaScript regular expression")
    .param("replacement", "string", "What each match becomes")
    .execute(({ text, pattern, replacement }) =>
      String(text).replace(regexOf(String(pattern)), String(replacement)),
    )
    .build(),
];
