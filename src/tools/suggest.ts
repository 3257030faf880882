/** Levenshtein distance (case-insensitive), for "did you mean" hints. */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  let prev = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const cur = [i];
    for (let j = 1; j <= t.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (s[i - 1] === t[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[t.length]!;
}

/** The closest valid names, best first (ties keep catalogue order); substrings count as close. */
export function closestNames(name: string, candidates: readonly string[], limit = 3): string[] {
  const lower = name.toLowerCase();
  return candidates
    .map((c, i) => {
      const l = c.toLowerCase();
      const contains = lower.length > 2 && (l.includes(lower) || lower.includes(l));
      return { c, i, d: contains ? 0.5 : editDistance(name, c) / Math.max(name.length, c.length, 1) };
    })
    .sort((x, y) => x.d - y.d || x.i - y.i)
    .slice(0, limit)
    .map((x) => x.c);
}
