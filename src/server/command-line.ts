import { ToolgenError } from "../errors.ts";

/**
 * Splits a command line the way a POSIX shell would for simple cases: whitespace separates words, single quotes
 * keep text literally, double quotes keep spaces (with \" and \\ escapes), a backslash escapes the next
 * character outside quotes. No variables, globs or pipes: the words go to spawn as they are.
 */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === "\\" && (line[i + 1] === '"' || line[i + 1] === "\\")) word += line[++i];
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === "\\" && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote !== undefined)
    throw new ToolgenError("parse", `unclosed ${quote} quote in command line: ${line}`);
  if (inWord) words.push(word);
  return words;
}

/** Commander accumulator for a repeatable option (`--catalog a --catalog b`). */
export const collect = (value: string, previous: string[]): string[] => [...previous, value];
