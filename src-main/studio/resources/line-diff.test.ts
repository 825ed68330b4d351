import { describe, expect, it } from 'vitest';
import { diffLines } from './line-diff.ts';

describe('line diff', () => {
  it('shows one changed line with its context and line numbers in both versions', () => {
    const before = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].join('\n') + '\n';
    const after = before.replace('e\n', 'E\n');
    expect(diffLines(before, after, 1)).toEqual([
      {
        oldStart: 4,
        newStart: 4,
        lines: [
          { op: 'same', text: 'd' },
          { op: 'remove', text: 'e' },
          { op: 'add', text: 'E' },
          { op: 'same', text: 'f' },
        ],
      },
    ]);
  });

  it('aligns insertions and deletions in the middle, and merges changes whose context touches', () => {
    const hunks = diffLines('x\na\nb\nc\ny\n', 'x\na\nnew\nc\ny\nz\n', 1);
    expect(hunks).toHaveLength(1);
    expect(hunks[0].lines.map((l) => `${l.op[0]}${l.text}`)).toEqual(['sa', 'rb', 'anew', 'sc', 'sy', 'az']);
  });

  it('has no hunks for equal texts, and adds every line of a new file', () => {
    expect(diffLines('same\n', 'same\n')).toEqual([]);
    expect(diffLines('', 'one\ntwo')).toEqual([{ oldStart: 1, newStart: 1, lines: [{ op: 'add', text: 'one' }, { op: 'add', text: 'two' }] }]);
  });
});

describe('line diff edges', () => {
  it('treats CRLF and LF line ends, and a missing final newline, as the same lines', () => {
    expect(diffLines('a\r\nb\r\n', 'a\nb\n')).toEqual([]);
    expect(diffLines('a\nb', 'a\nb\n')).toEqual([]);
  });

  it('shows two unrelated large files as replaced rather than spending seconds aligning them', () => {
    const before = Array.from({ length: 5_000 }, (_, i) => `old ${i}`).join('\n');
    const after = Array.from({ length: 5_000 }, (_, i) => `new ${i}`).join('\n');
    const started = performance.now();
    const [hunk] = diffLines(before, after);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(hunk.lines.filter((l) => l.op === 'remove')).toHaveLength(5_000);
    expect(hunk.lines.filter((l) => l.op === 'add')).toHaveLength(5_000);
  });
});
