/** Levenshtein distance, used to suggest the closest valid key for a typo. */
export function distance(a: string, b: string): number {
  const dp = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = dp[0]!;
    dp[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = dp[j]!;
      dp[j] = Math.min(dp[j]! + 1, dp[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return dp[b.length]!;
}

export function closest(word: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  // a truncated or extended key ("lookback" for "lookback_days") is a typo too
  const w = word.toLowerCase();
  const prefixed = [...candidates].filter((c) => w.length >= 4 && (c.toLowerCase().startsWith(w) || w.startsWith(c.toLowerCase())));
  if (prefixed.length === 1) return prefixed[0];
  for (const c of candidates) {
    const d = distance(word.toLowerCase(), c.toLowerCase());
    if (d < bestD) [best, bestD] = [c, d];
  }
  // only suggest when the typo is plausibly a misspelling, not a different word
  return best !== undefined && bestD <= Math.max(2, Math.floor(word.length / 3)) ? best : undefined;
}
