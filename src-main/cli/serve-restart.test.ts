import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CapturePage, HistoryEntry } from '../../shared/request-types.ts';
import type { RunState } from '../../shared/studio-api.ts';
import type { RunComparison, RunDetail, RunPage } from '../../shared/trace-types.ts';
import { startServe } from '../studio/testing/serve-process.ts';

const temp = mkdtempSync(join(tmpdir(), 'serve-restart-'));
const workspace = join(temp, 'workspace');
const dataDir = join(temp, 'data');

const items = (price: number) => `connectors:
  web: {type: http, port: 0}
flows:
  item:
    source: {type: http, path: '/items/{id}', methods: [PUT]}
    steps:
      - name: price it
        set: {body: '{"id": vars.id, "name": body.name, "price": ${price}}'}
`;

interface Serve {
  call<T>(method: string, ...args: unknown[]): Promise<T>;
  stop(): Promise<void>;
}

/** `flow-studio serve` on the test's folders, its session traded for a cookie as a browser does. */
async function serve(): Promise<Serve> {
  const started = await startServe({ workspace, dataDir });
  const origin = new URL(started.url).origin;
  const traded = await fetch(started.url, { redirect: 'manual' });
  const cookie = String(traded.headers.get('set-cookie')).split(';')[0];
  return {
    async call<T>(method: string, ...args: unknown[]): Promise<T> {
      const res = await fetch(`${origin}/api/call/${method}`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify({ args }) });
      const body = (await res.json()) as { ok: boolean; value?: T; error?: string };
      if (!body.ok) throw new Error(`${method}: ${body.error}`);
      return body.value as T;
    },
    stop: () => started.stop(),
  };
}

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, what: string): Promise<T> {
  for (const deadline = Date.now() + 20_000; ; await new Promise((r) => setTimeout(r, 100))) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`${what} within 20 s; last: ${JSON.stringify(v)}`);
  }
}

let running: Serve | undefined;
afterAll(async () => {
  await running?.stop().catch(() => {});
  rmSync(temp, { recursive: true, force: true });
});

describe('flow-studio serve, stopped and started again on the same folders', () => {
  it('lists the run with its steps, the capture and the history again, runs the integration again at the same URL, and names each run\'s version', async () => {
    mkdirSync(join(workspace, 'shop'), { recursive: true });
    writeFileSync(join(workspace, 'shop', 'items.yaml'), items(30));
    running = await serve();
    const started = await running.call<RunState>('startIntegration', 'shop');
    expect(started.status).toBe('running');
    const url = started.routes[0].url.replace('{id}', '42');
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/items\/42$/);

    // One request from outside (a curl), one from the composer.
    const outside = await fetch(url, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"name": "lamp-from-curl"}' });
    expect(await outside.json()).toEqual({ id: '42', name: 'lamp-from-curl', price: 30 });
    const sent = await running.call<HistoryEntry>('sendRequest', {
      id: 'composer-1',
      method: 'PUT',
      url,
      headers: [['content-type', 'application/json']],
      body: { kind: 'json', text: '{"name": "lamp-from-composer"}' },
      target: { integration: 'shop', flow: 'item', route: '/items/{id}' },
    });
    expect(sent.response.status).toBe(200);
    const v1 = await until(() => running!.call<RunPage>('queryRuns', { offset: 0, limit: 10 }), (p) => p.total === 2, 'two runs listed');
    expect(v1.rows.every((r) => r.version?.generation === 1)).toBe(true);

    // Saving the definition reloads it as v2, on the same port.
    await running.call('writeFile', 'shop', 'items.yaml', items(35));
    const v2 = await until(() => running!.call<RunState[]>('runStates'), (s) => s[0]?.serving?.generation === 2, 'v2 serving');
    expect(v2[0].routes[0].url.replace('{id}', '42')).toBe(url);
    expect(await (await fetch(url, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"name": "desk"}' })).json()).toMatchObject({ price: 35 });
    await until(() => running!.call<RunPage>('queryRuns', { offset: 0, limit: 10 }), (p) => p.total === 3, 'three runs listed');
    await running.stop();

    running = await serve();
    const again = await until(() => running!.call<RunState[]>('runStates'), (s) => s[0]?.status === 'running', 'shop running again');
    expect(again[0].routes[0].url.replace('{id}', '42')).toBe(url);
    expect(await (await fetch(url, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"name": "chair"}' })).json()).toMatchObject({ price: 35 });

    const page = await until(() => running!.call<RunPage>('queryRuns', { offset: 0, limit: 10 }), (p) => p.total === 4, 'four runs listed');
    expect(page.rows.map((r) => r.version?.generation)).toEqual([3, 2, 1, 1]);
    expect(page.versions.map((v) => v.generation)).toEqual([3, 2, 1]);
    // The run from outside is found by a value of its body, and opens with its steps.
    const found = await running.call<RunPage>('queryRuns', { offset: 0, limit: 10, text: 'lamp-from-curl' });
    expect(found.rows).toHaveLength(1);
    const detail = await running.call<RunDetail>('runDetail', found.rows[0].runId);
    expect(detail.steps.map((s) => s.name)).toEqual(['price it']);
    expect(detail.summary).toMatchObject({ status: 200, route: '/items/{id}', version: { generation: 1 } });

    const captures = await running.call<CapturePage>('listCaptures', { limit: 10 });
    expect(captures.rows.map((c) => c.target)).toEqual(['/items/42', '/items/42', '/items/42', '/items/42']);
    expect(captures.rows.find((c) => c.runId === found.rows[0].runId)).toBeDefined();
    const history = await running.call<HistoryEntry[]>('requestHistory');
    expect(history.map((h) => h.id)).toEqual(['composer-1']);

    // Compare across the save: v1 → v2, with the definition's diff.
    const v2Run = page.rows.find((r) => r.version?.generation === 2)!;
    const cmp = await running.call<RunComparison>('compareRuns', found.rows[0].runId, v2Run.runId);
    expect(cmp.definitions).toMatchObject({ a: { generation: 1 }, b: { generation: 2 } });
    const lines = cmp.definitions!.files[0].hunks.flatMap((h) => h.lines).filter((l) => l.op !== 'same');
    expect(lines.map((l) => `${l.op} ${l.text.trim()}`)).toEqual([
      `remove set: {body: '{"id": vars.id, "name": body.name, "price": 30}'}`,
      `add set: {body: '{"id": vars.id, "name": body.name, "price": 35}'}`,
    ]);
  }, 360_000);
});
