import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LogRecord } from '../../core/logger.ts';
import type { Runtime } from '../../core/runtime.ts';
import { startYaml } from '../../testing/load-yaml.ts';
import { NotesApiDouble } from './testing/notes-api-double.ts';
import { PAGE_ID, everySupportedBlock, webhookEvent } from './testing/notes-fixtures.ts';

/**
 * The example in examples/notes-webhook, served for real: an http route on 127.0.0.1 receives
 * the webhooks and the notes connector calls the API double.
 */
const example = readFileSync(new URL('../../../../examples/notes-webhook/notes-webhook.yaml', import.meta.url), 'utf8');
const golden = readFileSync(new URL('./testing/every-supported-block.md', import.meta.url), 'utf8');
const VERIFICATION = 'secret_webhook_verification_token';

let double: NotesApiDouble;
const running: Runtime[] = [];
beforeAll(async () => {
  double = await NotesApiDouble.start();
  double.children.set(PAGE_ID, everySupportedBlock());
});
afterAll(() => double.close());
afterEach(async () => {
  for (const r of running.splice(0)) await r.stop(1_000);
});

async function serveExample(env: Record<string, string> = {}): Promise<{ url: string; logs: LogRecord[]; runtime: Runtime }> {
  // The example binds loopback on a port the OS picks, as shipped.
  const yaml = example
    .replace('    verificationToken: ${NOTES_VERIFICATION_TOKEN}\n', `    verificationToken: \${NOTES_VERIFICATION_TOKEN}\n    apiBaseURL: ${double.baseURL}\n`);
  expect(yaml).toContain('port: 0');
  expect(yaml).toContain(double.baseURL);
  const { runtime, logs } = await startYaml(yaml, { NOTES_TOKEN: double.token, ...env });
  running.push(runtime);
  const url = runtime.describe().connectors.find((c) => c.type === 'http')?.details?.url;
  if (typeof url !== 'string') throw new Error('the example has no started http connector');
  return { url: `${url}/webhooks/notes`, logs, runtime };
}

const sign = (payload: string, token: string) => `sha256=${createHmac('sha256', token).update(payload).digest('hex')}`;

async function post(url: string, payload: string, signature?: string) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (signature !== undefined) headers['x-notes-signature'] = signature;
  const res = await request(url, { method: 'POST', headers, body: payload });
  return { status: res.statusCode, contentType: res.headers['content-type'], text: await res.body.text() };
}

const updated = JSON.stringify(webhookEvent('page.content_updated'), null, 1);

describe('the notes webhook example over HTTP', () => {
  it('captures the handshake, then answers a signed page update with the page as Markdown', async () => {
    const { url, logs } = await serveExample();
    const shake = await post(url, JSON.stringify({ verification_token: VERIFICATION }));
    expect(shake.status).toBe(204);
    expect(logs.filter((l) => l.verificationToken === VERIFICATION)).toHaveLength(1);

    const page = await post(url, updated, sign(updated, VERIFICATION));
    expect(page.status).toBe(200);
    expect(page.contentType).toMatch(/^text\/markdown/);
    expect(page.text).toBe(golden);
    expect(logs.some((l) => l.msg === `page updated: ${PAGE_ID}`)).toBe(true);
    expect(JSON.stringify(logs)).not.toContain(double.token);
  });

  it('drops other event types and answers 401 to unsigned, badly signed and second-handshake requests', async () => {
    const { url } = await serveExample({ NOTES_VERIFICATION_TOKEN: VERIFICATION });
    const created = JSON.stringify(webhookEvent('page.created'));
    expect((await post(url, created, sign(created, VERIFICATION))).status).toBe(204);
    for (const [payload, signature] of [
      [updated, undefined],
      [updated, sign(updated, 'wrong_token')],
      [updated, sign(updated.replace('Acme', 'Acmf'), VERIFICATION)],
      [JSON.stringify({ verification_token: 'attacker' }), undefined],
    ] as const) {
      const res = await post(url, payload, signature);
      // A rejection of the caller's request (spec 2 §7), not our failure: the sender must not retry it.
      expect(res.status).toBe(401);
      expect(res.contentType).toBe('application/json');
      expect(JSON.parse(res.text).error).toMatch(/^notes webhook rejected: /);
      expect(res.text).not.toContain(VERIFICATION);
    }
    expect((await post(url, updated, sign(updated, VERIFICATION))).status).toBe(200);
  });
});
