import { describe, expect, it } from 'vitest';
import { literalCalls } from '../core/load/cel-prefetch.ts';
import { apiConfigFromEnv, identityFromEnv, parseStaticHeaders } from './api-config.ts';
import { PlatformError } from './platform-error.ts';

describe('the api module configuration', () => {
  it('reads static headers as JSON or as Name=value pairs', () => {
    expect(parseStaticHeaders('{"X-Api-Key": "k"}')).toEqual({ 'X-Api-Key': 'k' });
    expect(parseStaticHeaders('X-A=1, X-B=a%3Db')).toEqual({ 'X-A': '1', 'X-B': 'a=b' });
    expect(() => parseStaticHeaders('X-A')).toThrow(/"X-A…" is not Name=value/);
  });

  it('reads the discovery budget as a duration or a number of seconds, 30 s by default', () => {
    const base = { FLOW_PLATFORM_API_URL: 'http://127.0.0.1:1/' };
    expect(apiConfigFromEnv(base)).toMatchObject({ baseUrl: 'http://127.0.0.1:1', discoveryBudgetMs: 30_000 });
    expect(apiConfigFromEnv({ ...base, FLOW_PLATFORM_API_DISCOVERY_BUDGET: '2m' }).discoveryBudgetMs).toBe(120_000);
    expect(apiConfigFromEnv({ ...base, FLOW_PLATFORM_API_DISCOVERY_BUDGET: '5' }).discoveryBudgetMs).toBe(5000);
    expect(() => apiConfigFromEnv({ ...base, FLOW_PLATFORM_API_DISCOVERY_BUDGET: 'soon' })).toThrow(/not a duration/);
  });

  it('needs both halves of a client certificate for mutual TLS', () => {
    expect(() => apiConfigFromEnv({ FLOW_PLATFORM_API_URL: 'https://p', FLOW_PLATFORM_API_TLS_CERT_FILE: '/c.pem' })).toThrow(/needs both/);
  });

  it('names the deployment and instance from the environment, with local defaults', () => {
    expect(identityFromEnv({ FLOW_DEPLOYMENT_ID: 'shop', FLOW_INSTANCE_ID: 'shop-7f9' })).toEqual({ deploymentId: 'shop', instanceId: 'shop-7f9' });
    expect(identityFromEnv({})).toEqual({ deploymentId: 'local', instanceId: expect.stringMatching(/-\d+$/) });
  });
});

describe('platform errors', () => {
  it('quote the first 512 bytes of the error body and keep its code', () => {
    const body = Buffer.from(JSON.stringify({ error: { code: 'boom', message: 'x'.repeat(1000) } }));
    const err = new PlatformError('PUT /v1/kv/user/entry', 500, body, 'kv put user/a');
    expect(err.code).toBe('boom');
    expect(err.message.startsWith('kv put user/a: platform PUT /v1/kv/user/entry answered 500: {"error":{"code":"boom"')).toBe(true);
    expect(err.message.endsWith('…')).toBe(true);
    expect(err.message.length).toBeLessThan(600);
  });
});

describe('reading CEL calls ahead', () => {
  it('finds the literal first argument of each call, and skips computed ones', () => {
    expect(literalCalls(`"Bearer " + secret("api-key") + secret('other\\'s')`, 'secret')).toEqual([['api-key'], ["other's"]]);
    expect(literalCalls('templateResource("a/b.txt", {"body": body}) + templateResource(vars.name)', 'templateResource')).toEqual([['a/b.txt']]);
    expect(literalCalls('mysecret("x") + o.secret("y")', 'secret')).toEqual([]);
  });
});
