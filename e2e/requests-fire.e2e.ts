import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { promisify } from 'node:util';
import { expect, test } from './studio-fixture.ts';
import { call, editFile, openStudio, reloadedAfter, setBody, startIntegration, writeIntegration } from './requests-helpers.ts';

const run = promisify(execFile);

const TICKER = `
connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
flows:
  ticker:
    source:
      type: http
      path: /ticks/{name}
      methods: [GET]
      sse: {enabled: true, heartbeat: 300ms, finalEvent: true, finalEventName: done, closeOnComplete: false, maxStreams: 1}
    steps:
      - sse-event: {event: tick, data: '{"name": vars.name, "n": 1}'}
      - sse-event: {event: tick, data: '{"name": vars.name, "n": 2}'}
      - set: {body: '{"name": vars.name, "done": true}'}
`;

const NOTES = `
env:
  NOTES_TOKEN: {default: "integration-token-e2e", secret: true}
  NOTES_VERIFICATION_TOKEN: {default: "verification-secret-e2e-42", secret: true}
connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
  notes: {type: notes, token: '\${NOTES_TOKEN}', verificationToken: '\${NOTES_VERIFICATION_TOKEN}'}
flows:
  notes-in:
    source: {type: http, connector: web, path: /webhooks/notes, methods: [POST], headers: [X-Notes-Signature], rawBody: true}
    steps:
      - notes-verify-request: {connector: notes}
      - set: {body: '{"accepted": body.entityId}'}
`;

// The sample's development token (sub "billing"), from examples/webhook-receiver/webhook.yaml.
const BILLING_JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJiaWxsaW5nIiwiaXNzIjoid2ViaG9vay1zZW5kZXIifQ.VjuyV231BvPRFUOyYLGhUCAjPtjRGYqfqLW29tF2hOs';

test.describe('firing requests from the studio', () => {
  test('a POST with JSON at a sample route opens as a run with every step and the message before and after a set step', async ({ page, studio }) => {
    await openStudio(page, studio.url);
    await startIntegration(page, studio.origin, 'orders-api');
    await page.getByRole('tab', { name: 'Requests' }).click();
    await page.getByRole('button', { name: 'New request to /orders/price of orders-api' }).click();
    await setBody(page, '{"customer": "ana", "items": [{"price": 2.5, "quantity": 4}');
    await expect(page.getByText('Not valid JSON')).toBeVisible();
    // The body is an editor: the JSON error is marked where it is, not only said below.
    await expect(page.getByTestId('body-editor').locator('.squiggly-error')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeDisabled();
    // Ctrl+Enter in the body sends nothing while the body is not JSON, and inserts no line either.
    await page.keyboard.press('ControlOrMeta+Enter');
    await expect(page.getByTestId('body-editor').locator('.view-line')).toHaveCount(1);
    await expect(page.getByLabel('Response status')).toHaveCount(0);
    // A long note, which the inspector shows cut short until asked for all of it.
    const note = 'n'.repeat(3_000);
    await setBody(page, `{"customer": "ana", "note": "${note}", "items": [{"price": 2.5, "quantity": 4}]}`);
    // Sent with Ctrl+Enter from the body editor, as in other request tools.
    await page.keyboard.press('ControlOrMeta+Enter');

    await expect(page.getByLabel('Response status')).toHaveText('200');
    await expect(page.getByRole('tree', { name: 'Response body' })).toContainText('"lineTotals"');
    await page.getByRole('button', { name: 'Copy as curl' }).click();
    await expect(page.getByLabel('curl command')).toContainText(`curl -i -X POST 'http://127.0.0.1:`);
    await expect(page.getByLabel('curl command')).toContainText(`--data-binary '{"customer": "ana"`);

    await page.getByRole('textbox', { name: 'Request name' }).fill('price an order');
    await page.getByRole('button', { name: 'Save as…' }).click();
    const saved = join(studio.workspaceDir, 'requests', 'orders-api', 'price-an-order.json');
    await expect.poll(() => existsSync(saved)).toBe(true);
    expect(JSON.parse(readFileSync(saved, 'utf8'))).toMatchObject({ name: 'price an order', method: 'POST', target: { integration: 'orders-api', route: '/orders/price' } });

    await page.getByRole('button', { name: /^Open run / }).click();
    await expect(page.getByRole('heading', { level: 2, name: 'Traces' })).toBeVisible();
    const steps = page.getByRole('list', { name: 'Steps' });
    // The whole run, then its four steps: filter, two sets and the log.
    await expect(steps.getByRole('listitem')).toHaveCount(5);
    await expect(steps.locator('[data-block]')).toHaveText([/require items/, /line totals/, /set/, /log/]);
    await steps.locator('[data-block="set"]').filter({ hasText: 'line totals' }).click();
    const changes = page.getByLabel('Changes by this step');
    await expect(changes.locator('[data-path="vars.lines"]')).toContainText('added [10]');
    await page.getByRole('tab', { name: 'Before' }).click();
    const before = page.getByRole('tree', { name: 'body before' });
    await expect(before).toContainText('"ana"');
    await expect(before).toContainText('(3,000 characters)');
    expect((await before.textContent())!.length).toBeLessThan(1_500);
    await before.getByRole('button', { name: 'Show all' }).click();
    await expect(before).toContainText(note);
    await expect(page.getByRole('tree', { name: 'vars before' })).not.toContainText('lines');
    await page.getByRole('tab', { name: 'After' }).click();
    await expect(page.getByRole('tree', { name: 'vars after' })).toContainText('"lines"');
    await expect(page.locator('.json-changed')).toContainText('lines');
    await page.screenshot({ path: 'test-results/e2e-screenshots/traces-run-waterfall.png' });
  });

  test('an SSE route streams frames into the composer and Stop closes the stream the server then sees closed', async ({ page, studio }) => {
    writeIntegration(studio.workspaceDir, 'sse-demo', { 'ticker.yaml': TICKER });
    await openStudio(page, studio.url);
    const state = await startIntegration(page, studio.origin, 'sse-demo');
    const url = state.routes[0].url.replace('{name}', 'ada');
    await page.getByRole('tab', { name: 'Requests' }).click();
    await page.getByRole('button', { name: 'New request to /ticks/{name} of sse-demo' }).click();
    await page.getByRole('textbox', { name: 'Path parameter name' }).fill('ada');
    await page.getByRole('button', { name: 'Send', exact: true }).click();

    const frames = page.getByRole('log', { name: 'Stream frames' });
    await expect(frames.locator('.sse-frame')).toHaveCount(3);
    await expect(frames.locator('.sse-frame[data-event="tick"]').first()).toContainText('"n": 1');
    await expect(frames.getByLabel('heartbeat').first()).toBeVisible();
    await expect(page.getByLabel('Response status')).toHaveText('200');
    // maxStreams is 1: while this stream is open, another caller is turned away.
    expect((await fetch(url)).status).toBe(503);

    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await expect(page.getByText('stream stopped by you')).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Frames (3)' })).toBeVisible();
    await page.screenshot({ path: 'test-results/e2e-screenshots/requests-sse-stopped.png' });
    // The server saw the disconnect: its stream slot is free again and the capture says so.
    await expect.poll(async () => {
      const res = await fetch(url);
      void res.body?.cancel();
      return res.status;
    }).toBe(200);
    await page.getByRole('tab', { name: 'Captures' }).click();
    await page.getByRole('searchbox', { name: 'Search captures' }).fill('path:/ticks/ada status:200');
    await expect(page.getByRole('list', { name: 'Captured requests' }).getByRole('button').first()).toContainText('closed');
  });

  // A studio of its own: it counts its captures and runs, and daily-driver sends the same webhook to the shared one.
  test('a webhook from curl is captured, replays after the flow is edited, and the comparison shows the changed step', async ({ page, freshStudio: studio }) => {
    await openStudio(page, studio.url);
    const state = await startIntegration(page, studio.origin, 'webhook-receiver');
    const url = state.routes[0].url.replace('{sender}', 'billing');
    const { stdout } = await run('curl', ['-s', '-i', '-X', 'POST', url, '-H', `Authorization: Bearer ${BILLING_JWT}`, '-H', 'X-Event-Type: invoice.paid', '-H', 'X-Delivery-ID: d-e2e-1', '-d', '{"invoice": "inv-7", "amount": 120}']);
    expect(stdout).toMatch(/^HTTP\/1\.1 202/);

    await page.getByRole('tab', { name: 'Requests' }).click();
    await page.getByRole('tab', { name: 'Captures' }).click();
    await page.getByRole('searchbox', { name: 'Search captures' }).fill('body:inv-7 header:invoice.paid');
    const captured = page.getByRole('list', { name: 'Captured requests' }).getByRole('button');
    await expect(captured).toHaveCount(1);
    await captured.click();
    const view = page.getByRole('region', { name: /^Capture \d+$/ });
    await view.getByRole('button', { name: 'Raw' }).first().click();
    await expect(view.getByLabel('Captured request body')).toHaveText('{"invoice": "inv-7", "amount": 120}');

    editFile(studio.workspaceDir, 'webhook-receiver', 'webhook.yaml', (t) => t.replace(`"delivery": correlationID}'`, `"delivery": correlationID, "edited": true}'`));
    await reloadedAfter(page, studio.origin, 'webhook-receiver', state.generation);
    await view.getByRole('button', { name: 'Replay', exact: true }).click();
    await expect(page.getByLabel('Response status')).toHaveText('202');
    await expect(page.getByRole('tree', { name: 'Response body' })).toContainText('"edited"');

    await page.getByRole('button', { name: /^Open run / }).click();
    await page.getByRole('combobox', { name: 'Flow' }).selectOption('receive-webhook');
    const rows = page.locator('.run-row[data-flow="receive-webhook"]');
    await expect(rows).toHaveCount(2);
    await rows.nth(0).getByRole('checkbox').check();
    await rows.nth(1).getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Compare (2/2)' }).click();
    const table = page.getByRole('table', { name: 'Steps of both runs' });
    await expect(table.getByRole('row', { name: 'sender token: same' })).toBeVisible();
    await expect(table.getByRole('row', { name: 'set: differs' })).toBeVisible();
    await expect(page.getByLabel('Message after set: A → B').locator('[data-path="body.edited"]')).toContainText('true');
    await page.screenshot({ path: 'test-results/e2e-screenshots/traces-compare.png' });

    // Edit the captured request before sending it again: it opens in the composer, aimed at its route.
    await page.getByRole('tab', { name: 'Requests' }).click();
    await page.getByRole('tab', { name: 'Captures' }).click();
    await page.getByRole('searchbox', { name: 'Search captures' }).fill('body:inv-7 header:d-e2e-1');
    const both = page.getByRole('list', { name: 'Captured requests' }).getByRole('button');
    await expect(both).toHaveCount(2);
    await both.last().click();
    await page.getByRole('button', { name: 'Edit and replay…' }).click();
    await expect(page.getByRole('textbox', { name: 'Path parameter sender' })).toHaveValue('billing');
    await setBody(page, '{"invoice": "inv-8", "amount": 99}');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(page.getByLabel('Response status')).toHaveText('202');
    await expect(page.getByRole('tree', { name: 'Response body' })).toContainText('"d-e2e-1"');
  });

  test('the signature helper signs a body that passes notes-verify-request; a tampered one fails with the reason shown', async ({ page, studio }) => {
    writeIntegration(studio.workspaceDir, 'notes-demo', { 'notes.yaml': NOTES });
    await openStudio(page, studio.url);
    await startIntegration(page, studio.origin, 'notes-demo');
    await page.getByRole('tab', { name: 'Requests' }).click();
    await page.getByRole('tab', { name: 'Routes' }).click();
    await page.getByRole('button', { name: 'New request to /webhooks/notes of notes-demo' }).click();
    await setBody(page, '{"type": "page.content_updated", "entityId": "p-1"}');
    await page.getByRole('button', { name: 'Sign for notes' }).click();
    await expect(page.getByRole('textbox', { name: 'Headers value 1' })).toHaveValue(/^sha256=[0-9a-f]{64}$/);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(page.getByLabel('Response status')).toHaveText('200');
    await expect(page.getByLabel('Signature verification')).toHaveText('✓ verification passed: signature valid');

    await page.getByRole('tablist', { name: 'Request parts' }).getByRole('tab', { name: 'Body' }).click();
    await setBody(page, '{"type": "page.content_updated", "entityId": "p-2"}');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(page.getByLabel('Signature verification')).toHaveText('✗ verification failed: notes webhook rejected: X-Notes-Signature does not match the request body');
    await expect(page.getByLabel('Response status')).not.toHaveText('200');
    // The failure shows the signature the body needed next to the one it carried (the p-1 one).
    const sign = (body: string): string => `sha256=${createHmac('sha256', 'verification-secret-e2e-42').update(body).digest('hex')}`;
    await expect(page.getByLabel('Received signature')).toHaveText(sign('{"type": "page.content_updated", "entityId": "p-1"}'));
    await expect(page.getByLabel('Expected signature')).toHaveText(sign('{"type": "page.content_updated", "entityId": "p-2"}'));
    await page.screenshot({ path: 'test-results/e2e-screenshots/requests-signature-failed.png' });

    // The token signs in the backend and never reaches the window.
    const captures = await call<{ rows: Array<{ id: number }> }>(page, studio.origin, 'listCaptures', { search: 'path:/webhooks/notes' });
    const details = await Promise.all(captures.rows.map((c) => call(page, studio.origin, 'captureDetail', c.id)));
    expect(JSON.stringify(details)).not.toContain('verification-secret-e2e-42');
    expect(await page.content()).not.toContain('verification-secret-e2e-42');
  });
});
