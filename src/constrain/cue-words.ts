/**
 * The word a tool's description writes before a property's name ("Count how many times a word occurs in a
 * text": "in" before "text"). A quoted span the question writes after that word is that property's first
 * choice: "how often does "gold" appear in "all that glitters is not gold"" searches the sentence, and
 * "replace "th" with "X" in "fot noon"" edits "fot noon" (the demo model swapped both before this rule).
 */
const ARTICLE = "(?:(?:a|an|the)\\s+)?";

function escaped(word: string): string {
  return word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The words `description` writes right before one of `nameWords` (an article between them aside), lower case. */
export function cueWords(description: string, nameWords: readonly string[]): string[] {
  const cues = new Set<string>();
  for (const w of nameWords) {
    const re = new RegExp(`(\\p{L}+)\\s+${ARTICLE}${escaped(w)}(?![\\p{L}\\p{N}])`, "giu");
    for (const m of description.matchAll(re)) {
      const cue = m[1]!.toLowerCase();
      if (cue !== "a" && cue !== "an" && cue !== "the") cues.add(cue);
    }
  }
  return [...cues];
}

/** Is the text before a quoted span's opening quote ending with one of `cues` (an article between aside)? */
export function followsCue(before: string, cues: readonly string[]): boolean {
  if (cues.length === 0) return false;
  const re = new RegExp(`(?:^|[^\\p{L}\\p{N}])(?:${cues.map(escaped).join("|")})\\s+${ARTICLE}$`, "iu");
  return re.test(before);
}
