import { describe, expect, it } from 'vitest';
import type { StudioApi } from '../../shared/studio-api.ts';
import { ApiError } from '../platform/http/api-error.ts';
import { dispatchStudioCall } from './studio-dispatch.ts';
import { StudioError } from './studio-error.ts';

const failing = (err: unknown): StudioApi =>
  ({
    readFile: async () => {
      throw err;
    },
  }) as unknown as StudioApi;

describe('a studio call that fails', () => {
  it.each([
    ['a StudioError', new StudioError('"x y" is not an integration id'), 'user'],
    ['a StudioError.conflict', StudioError.conflict('"a.yaml" already exists in "shop"'), 'conflict'],
    ['a StudioError.notFound', StudioError.notFound('no file "a.yaml" in integration "shop"'), 'not-found'],
    ["the platform's 404", new ApiError(404, 'secret_not_found', 'no cluster secret "db"'), 'not-found'],
    ["the platform's 409", new ApiError(409, 'secret_in_use', 'the secret "db" is bound by prod'), 'conflict'],
    ["the platform's 400", new ApiError(400, 'invalid_bundle', 'the bundle holds "a" twice'), 'user'],
    ["the platform's 503", new ApiError(503, 'secret_store_unavailable', 'the secret store is unavailable'), 'internal'],
    ['any other error', new RangeError('Invalid array length'), 'internal'],
  ])('reports %s as %s', async (_what, err, kind) => {
    const logged: unknown[] = [];
    const result = await dispatchStudioCall(failing(err), 'readFile', ['shop', 'a.yaml'], (_method, e) => logged.push(e));
    expect(result).toEqual({ ok: false, error: (err as Error).message, kind });
    // Only the unexpected ones are logged, with the error itself (and so its stack).
    expect(logged).toEqual(kind === 'internal' ? [err] : []);
  });
});
