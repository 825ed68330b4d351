import { describe, expect, it } from 'vitest';
import { mintToken } from './minted-token.ts';

describe('a minted platform token', () => {
  // One in 64 began with "-": `flow-studio manifest --token "$(cat platform.token)"` then stopped
  // with "Option '--token' argument is ambiguous", and manifest.test.ts failed one run in 64.
  it('never starts with "-", so it can follow --token on a command line', () => {
    const tokens = Array.from({ length: 2000 }, mintToken);
    expect(tokens.filter((t) => t.startsWith('-'))).toEqual([]);
    for (const t of tokens.slice(0, 20)) expect(t).toMatch(/^[A-Za-z0-9_][A-Za-z0-9_-]{31}$/);
    expect(new Set(tokens).size).toBe(tokens.length);
  });
});
