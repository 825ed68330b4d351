import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KvEntryDetail, KvWriteInput, KvWriteResult } from '../../../shared/platform-views.ts';
import { startWebStudioHarness, type WebStudioHarness } from '../testing/web-studio-harness.ts';

let w: WebStudioHarness;
beforeAll(async () => {
  w = await startWebStudioHarness();
}, 30_000);
afterAll(() => w?.close());

/** A StudioApi call as the page sends it over the web studio's HTTP API. */
const call = <T>(method: string, ...args: unknown[]): Promise<T> => w.call<T>(method, ...args);

/** Edit, then Save without changing anything: what the storage view's editor sends. */
async function editAndSave(namespace: string, key: string): Promise<KvEntryDetail> {
  const before = await call<KvEntryDetail>('kvEntry', namespace, key);
  const input: KvWriteInput = { namespace, key, text: before.editText!, format: before.editFormat!, expectedVersion: before.version };
  const saved = await call<KvWriteResult>('writeKvEntry', input);
  expect(saved.ok).toBe(true);
  return call<KvEntryDetail>('kvEntry', namespace, key);
}

describe('a KV value saved from the storage view', () => {
  it.each([
    ['JSON with spaces', '{ "a": 1 }'],
    ['a number written with a decimal point', '1.0'],
    ['JSON with a trailing newline', '[1, 2]\n'],
  ])('is stored as typed when typed as text, edit after edit: %s', async (_what, typed) => {
    const key = `typed-${Buffer.from(typed).toString('hex')}`;
    await call<KvWriteResult>('writeKvEntry', { namespace: 'notes', key, text: typed, format: 'text', expectedVersion: 0 });
    const first = await call<KvEntryDetail>('kvEntry', 'notes', key);
    expect(first).toMatchObject({ editText: typed, editFormat: 'text' });
    const after = await editAndSave('notes', key);
    expect(after.version).toBeGreaterThan(first.version);
    expect(after).toMatchObject({ editText: typed, editFormat: 'text' });
    expect(after.value).toMatchObject({ bytes: Buffer.byteLength(typed) });
  });

  it('stays JSON, pretty to edit and compact when stored, when saved as JSON', async () => {
    await call<KvWriteResult>('writeKvEntry', { namespace: 'notes', key: 'as-json', text: '{ "a": [1, 2] }', format: 'json', expectedVersion: 0 });
    const after = await editAndSave('notes', 'as-json');
    expect(after).toMatchObject({ editText: '{\n  "a": [\n    1,\n    2\n  ]\n}', editFormat: 'json' });
    expect(after.value).toMatchObject({ bytes: '{"a":[1,2]}'.length });
  });
});
