import { describe, expect, it } from 'vitest';
import type { ComposerRequest } from '../../../shared/request-types.ts';
import { composerOfSent, composerProblems, resolveRequest, retarget, toCurl } from './compose-request.ts';

const route = { flow: 'job-progress', path: '/jobs/{job}/progress', methods: ['GET'], url: 'http://127.0.0.1:4100/jobs/{job}/progress' };
const base: ComposerRequest = {
  name: 'progress',
  target: { integration: 'sse-progress', flow: 'job-progress', route: '/jobs/{job}/progress' },
  method: 'POST',
  url: '',
  pathParams: { job: '{{job}} 7' },
  query: [
    { name: 'verbose', value: '1', enabled: true },
    { name: 'skip', value: 'x', enabled: false },
  ],
  headers: [{ name: 'Authorization', value: 'Bearer {{token}}', enabled: true }],
  body: { kind: 'json', text: '{"who": "{{user}}"}' },
  sign: false,
};
const env = { name: 'local', vars: { job: 'report', token: 't-1', user: "o'neil" } };

describe('the composer', () => {
  it("fills environment variables and path parameters into the running route's current URL", () => {
    const r = resolveRequest(base, route, env);
    expect(r.url).toBe('http://127.0.0.1:4100/jobs/report%207/progress?verbose=1');
    expect(r.headers).toEqual([['Authorization', 'Bearer t-1']]);
    expect(r.body).toEqual({ kind: 'json', text: `{"who": "o'neil"}` });
  });

  it("lets a body use the route's path parameters as {{variables}}, over the environment's", () => {
    const r = resolveRequest({ ...base, pathParams: { job: '{{job}}-9' }, body: { kind: 'json', text: '{"job": "{{job}}", "by": "{{user}}"}' } }, route, env);
    expect(r.url).toBe('http://127.0.0.1:4100/jobs/report-9/progress?verbose=1');
    expect(r.body).toEqual({ kind: 'json', text: `{"job": "report-9", "by": "o'neil"}` });
    const body = { kind: 'json' as const, text: '{"job": "{{job}}"}' };
    expect(composerProblems({ ...base, headers: [], body }, route, {})).toEqual([]);
    expect(composerProblems({ ...base, headers: [], body, pathParams: { job: '' } }, route, {})).toEqual(['path parameter {job} is empty', '{{job}} is not a variable of the environment']);
  });

  it('says what is missing before sending: an empty parameter, an unknown variable, a route not running', () => {
    const problems = composerProblems({ ...base, pathParams: { job: '' }, headers: [{ name: 'X', value: '{{nope}}', enabled: true }] }, undefined, env.vars);
    expect(problems).toEqual(['sse-progress is not running; run it to send to /jobs/{job}/progress', 'path parameter {job} is empty', '{{nope}} is not a variable of the environment']);
  });

  it('copies as a curl command that a shell cannot misread', () => {
    const curl = toCurl(resolveRequest(base, route, env));
    expect(curl).toBe(
      `curl -i -X POST 'http://127.0.0.1:4100/jobs/report%207/progress?verbose=1' -H 'Authorization: Bearer t-1' -H 'Content-Type: application/json' --data-binary '{"who": "o'\\''neil"}'`,
    );
  });
});

describe('a sent request back in the composer', () => {
  it('goes back to its route with the path parameters it was sent with, so a re-send follows the route to its port now', () => {
    const sent = { method: 'PUT', url: 'http://127.0.0.1:41000/api/items/42?fields=name', headers: [['content-type', 'application/json']] as Array<[string, string]>, body: { kind: 'json' as const, text: '{"name": "lamp"}' }, target: { integration: 'json-api', flow: 'item', route: '/items/{id}' } };
    const back = composerOfSent(sent);
    expect(back).toMatchObject({ target: sent.target, url: '', pathParams: { id: '42' }, query: [{ name: 'fields', value: 'name', enabled: true }], body: sent.body });
    // The route now listens elsewhere: the request goes there.
    const moved = { flow: 'item', path: '/items/{id}', methods: ['PUT'], url: 'http://127.0.0.1:42000/api/items/{id}' };
    expect(resolveRequest(back, moved, undefined).url).toBe('http://127.0.0.1:42000/api/items/42?fields=name');
    // One sent to a typed URL goes back to it.
    expect(composerOfSent({ ...sent, target: undefined }).url).toBe(sent.url);
  });

  it('keeps the typed body and path parameters when the route is picked again', () => {
    const fresh: ComposerRequest = { ...base, pathParams: { job: '' }, body: { kind: 'json', text: '{\n  \n}' }, headers: [], query: [] };
    const kept = retarget(base, fresh);
    expect(kept.pathParams).toEqual({ job: '{{job}} 7' });
    expect(kept.body).toEqual(base.body);
    expect(kept.headers).toEqual(base.headers);
    // A method that sends no body takes none; another route starts afresh.
    expect(retarget(base, { ...fresh, method: 'GET', body: { kind: 'none' } }).body).toEqual({ kind: 'none' });
    expect(retarget(base, { ...fresh, target: { ...base.target!, route: '/jobs/{job}' } })).toEqual({ ...fresh, target: { ...base.target!, route: '/jobs/{job}' } });
  });

  it('says which history entry it came from, so its masked values go out as they were sent, until another route is picked', () => {
    const opened: ComposerRequest = { ...base, headers: [{ name: 'Authorization', value: 'Bearer [redacted]', enabled: true }], fromHistory: 'h-7' };
    expect(resolveRequest(opened, route, env).fromHistory).toBe('h-7');
    expect(resolveRequest(base, route, env).fromHistory).toBeUndefined();
    const fresh: ComposerRequest = { ...base, pathParams: { job: '' }, headers: [], query: [] };
    expect(retarget(opened, fresh).fromHistory).toBe('h-7');
    expect(retarget(opened, { ...fresh, target: { ...base.target!, route: '/jobs/{job}' } }).fromHistory).toBeUndefined();
  });
});
