/** A question as the held-out overlap tests compare them: lower case, punctuation stripped, whitespace collapsed. */
export function normaliseQuestion(q: string): string {
  return q
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
}
