import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, exportSPKI, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startYaml } from '../../testing/load-yaml.ts';

const flowWith = (settings: string, env = ''): string => `${env}
flows:
  guarded:
    steps:
      - jwt-verify: ${settings}
      - set: {body: 'vars.jwt.sub'}
`;

async function call(yaml: string, token: string | undefined, env: Record<string, string> = {}) {
  const { runtime } = await startYaml(yaml, env);
  try {
    return await runtime.run('guarded', null, token === undefined ? {} : { Authorization: `Bearer ${token}` });
  } finally {
    await runtime.stop();
  }
}

describe('jwt-verify', () => {
  const secret = 'a-long-shared-secret-for-hs256-tests';
  const hs = (claims: Record<string, unknown> = {}, exp = '5m') =>
    new SignJWT({ sub: 'alice', ...claims }).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime(exp).sign(new TextEncoder().encode(secret));

  it('lets a valid HS256 token through with its claims in vars.jwt, the secret coming from a variable', async () => {
    const result = await call(flowWith("{secret: '${JWT_SECRET}', issuer: https://auth.test}", 'env: {JWT_SECRET: {secret: true, required: true}}'), await hs({ iss: 'https://auth.test' }), { JWT_SECRET: secret });
    expect(result.outcome).toBe('completed');
    expect(result.message.body).toBe('alice');
  });

  it('rejects with 401 and a reason when the token is missing, expired, wrongly signed or for another issuer', async () => {
    const yaml = flowWith(`{secret: ${secret}, issuer: https://auth.test}`);
    const cases: Array<[string | undefined, RegExp]> = [
      [undefined, /missing Authorization header/],
      [await hs({ iss: 'https://auth.test' }, Math.floor(Date.now() / 1000) - 60 as unknown as string), /exp/],
      [await new SignJWT({ sub: 'x', iss: 'https://auth.test' }).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode('another-secret-entirely-different')), /signature/],
      [await hs({ iss: 'https://evil.test' }), /iss/],
    ];
    for (const [token, reason] of cases) {
      const result = await call(yaml, token);
      expect(result.outcome).toBe('completed');
      expect(result.halted).toBe(true);
      expect(result.message.vars.httpStatus).toBe(401);
      expect((result.message.body as { error: string }).error).toMatch(reason);
    }
  });

  it('verifies RS256 and ES256 tokens against a PEM public key, and checks the audience', async () => {
    for (const alg of ['RS256', 'ES256'] as const) {
      const { publicKey, privateKey } = await generateKeyPair(alg);
      const pem = (await exportSPKI(publicKey)).replace(/\n/g, '\\n');
      const yaml = flowWith(`{publicKey: "${pem}", audience: orders}`);
      const good = await new SignJWT({ sub: 'bob', aud: 'orders' }).setProtectedHeader({ alg }).setExpirationTime('1m').sign(privateKey);
      expect((await call(yaml, good)).message.body).toBe('bob');
      const wrongAudience = await new SignJWT({ sub: 'bob', aud: 'billing' }).setProtectedHeader({ alg }).setExpirationTime('1m').sign(privateKey);
      expect((await call(yaml, wrongAudience)).message.vars.httpStatus).toBe(401);
    }
  });

  describe('with a JWKS URL', () => {
    let server: Server;
    let url: string;
    let privateKey: CryptoKey;
    beforeAll(async () => {
      const pair = await generateKeyPair('RS256');
      privateKey = pair.privateKey as CryptoKey;
      const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
      server = createServer((_, res) => res.setHeader('content-type', 'application/json').end(JSON.stringify({ keys: [jwk] })));
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
    });
    afterAll(() => new Promise<void>((r) => server.close(() => r())));

    it('fetches the key set and verifies a token signed by one of its keys', async () => {
      const token = await new SignJWT({ sub: 'carol' }).setProtectedHeader({ alg: 'RS256', kid: 'k1' }).setExpirationTime('1m').sign(privateKey);
      expect((await call(flowWith(`{jwksURL: "${url}"}`), token)).message.body).toBe('carol');
    });
  });

  it('refuses at load a block with no key or with two', async () => {
    const { problemsOf } = await import('../../testing/load-yaml.ts');
    expect(problemsOf(flowWith('{issuer: x}'))[0]).toMatch(/jwt-verify needs exactly one of secret, publicKey or jwksURL/);
    expect(problemsOf(flowWith('{secret: abcd, jwksURL: "http://x"}'))[0]).toMatch(/exactly one/);
  });
});
