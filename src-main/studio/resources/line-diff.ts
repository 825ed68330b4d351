import { structuredPatch } from 'diff';
import type { DiffHunk, DiffLine } from '../../../shared/resource-types.ts';

/**
 * Beyond this many inserted plus removed lines, or this long aligning, the files are shown as
 * replaced rather than aligned: a diff panel must not stall on two unrelated large files.
 */
const MAX_EDIT_LENGTH = 4_000;
const MAX_ALIGN_MS = 500;

const OPS: Record<string, DiffLine['op']> = { ' ': 'same', '+': 'add', '-': 'remove' };

/**
 * A line diff of two texts as hunks with `context` unchanged lines around each change, like
 * `diff -u` (jsdiff's Myers diff). CRLF and LF line ends compare equal; a missing final newline
 * is not a change worth a line of its own.
 */
export function diffLines(before: string, after: string, context = 3): DiffHunk[] {
  // A final newline is added where missing, so its absence alone never shows as a changed line.
  const ended = (text: string) => (text === '' || text.endsWith('\n') ? text : `${text}\n`);
  const patch = structuredPatch('before', 'after', ended(before), ended(after), undefined, undefined, { context, stripTrailingCr: true, maxEditLength: MAX_EDIT_LENGTH, timeout: MAX_ALIGN_MS });
  if (!patch) return replacedWhole(before, after);
  return patch.hunks.map((hunk) => ({
    oldStart: hunk.oldStart,
    newStart: hunk.newStart,
    lines: hunk.lines.map((line) => ({ op: OPS[line[0]], text: line.slice(1) })),
  }));
}

function replacedWhole(before: string, after: string): DiffHunk[] {
  const lines = (text: string) => text.split(/\r?\n/).filter((line, i, all) => i < all.length - 1 || line !== '');
  return [{ oldStart: 1, newStart: 1, lines: [...lines(before).map((text): DiffLine => ({ op: 'remove', text })), ...lines(after).map((text): DiffLine => ({ op: 'add', text }))] }];
}
