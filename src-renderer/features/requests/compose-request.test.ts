import { describe, expect, it } from 'vitest';
import type { ComposerRequest } from '../../../shared/request-types.ts';
import { composerProblems, resolveRequest, toCurl } from './compose-request.ts';

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
