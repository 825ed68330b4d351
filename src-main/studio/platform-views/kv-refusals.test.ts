import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchStudioCall } from '../studio-dispatch.ts';
import { startStudioHarness, type StudioHarness } from '../testing/studio-harness.ts';

let h: StudioHarness;
beforeAll(async () => {
  h = await startStudioHarness({});
}, 30_000);
afterAll(() => h?.close());

/** A call as the page makes it: through the dispatch that labels a failure's kind (and logs the internal ones). */
async function call(method: string, ...args: unknown[]): Promise<{ ok: boolean; value?: unknown; error?: string; kind?: string; logged: number }> {
  let logged = 0;
  const result = await dispatchStudioCall(h.backend.api, method, args, () => logged++);
  return { ...(result as { ok: boolean; value?: unknown; error?: string; kind?: string }), logged };
}

describe('KV writes the storage view refuses', () => {
  it.each([
    ['a key of spaces only', { namespace: 'orders', key: '   ', text: '1', format: 'json', expectedVersion: 0 }, 'the key is empty; give one'],
    ['a value in a secret namespace', { namespace: 'user_secrets', key: 'api', text: '"x"', format: 'json', expectedVersion: 0 }, '"user_secrets" holds secrets; set them in the Secrets panel'],
  ])('are the person’s mistake, said as such and not logged as an internal error: %s', async (_what, input, reason) => {
    const result = await call('writeKvEntry', input);
    expect(result).toMatchObject({ ok: false, kind: 'user' });
    expect(result.error).toContain(reason);
    expect(result.error).not.toMatch(/^Internal error/);
    expect(result.logged).toBe(0);
  });
});

// Spec 1 §2.4: a KV key is any string (it may contain slashes); neither its length nor its
// characters are limited, so what a flow can store the storage view opens and deletes.
describe('KV keys the platform takes that no StudioApi name could hold', () => {
  it.each([
    ['a key of 2,000 characters', `orders/${'k'.repeat(1_993)}`],
    ['a key with a tab and a line break', 'orders/1\tline\nbreak'],
  ])('open and delete from the storage view: %s', async (_what, key) => {
    expect(await call('writeKvEntry', { namespace: 'user', key, text: '{"id": 1}', format: 'json', expectedVersion: 0 })).toMatchObject({ ok: true });
    const opened = await call('kvEntry', 'user', key);
    expect(opened).toMatchObject({ ok: true, value: { namespace: 'user', key, editText: expect.stringContaining('"id"') } });
    const version = (opened.value as { version: number }).version;
    expect(await call('deleteKvEntry', 'user', key, version)).toMatchObject({ ok: true });
    expect(await call('kvEntry', 'user', key)).toMatchObject({ ok: true, value: null });
  });
});
