/**
 * "Did you mean" for a name that is not one of the allowed ones: the closest allowed name by edit
 * distance (case-insensitive), when it is close enough to be the one the writer meant. One helper
 * for every such message (settings, block and connector types, CEL functions), so they agree.
 */

/** The allowed name closest to `name`, or undefined when none is a near miss. */
export function closestName(name: string, allowed: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const a of allowed) {
    const d = editDistance(name.toLowerCase(), a.toLowerCase());
    if (d < bestDistance) {
      bestDistance = d;
      best = a;
    }
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(name.length / 3)) ? best : undefined;
}

/**
 * `; did you mean "x"?` for a near miss among the allowed names; else, for a short list, the list
 * (`; expected one of: a, b`); else nothing.
 */
export function suggest(name: string, allowed: readonly string[]): string {
  const best = closestName(name, allowed);
  if (best !== undefined) return `; did you mean "${best}"?`;
  return allowed.length > 0 && allowed.length <= 12 ? `; expected one of: ${allowed.join(', ')}` : '';
}

/** Levenshtein distance: insertions, deletions and substitutions each cost one. */
export function editDistance(a: string, b: string): number {
  const dp = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = dp[0];
    dp[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = dp[j];
      dp[j] = Math.min(dp[j] + 1, dp[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return dp[b.length];
}
