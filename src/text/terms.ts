import { stemmer } from "stemmer";

export interface TokenizeOptions {
  /** Porter stemming (the `stemmer` package) after splitting. Default: false. */
  stem?: boolean;
  /** Drop these (lowercased, unstemmed) tokens. */
  stopwords?: ReadonlySet<string>;
}

/**
 * Splits text into search terms: camelCase and letter/digit boundaries become word breaks before lowercasing,
 * snake_case, kebab-case and any other non-alphanumeric character separate words. Unicode letters are kept
 * (French, Portuguese and Chinese descriptions exist in the catalogs).
 */
export function tokenize(text: string, options: TokenizeOptions = {}): string[] {
  const spaced = text
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, "$1 $2") // fooBar, v2Api
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, "$1 $2") // HTTPServer -> HTTP Server
    .replace(/(\p{L})(\p{N})/gu, "$1 $2") // abc123
    .replace(/(\p{N})(\p{L})/gu, "$1 $2"); // 123abc
  const out: string[] = [];
  for (const raw of spaced.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (raw === "") continue;
    if (options.stopwords?.has(raw)) continue;
    out.push(options.stem ? stemmer(raw) : raw);
  }
  return out;
}

/** A small English stopword list; BM25's IDF already discounts them, so this is optional. */
export const ENGLISH_STOPWORDS: ReadonlySet<string> = new Set(
  (
    "a an and are as at be by for from has have he in is it its of on or that the this to was were will with " +
    "i me my we our you your can could would should do does did what which who how when where please"
  ).split(" "),
);
