import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOOPBACK, serveYaml, type Served } from './test-support/serve-yaml.ts';

// Spec 2 §2.4 and §7: a failed flow answers 500 `{error}`; only an error chain may say otherwise.
describe('what a failed flow answers over HTTP', () => {
  let s: Served;
  beforeAll(async () => {
    s = await serveYaml(`${LOOPBACK}flows:
  created-then-failed:
    source: {type: http, path: /created-then-failed}
    steps:
      - set: {vars: {httpStatus: '"201"'}, body: '{"id": 7}'}
      - fail: {message: the ledger refused the order}
    onError:
      - log: {message: '"failed: " + vars.error.message'}
  chain-status-only:
    source: {type: http, path: /chain-status-only}
    steps:
      - set: {vars: {httpStatus: '"201"'}}
      - fail: {message: upstream said no}
    onError:
      - set: {vars: {httpStatus: '"502"'}}
  chain-body-only:
    source: {type: http, path: /chain-body-only}
    steps:
      - set: {vars: {httpStatus: '"201"'}}
      - fail: {message: upstream said no}
    onError:
      - set: {body: '{"sorry": vars.error.message}'}
  missing-entry:
    source: {type: http, path: '/orders/{id}'}
    steps:
      - kv-get: {key: 'vars.id', onMissing: fail}
    onError:
      - set: {vars: {httpStatus: vars.error.status}, body: '{"error": vars.error.message, "step": vars.error.step, "status": vars.error.status}'}
  lookup:
    steps:
      - kv-get: {key: 'vars.id', onMissing: fail}
  via-flow-ref:
    source: {type: http, path: '/via/{id}'}
    steps:
      - flow-ref: {flow: lookup}
    onError:
      - set: {vars: {httpStatus: vars.error.status}}
  plain-failure-status:
    source: {type: http, path: /plain}
    steps:
      - fail: {message: boom}
    onError:
      - set: {vars: {httpStatus: vars.error.status}, body: '{"status": vars.error.status}'}
`);
  });
  afterAll(() => s.stop());

  it('answers 500 with {error} when an earlier step set a success status and the error chain only logs', async () => {
    const res = await fetch(`${s.url}/created-then-failed`);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: 'the ledger refused the order' });
  });

  it('takes the status an error chain sets, with {error} as the body when the chain set none', async () => {
    const res = await fetch(`${s.url}/chain-status-only`);
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({ error: 'upstream said no' });
  });

  it('takes the body an error chain sets, with 500 when the chain set no status', async () => {
    const res = await fetch(`${s.url}/chain-body-only`);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ sorry: 'upstream said no' });
  });

  it('gives the error chain the failure’s own status in vars.error.status (kv-get onMissing: fail is 404)', async () => {
    const res = await fetch(`${s.url}/orders/o-1`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'no entry "o-1" in namespace user', step: 'flows.missing-entry.steps[0]', status: 404 });
  });

  it('keeps the status of a failure inside a sub-flow', async () => {
    const res = await fetch(`${s.url}/via/o-2`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'flow lookup failed: no entry "o-2" in namespace user' });
  });

  it('gives 500 in vars.error.status to a failure with no status of its own', async () => {
    const res = await fetch(`${s.url}/plain`);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ status: 500 });
  });
});

describe('a failure message an error chain answers with', () => {
  it('never carries a secret in plain text, even when the chain copies vars.error.message into its body', async () => {
    const secret = 'sk-live-31d4c0ffee';
    const served = await serveYaml(
      `${LOOPBACK}env:
  API_KEY: {secret: true}
flows:
  leaky:
    source: {type: http, path: /leaky}
    steps:
      - set: {body: '{"a": 1}[env("API_KEY")]'}
    onError:
      - set: {vars: {httpStatus: '"502"'}, body: '{"upstream": vars.error.message}'}
`,
      { API_KEY: secret },
    );
    try {
      const res = await fetch(`${served.url}/leaky`);
      expect(res.status).toBe(502);
      const text = await res.text();
      expect(text).toContain('No such key');
      expect(text).not.toContain(secret);
    } finally {
      await served.stop();
    }
  });
});
