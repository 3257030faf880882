// Fenced code blocks of Markdown files, with where they start and the doctest marker above them.
import { readFileSync } from "node:fs";

/** What a `<!-- doctest: … -->` line right above a block asks for. */
export type DoctestMarker = "skip" | "run";

export interface CodeBlock {
  /** The Markdown file, as given. */
  file: string;
  /** 1-based line of the opening fence; the code's first line is `line + 1`. */
  line: number;
  /** The info string's first word, lower-cased (`ts`, `bash`, …; "" for none). */
  lang: string;
  code: string;
  marker?: DoctestMarker;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^\s`]*)/;
const MARKER = /^\s*<!--\s*doctest:\s*(\S+)\s*-->\s*$/;

/** The blocks of one Markdown text; an unknown marker is an error naming its line (a typo would hide a block). */
export function codeBlocks(file: string, text = readFileSync(file, "utf8")): CodeBlock[] {
  const lines = text.split("\n");
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (!open) continue;
    const fence = open[1]!;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !lines[i]!.trimStart().startsWith(fence); i++) body.push(lines[i]!);
    let above = start - 1;
    while (above >= 0 && lines[above]!.trim() === "") above--;
    const marked = above >= 0 ? MARKER.exec(lines[above]!) : null;
    if (marked && marked[1] !== "skip" && marked[1] !== "run")
      throw new Error(`${file}:${above + 1}: unknown doctest marker "${marked[1]}" (accepted: skip, run)`);
    blocks.push({
      file,
      line: start + 1,
      lang: open[2]!.toLowerCase(),
      code: body.join("\n"),
      ...(marked ? { marker: marked[1] as DoctestMarker } : {}),
    });
  }
  return blocks;
}

export const isTypeScript = (b: CodeBlock): boolean => b.lang === "ts" || b.lang === "typescript";
export const isShell = (b: CodeBlock): boolean => ["bash", "sh", "shell", "console"].includes(b.lang);
