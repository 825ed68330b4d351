import { afterEach, describe, expect, it } from 'vitest';
import type { Runtime } from '../../../core/runtime.ts';
import { problemsOf, startYaml } from '../../../testing/load-yaml.ts';
import { PAGE_ID, WORKSPACE_ID, webhookEvent } from '../testing/notes-fixtures.ts';

const running: Runtime[] = [];
async function flow(settings: string) {
  const { runtime } = await startYaml(`flows:
  events:
    steps:
      - notes-event: ${settings}
`);
  running.push(runtime);
  return runtime;
}
afterEach(async () => {
  for (const r of running.splice(0)) await r.stop();
});

describe('notes-event', () => {
  it('replaces the body with the flat event shape, keeping the untouched payload in raw', async () => {
    const runtime = await flow('{}');
    const payload = webhookEvent('page.content_updated');
    const result = await runtime.run('events', payload);
    expect(result.outcome).toBe('completed');
    expect(result.message.body).toEqual({
      type: 'page.content_updated',
      entityId: PAGE_ID,
      entityType: 'page',
      workspaceId: WORKSPACE_ID,
      timestamp: '2025-09-12T09:31:07.482Z',
      raw: webhookEvent('page.content_updated'),
    });
  });

  it('drops event types outside the allowlist', async () => {
    const runtime = await flow('{eventTypes: [page.created, page.content_updated]}');
    expect((await runtime.run('events', webhookEvent('page.created'))).outcome).toBe('completed');
    expect((await runtime.run('events', webhookEvent('page.content_updated'))).outcome).toBe('completed');
    expect((await runtime.run('events', webhookEvent('page.deleted'))).outcome).toBe('dropped');
    expect((await runtime.run('events', webhookEvent('database.created', 'd-1', 'database'))).outcome).toBe('dropped');
  });

  it('drops events for which the filter over the normalized body is not true', async () => {
    const runtime = await flow(`{filter: 'body.entityType == "page" && body.raw.attempt_number == 1.0'}`);
    expect((await runtime.run('events', webhookEvent('page.created'))).outcome).toBe('completed');
    expect((await runtime.run('events', webhookEvent('database.created', 'd-1', 'database'))).outcome).toBe('dropped');
    const retried = { ...webhookEvent('page.created'), attempt_number: 2 };
    expect((await runtime.run('events', retried)).outcome).toBe('dropped');
  });

  it('fills fields the event lacks with null', async () => {
    const runtime = await flow('{}');
    const result = await runtime.run('events', { type: 'page.created' });
    expect(result.message.body).toEqual({ type: 'page.created', entityId: null, entityType: null, workspaceId: null, timestamp: null, raw: { type: 'page.created' } });
  });

  it('drops the subscription handshake, which is not an event', async () => {
    const runtime = await flow('{}');
    const result = await runtime.run('events', { verification_token: 'secret_x' }, { notesVerification: { verificationToken: 'secret_x' } });
    expect(result.outcome).toBe('dropped');
  });

  it('reads a raw JSON body and fails on a body that is not an event', async () => {
    const runtime = await flow('{}');
    const raw = { contentType: 'application/json', rawData: JSON.stringify(webhookEvent('page.created')) };
    expect((await runtime.run('events', raw)).message.body).toMatchObject({ type: 'page.created' });
    expect((await runtime.run('events', { entity: { id: 'x' } })).error?.message).toMatch(/expects a notes webhook event with a "type"/);
    expect((await runtime.run('events', [1, 2])).error?.message).toMatch(/expects a JSON object webhook event/);
    expect((await runtime.run('events', { contentType: 'text/plain', rawData: 'hello' })).error?.message).toMatch(/the body is not JSON/);
  });

  it('reports a filter that does not compile at load, with its location', () => {
    expect(problemsOf(`flows:
  events:
    steps:
      - notes-event: {filter: 'body.type =='}
`)).toEqual([expect.stringMatching(/^flows\.yaml:4:\d+ flows\.events\.steps\[0\]\.notes-event\.filter: CEL: /)]);
  });
});
