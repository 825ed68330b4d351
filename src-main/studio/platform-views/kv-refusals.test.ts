import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchStudioCall } from '../studio-dispatch.ts';
import { startStudioHarness, type StudioHarness } from '../testing/studio-harness.ts';

let h: StudioHarness;
beforeAll(async () => {
  h = await startStudioHarness({});
}, 30_000);
afterAll(() => h?.close());

/** A call as the page makes it: through the dispatch that labels a failure's kind (and logs the internal ones). */
async function call(method: string, ...args: unknown[]): Promise<{ ok: boolean; error?: string; kind?: string; logged: number }> {
  let logged = 0;
  const result = await dispatchStudioCall(h.backend.api, method, args, () => logged++);
  return { ...(result as { ok: boolean; error?: string; kind?: string }), logged };
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
