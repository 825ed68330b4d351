import { describe, expect, it } from 'vitest';
import { parseMessageInput } from './message-input.ts';

describe('test message input', () => {
  it('reads a JSON body and string headers', () => {
    expect(parseMessageInput('{"id": 7}', '{"tenant": "acme"}')).toEqual({ ok: true, body: { id: 7 }, headers: { tenant: 'acme' } });
    expect(parseMessageInput('', '')).toEqual({ ok: true, body: null, headers: {} });
  });

  it('says what is wrong with the body or headers', () => {
    expect(parseMessageInput('{id: 7}', '')).toMatchObject({ ok: false, error: expect.stringMatching(/^The body is not JSON/) });
    expect(parseMessageInput('1', '[1]')).toEqual({ ok: false, error: 'The headers must be a JSON object, e.g. {"tenant": "acme"}' });
    expect(parseMessageInput('1', '{"n": 1}')).toEqual({ ok: false, error: 'Header "n" must be a string, got 1' });
  });
});
