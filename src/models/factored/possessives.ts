/**
 * The possessive ending of a language, a policy, not the model: "The Weeknd's concert" asks about The Weeknd,
 * "Germany's team" about Germany. With `possessives` set (DecideOptions; ENGLISH_POSSESSIVE by default,
 * `possessives: false` for none), a text value whose last word ends so is given without the ending; its place
 * in the question and its features stay as they are.
 */

/** English's possessive ending ("'s", "’s") on a word's end. */
export const ENGLISH_POSSESSIVE = /(?<=\p{L})['’]s$/u;

/** The value without a possessive ending on its last word (unchanged where there is none). */
export function withoutPossessive(text: string, ending: RegExp | undefined): string {
  return ending === undefined ? text : text.replace(ending, "");
}
