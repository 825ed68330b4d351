import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { call, openStudio, post, runIntegration } from './platform-views-support.ts';
import { expect, test } from './studio-fixture.ts';

const COUNTER = `
connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
flows:
  count:
    source: {type: http, path: /count, methods: [POST]}
    steps:
      - kv-get: {key: '"reports/count"', resultVar: count}
      - kv-put: {key: '"reports/count"', value: 'vars.count == null ? 1 : vars.count + 1'}
  store-token:
    source: {type: http, path: /token, methods: [POST]}
    steps:
      - kv-put: {namespace: user_secrets, key: '"api/token"', value: '"s3cr3t-value"'}
`;

const CHAT = `
connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
flows:
  chat:
    source: {type: http, path: /chat, methods: [POST]}
    steps:
      - agent-memory-load: {agent: support-bot, thread: body.thread, user: body.user}
      - agent-memory-append:
          agent: support-bot
          thread: body.thread
          user: body.user
          turns: '[{"role": "user", "content": body.text}, {"role": "assistant", "content": "noted: " + body.text}]'
      - agent-memory-save:
          agent: support-bot
          thread: body.thread
          state: '{"last": body.text}'
          iteration: '1'
          tokens: '42'
  recall:
    source: {type: http, path: /recall, methods: [POST]}
    steps:
      - agent-memory-load: {agent: support-bot, thread: body.thread}
      - set: {body: 'vars.memory'}
`;

/** An upstream that answers only when the test says so, to keep a lock held as long as needed. */
function gate(): Promise<{ port: number; open(): void; close(): Promise<void> }> {
  const waiting: ServerResponse[] = [];
  let opened = false;
  const server: Server = createServer((_req: IncomingMessage, res: ServerResponse) => {
    if (opened) res.end('{}');
    else waiting.push(res);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: (server.address() as AddressInfo).port,
        open() {
          opened = true;
          for (const res of waiting.splice(0)) res.end('{}');
        },
        close: () => new Promise((r) => server.close(() => r())),
      }),
    ),
  );
}

async function openStorage(page: Page, url: string, tab: 'Key/value' | 'Leases' | 'Agent memory'): Promise<void> {
  await openStudio(page, url);
  await page.getByRole('tab', { name: 'Storage' }).click();
  await page.getByRole('tab', { name: tab }).click();
}

test.describe('the Storage panel', () => {
  test('refuses a KV edit made on a stale version, shows the conflict and keeps what the flow wrote', async ({ page, studio }) => {
    await openStudio(page, studio.url);
    const routes = await runIntegration(page, studio.origin, 'counter', COUNTER);
    expect((await post(routes.count, {})).status).toBe(200);
    await openStorage(page, studio.url, 'Key/value');
    await page.getByRole('navigation', { name: 'Namespaces' }).getByRole('button', { name: /^user \d/ }).click();
    await page.getByRole('button', { name: 'Key reports/count' }).click();
    const entry = page.getByRole('region', { name: 'Entry reports/count' });
    await expect(entry.getByLabel('Value')).toHaveText('1');
    await expect(entry.locator('[data-field="writer"]').getByRole('button', { name: /of flow count \(completed\)/ })).toBeVisible();
    const opened = Number(await entry.locator('[data-field="version"]').textContent());

    await entry.getByRole('button', { name: 'Edit' }).click();
    await entry.getByLabel('New value').fill('42');
    // The flow writes while the edit is open.
    expect((await post(routes.count, {})).status).toBe(200);
    await entry.getByRole('button', { name: `Save (if still version ${opened})` }).click();
    const conflict = entry.getByRole('alert');
    await expect(conflict).toContainText(`Not saved: it is at version`);
    await expect(conflict).toContainText(`not ${opened}`);
    await expect(conflict).toContainText('Nothing was overwritten.');
    await page.screenshot({ path: 'test-results/e2e-screenshots/platform-kv-conflict.png' });
    await conflict.getByRole('button', { name: 'Discard my edit and show the current value' }).click();
    await expect(entry.getByLabel('Value')).toHaveText('2');

    // From the current version the edit goes through, and the write is the studio's.
    await entry.getByRole('button', { name: 'Edit' }).click();
    await entry.getByLabel('New value').fill('42');
    await entry.getByRole('button', { name: /^Save \(if still version \d+\)$/ }).click();
    await expect(entry.getByRole('status')).toContainText('Saved as version');
    await expect(entry.getByLabel('Value')).toHaveText('42');
    await expect(entry.locator('[data-field="writer"]')).toHaveText('the studio');
  });

  test('creating a key that already exists says so and keeps its value; a refused key says why', async ({ page, studio }) => {
    await openStudio(page, studio.url);
    const routes = await runIntegration(page, studio.origin, 'counter', COUNTER);
    expect((await post(routes.count, {})).status).toBe(200);
    await openStorage(page, studio.url, 'Key/value');
    await page.getByRole('navigation', { name: 'Namespaces' }).getByRole('button', { name: /^user \d/ }).click();
    const value = await call<{ value: { text: string } }>(page, studio.origin, 'kvEntry', 'user', 'reports/count');

    const newKey = page.getByRole('textbox', { name: 'New key' });
    await newKey.fill('reports/count');
    await page.getByRole('button', { name: 'Create' }).click();
    await expect(page.locator('.pv-new-key').getByRole('status')).toContainText('reports/count already exists; it is shown, unchanged.');
    await expect(page.getByRole('region', { name: 'Entry reports/count' }).getByLabel('Value')).toHaveText(value.value.text);

    await newKey.fill('   ');
    await page.getByRole('button', { name: 'Create' }).click();
    await expect(page.locator('.pv-new-key').getByRole('alert')).toContainText('the key is empty; give one');
    await expect(newKey).toHaveValue('   ');
  });

  test('lists the keys of a secret namespace but never its values', async ({ page, studio }) => {
    await openStudio(page, studio.url);
    const routes = await runIntegration(page, studio.origin, 'counter', COUNTER);
    expect((await post(routes['store-token'], {})).status).toBe(200);
    await openStorage(page, studio.url, 'Key/value');
    const ns = page.getByRole('navigation', { name: 'Namespaces' }).getByRole('button', { name: /^user_secrets/ });
    await expect(ns).toContainText('keys only');
    await ns.click();
    await page.getByRole('button', { name: 'Key api/token' }).click();
    const entry = page.getByRole('region', { name: 'Entry api/token' });
    await expect(entry.getByLabel('Value')).toHaveText('Secret value: the studio never reads or shows it.');
    await expect(entry.getByRole('button', { name: 'Edit' })).toBeDisabled();
    await expect(page.getByText('s3cr3t-value')).toHaveCount(0);
    const answer = await page.request.post(`${studio.origin}/api/call/kvEntry`, { data: { args: ['user_secrets', 'api/token'] } });
    expect(await answer.text()).not.toContain('s3cr3t');
  });

  test('shows a lease held by a lock with its countdown, and drops it on release', async ({ page, studio }) => {
    const upstream = await gate();
    try {
      await openStudio(page, studio.url);
      const routes = await runIntegration(
        page,
        studio.origin,
        'reports',
        `
connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
  upstream: {type: http-client, baseURL: 'http://127.0.0.1:${upstream.port}', timeout: 30s}
flows:
  nightly:
    source: {type: http, path: /nightly, methods: [POST], timeout: 30s}
    steps:
      - lock:
          name: '"reports/nightly"'
          ttl: 3s
          steps:
            - rest: {connector: upstream, path: /slow}
`,
      );
      await openStorage(page, studio.url, 'Leases');
      const running = post(routes.nightly, {});
      const holder = page.getByRole('table', { name: 'Lease holders' }).locator('tr[data-lease="reports/nightly"]');
      await expect(holder).toBeVisible();
      await expect(holder.locator('[data-field="fencing"]')).toHaveText(/^\d+$/);
      const countdown = holder.locator('[data-field="countdown"]');
      await expect(countdown).toHaveText(/^[0-3]\.\d s$/);
      const first = await countdown.textContent();
      await expect(countdown).not.toHaveText(first!);
      await page.screenshot({ path: 'test-results/e2e-screenshots/platform-leases-held.png' });

      upstream.open();
      expect((await running).status).toBe(200);
      await expect(holder).toHaveCount(0);
      const history = page.getByRole('table', { name: 'Lease history' });
      await expect(history.locator('.pv-event[data-action="release"][data-lease="reports/nightly"]')).toBeVisible();
      await expect(history.locator('.pv-event[data-action="grant"][data-lease="reports/nightly"]').getByRole('button', { name: /of flow nightly \(completed\)/ })).toBeVisible();
      // The release names its run too (X-Flow-Run-Id), so it links to the same run as the grant.
      await expect(history.locator('.pv-event[data-action="release"][data-lease="reports/nightly"]').getByRole('button', { name: /of flow nightly \(completed\)/ })).toBeVisible();
    } finally {
      upstream.open();
      await upstream.close();
    }
  });

  test('shows a conversation written by the agent-memory blocks, and deleting it removes it from the platform', async ({ page, studio }) => {
    await openStudio(page, studio.url);
    const routes = await runIntegration(page, studio.origin, 'support', CHAT);
    for (const text of ['my refund is late', 'still waiting']) expect((await post(routes.chat, { thread: 't-100', user: 'ana', text })).status).toBe(200);

    await openStorage(page, studio.url, 'Agent memory');
    await expect(page.getByRole('navigation', { name: 'Agents' }).getByRole('button', { name: /^support-bot/ })).toHaveAttribute('aria-current', 'true');
    const conversations = page.getByRole('table', { name: 'Conversations' });
    const row = conversations.getByRole('row').filter({ hasText: 't-100' });
    await expect(row).toContainText('ana');
    await expect(row).toContainText('iteration 1 · 42 tokens');
    await row.getByRole('button', { name: 't-100' }).click();

    const turns = page.getByRole('list', { name: 'Turns' }).getByRole('listitem');
    await expect(turns).toHaveCount(4);
    await expect(turns.nth(0)).toContainText('#1');
    await expect(turns.nth(0)).toContainText('my refund is late');
    await expect(turns.nth(1)).toContainText('assistant');
    await expect(turns.nth(3)).toContainText('noted: still waiting');

    await page.getByRole('searchbox', { name: "Search the agent's memory" }).fill('refund');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page.getByRole('list', { name: 'Search results' })).toContainText('t-100 #1');
    await page.screenshot({ path: 'test-results/e2e-screenshots/platform-agent-memory.png' });

    const conversation = page.getByRole('region', { name: 'Conversation t-100' });
    await conversation.getByRole('button', { name: 'Delete conversation…' }).click();
    await conversation.getByRole('group', { name: /^Erase t-100/ }).getByRole('button', { name: 'Delete' }).click();
    await expect(conversations.getByRole('row').filter({ hasText: 't-100' })).toHaveCount(0);
    expect(await call(page, studio.origin, 'agentConversation', 'support-bot', 't-100')).toBeNull();
    // The platform itself has nothing left: a flow loading the conversation starts from nothing.
    const recalled = await post(routes.recall, { thread: 't-100' });
    expect(await recalled.json()).toMatchObject({ state: null, version: 0 });
  });
});
