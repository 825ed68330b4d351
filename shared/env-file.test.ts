import { describe, expect, it } from 'vitest';
import { parseEnvFile } from './env-file.ts';

const values = (text: string) => Object.fromEntries(parseEnvFile(text).entries.map((e) => [e.name, e.value]));

describe('env files (.env convention)', () => {
  it('reads NAME=value lines, skipping blanks and comments, with export allowed', () => {
    expect(values('# settings\nTAX_RATE=0.2\n\nexport REGION = eu-west \r\nURL=http://x/?a=b#frag\n')).toEqual({
      TAX_RATE: '0.2',
      REGION: 'eu-west',
      URL: 'http://x/?a=b#frag',
    });
  });

  it('ends an unquoted value at an inline comment, keeps quoted ones whole', () => {
    expect(values(`A=1 # one\nB="two # not a comment"\nC='lit\\n'\nD="esc\\n\\"q\\""`)).toEqual({ A: '1', B: 'two # not a comment', C: 'lit\\n', D: 'esc\n"q"' });
  });

  it('lets a double-quoted value span lines, as PEM keys do', () => {
    expect(values('KEY="-----BEGIN-----\nabc\n-----END-----"\nNEXT=1')).toEqual({ KEY: '-----BEGIN-----\nabc\n-----END-----', NEXT: '1' });
  });

  it('keeps an empty value empty', () => {
    expect(values('EMPTY=\nQUOTED=""')).toEqual({ EMPTY: '', QUOTED: '' });
  });

  it('names the line of a problem without quoting its value', () => {
    const parsed = parseEnvFile('A=1\nthis is not an assignment with-secret-value\n1BAD=x\nQ="never closed');
    expect(parsed.problems).toEqual([
      { line: 2, message: 'expected NAME=value' },
      { line: 3, message: expect.stringContaining('letters, digits') },
      { line: 4, message: 'the double quote is never closed' },
    ]);
    expect(JSON.stringify(parsed.problems)).not.toContain('with-secret-value');
  });
});
