import { createHmac } from 'node:crypto';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import type { HmacSignInput } from '../../../shared/request-types.ts';
import { hmacSignature, mintHs256Jwt } from './signing-helper.ts';

const secrets: Record<string, string> = { 'github-webhook': 'cluster-secret-value-9' };
const secretOf = (name: string): string | undefined => secrets[name];
const body = '{"action": "opened", "number": 7}';
const hmac = (key: string, data: string, enc: 'hex' | 'base64') => createHmac('sha256', key).update(data).digest(enc);

const github: HmacSignInput = {
  body: { kind: 'text', text: body, contentType: 'application/json' },
  secret: { kind: 'typed', value: 'typed-secret-1' },
  encoding: 'hex',
  header: 'X-Hub-Signature-256',
  prefix: 'sha256=',
  payload: 'body',
};

describe('the HMAC signing helper', () => {
  it('signs the exact body as GitHub does: X-Hub-Signature-256: sha256=<hex>', () => {
    expect(hmacSignature(github, secretOf)).toEqual({ ok: true, header: 'X-Hub-Signature-256', value: `sha256=${hmac('typed-secret-1', body, 'hex')}` });
  });

  it('encodes base64 with the prefix and header chosen, keyed by a cluster secret', () => {
    const r = hmacSignature({ ...github, encoding: 'base64', header: 'X-Signature', prefix: '', secret: { kind: 'secret', name: 'github-webhook' } }, secretOf);
    expect(r).toEqual({ ok: true, header: 'X-Signature', value: hmac('cluster-secret-value-9', body, 'base64') });
  });

  it('signs timestamp.body as Stripe does and writes t=<ts>,v1=<hex>', () => {
    const r = hmacSignature({ ...github, header: 'Stripe-Signature', prefix: 'v1=', payload: 'timestamp.body' }, secretOf, () => 1_700_000_000_123);
    expect(r).toEqual({ ok: true, header: 'Stripe-Signature', value: `t=1700000000,v1=${hmac('typed-secret-1', `1700000000.${body}`, 'hex')}` });
  });

  it('signs a JSON body as the composer sends it, byte for byte', () => {
    const json = '{\n  "a": 1\n}';
    const r = hmacSignature({ ...github, body: { kind: 'json', text: json } }, secretOf);
    expect(r).toMatchObject({ value: `sha256=${hmac('typed-secret-1', json, 'hex')}` });
  });

  it('refuses, without quoting the secret, a missing secret, an unknown cluster secret and a bad header name', () => {
    const results = [
      hmacSignature({ ...github, secret: { kind: 'typed', value: '' } }, secretOf),
      hmacSignature({ ...github, secret: { kind: 'secret', name: 'nope' } }, secretOf),
      hmacSignature({ ...github, header: 'X Bad: header' }, secretOf),
      hmacSignature({ ...github, body: { kind: 'json', text: '{"broken": ' } }, secretOf),
    ];
    expect(results.map((r) => (r.ok ? 'ok' : r.reason))).toEqual([
      'type the secret, or pick a cluster secret',
      'there is no cluster secret "nope"; create it in the Secrets panel',
      '"X Bad: header" is not a header name; use letters, digits and -, e.g. X-Hub-Signature-256',
      expect.stringMatching(/JSON body is not valid/),
    ]);
    expect(JSON.stringify(results)).not.toContain('typed-secret-1');
  });
});

describe('the HS256 JWT helper', () => {
  it('mints a token that verifies with the secret and carries the claims and header as written', async () => {
    const r = await mintHs256Jwt({ header: '{"typ": "JWT", "kid": "k1"}', claims: '{"sub": "billing", "iss": "webhook-sender", "iat": 1700000000, "exp": 4102444800}', secret: { kind: 'secret', name: 'github-webhook' } }, secretOf);
    if (!r.ok) throw new Error(r.reason);
    const { payload } = await jwtVerify(r.token, new TextEncoder().encode('cluster-secret-value-9'), { algorithms: ['HS256'] });
    expect(payload).toEqual({ sub: 'billing', iss: 'webhook-sender', iat: 1700000000, exp: 4102444800 });
    expect(decodeProtectedHeader(r.token)).toEqual({ typ: 'JWT', kid: 'k1', alg: 'HS256' });
    await expect(jwtVerify(r.token, new TextEncoder().encode('another-secret'))).rejects.toThrow(/signature verification failed/);
  });

  it('says what is wrong with the header, the claims or the algorithm', async () => {
    const typed = { kind: 'typed', value: 's3cr3t' } as const;
    const reasons = await Promise.all(
      [
        { header: '{"alg": "RS256"}', claims: '{}', secret: typed },
        { header: '{}', claims: '{"sub": ', secret: typed },
        { header: '{}', claims: '[1]', secret: typed },
        { header: '{}', claims: '{"exp": "tomorrow"}', secret: typed },
        { header: '{}', claims: '{}', secret: { kind: 'typed', value: '' } as const },
      ].map(async (input) => {
        const r = await mintHs256Jwt(input, secretOf);
        return r.ok ? 'ok' : r.reason;
      }),
    );
    expect(reasons).toEqual([
      'the header\'s alg is "RS256"; this helper signs HS256 only',
      expect.stringMatching(/^the claims is not valid JSON: /),
      'the claims must be a JSON object, like {"sub": "me"}',
      'the claim exp must be a number of seconds since 1970, not "tomorrow"',
      'type the secret, or pick a cluster secret',
    ]);
  });
});
