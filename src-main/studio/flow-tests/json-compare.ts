/** JSON equality and subset checks with the first place they differ, for readable test failures. */

export type JsonPath = Array<string | number>;

/** Where `actual` first stops matching `expected` (equality, or a subset when `subset`), or undefined when it matches. */
export function firstDifference(expected: unknown, actual: unknown, subset: boolean, path: JsonPath = []): JsonPath | undefined {
  if (expected === null || typeof expected !== 'object') {
    return sameScalar(expected, actual) ? undefined : path;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return path;
    for (let i = 0; i < expected.length; i++) {
      const d = firstDifference(expected[i], actual[i], subset, [...path, i]);
      if (d) return d;
    }
    return undefined;
  }
  if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return path;
  const a = actual as Record<string, unknown>;
  const e = expected as Record<string, unknown>;
  for (const k of Object.keys(e)) {
    if (!(k in a)) return [...path, k];
    const d = firstDifference(e[k], a[k], subset, [...path, k]);
    if (d) return d;
  }
  if (!subset) for (const k of Object.keys(a)) if (!(k in e)) return [...path, k];
  return undefined;
}

function sameScalar(e: unknown, a: unknown): boolean {
  if (typeof e === 'number' && typeof a === 'number') return e === a;
  return e === a || (e === undefined && a === null) || (e === null && a === undefined);
}

/** The value at a path, or undefined when the path leads nowhere. */
export function valueAt(value: unknown, path: JsonPath): unknown {
  let v = value;
  for (const k of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[k];
  }
  return v;
}

/** `body.items[0].price` for a path under `root`. */
export function pathText(root: string, path: JsonPath): string {
  return root + path.map((k) => (typeof k === 'number' ? `[${k}]` : /^[A-Za-z_$][\w$]*$/.test(k) ? `.${k}` : `[${JSON.stringify(k)}]`)).join('');
}

/**
 * Expected and actual as a unified line diff of their pretty JSON: `-` lines are expected, `+`
 * lines actual, unchanged lines indented, long unchanged runs folded.
 */
export function jsonDiff(expected: unknown, actual: unknown): string {
  const a = pretty(expected);
  const b = pretty(actual);
  // Longest common subsequence over lines; fine for the sizes a test body has.
  const n = a.length;
  const m = b.length;
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      out.push(`  ${a[i]}`);
      i++;
      j++;
    } else if (i < n && (j === m || lcs[i + 1][j] >= lcs[i][j + 1])) out.push(`- ${a[i++]}`);
    else out.push(`+ ${b[j++]}`);
  }
  return fold(out).join('\n');
}

function pretty(v: unknown): string[] {
  return (v === undefined ? 'undefined' : JSON.stringify(v, null, 2)).split('\n');
}

/** Keeps two unchanged lines around each change; longer unchanged runs become `  …`. */
function fold(lines: string[]): string[] {
  const changed = lines.map((l) => !l.startsWith('  '));
  const keep = lines.map((_, i) => changed.slice(Math.max(0, i - 2), i + 3).some(Boolean));
  const out: string[] = [];
  lines.forEach((l, i) => {
    if (keep[i]) out.push(l);
    else if (out[out.length - 1] !== '  …') out.push('  …');
  });
  return out;
}
