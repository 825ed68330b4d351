import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../testing/platform-harness.ts';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
  await platform.call('PUT', '/integrations/web/definitions/web.yaml', {
    json: {
      content: `env:
  HTTP_PORT: {required: true}
  HTTP_HOST: {default: 0.0.0.0}
  GREETING: {default: hello}
connectors:
  http: {type: http, host: '\${HTTP_HOST}', port: '\${HTTP_PORT}'}
flows: {}
`,
    },
  });
  await platform.call('POST', '/integrations/web/tags', { json: { tag: 'v1' } });
});
afterAll(() => platform.close());

const deploy = (id: string, bindings: unknown) => platform.call('PUT', `/deployments/${id}`, { json: { integration: 'web', tag: 'v1', bindings } });

// Spec 2 §2.1: orchestrator-managed HTTP_PORT and HTTP_HOST cannot be bound at deploy time.
describe('deploying with a binding of a managed variable', () => {
  it('refuses HTTP_PORT and HTTP_HOST with 400 naming the rule, and stores nothing', async () => {
    for (const [name, binding] of [['HTTP_PORT', { value: '9090' }], ['HTTP_HOST', { value: '127.0.0.1' }], ['HTTP_PORT', '']] as const) {
      const res = await deploy('web-prod', { [name]: binding });
      expect(res.status).toBe(400);
      expect(res.code).toBe('managed_variable');
      expect(res.message).toBe(
        `bindings.${name}: ${name} is managed by the orchestrator and cannot be bound at deploy time (HTTP_PORT and HTTP_HOST are set for every pod); remove the binding, or give the http connector an explicit port/host in the definition`,
      );
    }
    expect((await platform.call('GET', '/deployments/web-prod')).status).toBe(404);
  });

  it('deploys without them, even where the definition declares HTTP_PORT required: the orchestrator provides it', async () => {
    const res = await deploy('web-prod', { GREETING: 'hi' });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ bindings: { GREETING: { value: 'hi' } } });
  });
});
