import { describe, expect, it } from 'vitest';
import { setClaimTime } from './jwt-claims.ts';

describe('stamping a time claim into the claims editor', () => {
  it('sets exp keeping the other claims, and an empty editor becomes an object', () => {
    expect(setClaimTime('{"sub": "billing", "exp": 1}', 'exp', 1_700_003_600)).toEqual({ ok: true, text: '{\n  "sub": "billing",\n  "exp": 1700003600\n}' });
    expect(setClaimTime('  ', 'iat', 1_700_000_000)).toEqual({ ok: true, text: '{\n  "iat": 1700000000\n}' });
  });

  it('leaves claims that do not parse alone and says why', () => {
    expect(setClaimTime('{"sub": ', 'iat', 1)).toMatchObject({ ok: false, reason: expect.stringMatching(/^the claims are not valid JSON \(.+\); fix them before setting iat$/) });
    expect(setClaimTime('[]', 'exp', 1)).toEqual({ ok: false, reason: 'the claims must be a JSON object before exp can be set' });
  });
});
