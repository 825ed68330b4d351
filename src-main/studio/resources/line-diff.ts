import type { DiffHunk, DiffLine } from '../../../shared/resource-types.ts';

/** Above this many cells the middle of two files is shown as replaced rather than aligned. */
const MAX_CELLS = 4_000_000;

/**
 * A line diff of two texts as hunks with `context` unchanged lines around each change, like
 * `diff -u`. Common leading and trailing lines are trimmed first, so the usual edit (a few lines
 * somewhere in a file) costs next to nothing; what is left is aligned by longest common
 * subsequence.
 */
export function diffLines(before: string, after: string, context = 3): DiffHunk[] {
  const a = splitLines(before);
  const b = splitLines(after);
  const ops = align(a, b);
  return hunksOf(ops, context);
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

function align(a: string[], b: string[]): DiffLine[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const same = (text: string): DiffLine => ({ op: 'same', text });
  const middle = middleOps(a.slice(start, endA), b.slice(start, endB));
  return [...a.slice(0, start).map(same), ...middle, ...a.slice(endA).map(same)];
}

function middleOps(a: string[], b: string[]): DiffLine[] {
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0 || (n + 1) * (m + 1) > MAX_CELLS) {
    return [...a.map((text): DiffLine => ({ op: 'remove', text })), ...b.map((text): DiffLine => ({ op: 'add', text }))];
  }
  // lcs[i][j]: length of the longest common subsequence of a[i..] and b[j..].
  const width = m + 1;
  const lcs = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * width + j] = a[i] === b[j] ? lcs[(i + 1) * width + j + 1] + 1 : Math.max(lcs[(i + 1) * width + j], lcs[i * width + j + 1]);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      out.push({ op: 'same', text: a[i++] });
      j++;
    } else if (lcs[(i + 1) * width + j] >= lcs[i * width + j + 1]) out.push({ op: 'remove', text: a[i++] });
    else out.push({ op: 'add', text: b[j++] });
  }
  while (i < n) out.push({ op: 'remove', text: a[i++] });
  while (j < m) out.push({ op: 'add', text: b[j++] });
  return out;
}

function hunksOf(ops: DiffLine[], context: number): DiffHunk[] {
  const changed = ops.map((o, k) => (o.op === 'same' ? -1 : k)).filter((k) => k >= 0);
  if (changed.length === 0) return [];
  // Ranges of op indexes to show: each change with its context, merged when they touch.
  const ranges: Array<[number, number]> = [];
  for (const k of changed) {
    const from = Math.max(0, k - context);
    const to = Math.min(ops.length - 1, k + context);
    const last = ranges.at(-1);
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else ranges.push([from, to]);
  }
  // Line numbers at each op index, in the old and the new text.
  const oldLine: number[] = [];
  const newLine: number[] = [];
  let o = 1;
  let n = 1;
  for (const op of ops) {
    oldLine.push(o);
    newLine.push(n);
    if (op.op !== 'add') o++;
    if (op.op !== 'remove') n++;
  }
  return ranges.map(([from, to]) => ({ oldStart: oldLine[from], newStart: newLine[from], lines: ops.slice(from, to + 1) }));
}
