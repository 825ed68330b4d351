import { describe, expect, it } from 'vitest';
import { Router, type Route } from './router.ts';

const route = (method: Route['method'], path: string): Route => ({ method, path, capability: 'test', enabled: true, maxBodyBytes: 0, handle() {} });
const router = new Router().add(
  route('POST', '/v1/queues/{subject}/publish'),
  route('POST', '/v1/queues/reply'),
  route('GET', '/v1/agent-memory/{agentId}/threads/{threadKey}'),
  route('DELETE', '/v1/agent-memory/{agentId}/threads/{threadKey}'),
  route('GET', '/v1/agent-memory/{agentId}/threads'),
);

describe('router', () => {
  it('matches templates and decodes each parameter exactly once', () => {
    const m = router.match('POST', '/v1/queues/orders%2Fnew%2520x/publish');
    expect(m).toMatchObject({ kind: 'route', params: { subject: 'orders/new%20x' } });
  });

  it('prefers static segments over parameters', () => {
    expect(router.match('POST', '/v1/queues/reply')).toMatchObject({ kind: 'route', route: { path: '/v1/queues/reply' } });
  });

  it('reports the methods a known path answers', () => {
    expect(router.match('PUT', '/v1/agent-memory/a/threads/t')).toEqual({ kind: 'wrong-method', allow: ['GET', 'DELETE'] });
  });

  it('matches nothing for unknown paths, empty parameters and trailing slashes', () => {
    expect(router.match('GET', '/v1/agent-memory/a/threads/')).toEqual({ kind: 'none' });
    expect(router.match('GET', '/v1/agent-memory//threads')).toEqual({ kind: 'none' });
    expect(router.match('GET', '/v1/other')).toEqual({ kind: 'none' });
  });

  it('refuses malformed percent-encoding with a 400 naming the parameter', () => {
    expect(() => router.match('POST', '/v1/queues/%zz/publish')).toThrow(/subject is not valid percent-encoding/);
  });

  it('finds a template by its resource segment written percent-encoded, and one with a parameter there after the literal ones', () => {
    const r = new Router().add(route('GET', '/v1/kv/{namespace}/entry'), route('GET', '/v1/{anything}/{namespace}/entry'), route('PUT', '/v1/kv/{namespace}/entry'));
    expect(r.match('GET', '/v1/%6Bv/users/entry')).toMatchObject({ kind: 'route', route: { path: '/v1/kv/{namespace}/entry' }, params: { namespace: 'users' } });
    expect(r.match('GET', '/v1/other/users/entry')).toMatchObject({ kind: 'route', route: { path: '/v1/{anything}/{namespace}/entry' }, params: { anything: 'other' } });
    // Only templates as specific as the first match answer: the parameter template does not add its GET.
    expect(r.match('DELETE', '/v1/kv/users/entry')).toEqual({ kind: 'wrong-method', allow: ['GET', 'PUT'] });
    expect(r.match('GET', '/v1/kv/users')).toEqual({ kind: 'none' });
  });

  it('refuses a resource segment with broken percent-encoding with a 400 naming it', () => {
    expect(() => router.match('POST', '/v1/%zz/reply')).toThrow(/path segment "%zz" is not valid percent-encoding/);
  });
});
