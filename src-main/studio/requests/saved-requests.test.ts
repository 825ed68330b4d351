import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ComposerRequest } from '../../../shared/request-types.ts';
import { SavedRequests } from './saved-requests.ts';

const request = (header: string): ComposerRequest => ({
  name: 'GET /json',
  target: { integration: 'shop', flow: 'json', route: '/json' },
  method: 'GET',
  url: '',
  pathParams: {},
  query: [],
  headers: [{ name: header, value: 'v', enabled: true }],
  body: { kind: 'none' },
  sign: false,
});

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});
const workspace = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'saved-requests-'));
  dirs.push(d);
  return d;
};

describe('saving requests', () => {
  it('Save as… under a name already saved keeps the saved request and writes a new file beside it', () => {
    const root = workspace();
    const saved = new SavedRequests(root);
    const first = saved.save(request('X-First'));
    const second = saved.save(request('X-Second'));
    expect(second.file).not.toBe(first.file);
    expect(saved.list().map((s) => s.request.headers[0].name).sort()).toEqual(['X-First', 'X-Second']);
    expect(readFileSync(join(root, 'requests', first.file), 'utf8')).toContain('X-First');
  });

  it('Save of a request opened from its file writes that file', () => {
    const saved = new SavedRequests(workspace());
    const first = saved.save(request('X-First'));
    const again = saved.save(request('X-Edited'), first.file);
    expect(again.file).toBe(first.file);
    expect(saved.list().map((s) => s.request.headers[0].name)).toEqual(['X-Edited']);
  });
});
