/**
 * File names a person wrote: "notes.txt", "sales.csv", "logs/app.log", or a quoted span that ends like one
 * ('my notes.txt'). A property that names a file (its name says path or file: json-automaton.ts) takes one of
 * them whole when the question writes any: the demo model wrote "says" for "open notes.txt and tell me what it
 * says", "called reminder.txt" for "save … to a file called reminder.txt", and the content for the path in
 * "store abracadabra in a file named out.txt".
 */
import type { QuotedSpan } from "./quotes.ts";

// a run of name characters with a letter-led extension of 2 to 5 characters ("e.g." and "i.e." are no file
// names), not inside a longer run
const FILE_NAME =
  /(?<![\p{L}\p{N}_./\\-])[\p{L}\p{N}_-]+(?:[./][\p{L}\p{N}_-]+)*\.\p{L}[\p{L}\p{N}]{1,4}(?![\p{L}\p{N}_/\\-]|\.[\p{L}\p{N}])/gu;
const ENDS_LIKE_FILE_NAME = /\.\p{L}[\p{L}\p{N}]{1,4}$/u;

/** The file names in `text`: those written outside `quoted`, then the quoted spans that end like one. */
export function fileNames(text: string, quoted: readonly QuotedSpan[]): string[] {
  const names: string[] = [];
  let from = 0;
  for (const piece of [...quoted, { start: text.length + 1, end: text.length }]) {
    const outside = text.slice(from, Math.max(from, piece.start - 1));
    for (const m of outside.matchAll(FILE_NAME)) names.push(m[0]);
    from = piece.end + 1;
  }
  for (const s of quoted) {
    const span = text.slice(s.start, s.end);
    if (ENDS_LIKE_FILE_NAME.test(span) && !/\s$/.test(span)) names.push(span);
  }
  return [...new Set(names)];
}

/** Does a property of this name (its words: "path", "file_name") name a file? */
export function namesAFile(words: readonly string[]): boolean {
  return words.some((w) => w === "path" || w === "file" || w === "filename" || w === "filepath");
}
