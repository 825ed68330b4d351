import { createHmac } from 'node:crypto';
import { expect, test } from './studio-fixture.ts';
import { collectPageErrors, screenshotsAtBothSizes } from './page-health.ts';
import { call, openStudio, setBody, startIntegration, writeIntegration } from './requests-helpers.ts';

const HANDSHAKE_TOKEN = 'secret_handshake-e2e-7Qz9';

// No verificationToken configured: the first unsigned handshake bootstraps the subscription.
const BOOTSTRAP = `
env:
  NOTES_TOKEN: {default: "integration-token-e2e", secret: true}
connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
  notes: {type: notes, token: '\${NOTES_TOKEN}'}
flows:
  notes-in:
    source: {type: http, connector: web, path: /webhooks/notes, methods: [POST], headers: [X-Notes-Signature], rawBody: true}
    steps:
      - notes-verify-request: {connector: notes}
      - set: {body: '{"ok": true}'}
`;

const SIGNING = `
env:
  NOTES_TOKEN: {default: "integration-token-e2e", secret: true}
  NOTES_VERIFICATION_TOKEN: {default: "verification-secret-e2e-42", secret: true}
  JWT_SECRET: {default: "jwt-secret-e2e-0123456789abcdef", secret: true}
connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
  notes: {type: notes, token: '\${NOTES_TOKEN}', verificationToken: '\${NOTES_VERIFICATION_TOKEN}'}
flows:
  echo:
    source: {type: http, connector: web, path: /echo, methods: [POST], headers: [X-Hub-Signature-256, X-Signature]}
    steps:
      - set:
          body: >-
            {"hub": "X-Hub-Signature-256" in vars ? vars["X-Hub-Signature-256"] : "",
             "plain": "X-Signature" in vars ? vars["X-Signature"] : "", "got": body}
  notes-in:
    source: {type: http, connector: web, path: /webhooks/notes, methods: [POST], headers: [X-Notes-Signature], rawBody: true}
    steps:
      - notes-verify-request: {connector: notes}
      - set: {body: '{"accepted": body.entityId}'}
  secure:
    source: {type: http, connector: web, path: /secure, methods: [POST], headers: [Authorization]}
    steps:
      - jwt-verify: {secret: '\${JWT_SECRET}'}
      - set: {body: '{"sub": vars.jwt.sub, "hasExp": has(vars.jwt.exp)}'}
`;

const hmac = (key: string, data: string, enc: 'hex' | 'base64') => createHmac('sha256', key).update(data).digest(enc);

test.describe('webhooks end to end', () => {
  test('a captured notes handshake token stays masked everywhere until Reveal, which fetches it on that click alone', async ({ page, studio }) => {
    const health = collectPageErrors(page);
    writeIntegration(studio.workspaceDir, 'notes-bootstrap', { 'notes.yaml': BOOTSTRAP });
    await openStudio(page, studio.url);
    const state = await startIntegration(page, studio.origin, 'notes-bootstrap');
    // The notes service sends the handshake, unsigned, from outside the studio.
    const reveals: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/call/revealHandshakeToken')) reveals.push(r.url());
    });
    const hello = await fetch(state.routes[0].url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ verification_token: HANDSHAKE_TOKEN }) });
    expect(hello.status).toBe(200);

    await page.getByRole('tab', { name: 'Requests' }).click();
    await page.getByRole('tab', { name: 'Captures' }).click();
    await page.getByRole('searchbox', { name: 'Search captures' }).fill('path:/webhooks/notes');
    await page.getByRole('list', { name: 'Captured requests' }).getByRole('button').first().click();
    const view = page.getByRole('region', { name: /^Capture \d+$/ });
    await expect(view.getByLabel('Signature verification')).toHaveText('✓ verification passed: unsigned subscription handshake: the verification token was captured');
    const reveal = view.getByRole('group', { name: 'Handshake verification token' });
    await expect(reveal.getByRole('button', { name: 'Reveal token' })).toBeVisible();

    // Until Reveal: not in the page, the captures, the runs, their steps, the logs or the history.
    const captures = await call<{ rows: Array<{ id: number; runId?: string }> }>(page, studio.origin, 'listCaptures', { search: 'path:/webhooks/notes' });
    const runId = captures.rows[0].runId!;
    const seen = [
      captures,
      await call(page, studio.origin, 'captureDetail', captures.rows[0].id),
      await call(page, studio.origin, 'queryRuns', { offset: 0, limit: 50 }),
      await call(page, studio.origin, 'runDetail', runId),
      await call(page, studio.origin, 'requestHistory'),
    ];
    for (const s of seen) expect(JSON.stringify(s)).not.toContain(HANDSHAKE_TOKEN);
    await page.getByRole('tab', { name: 'Logs' }).click();
    await expect(page.getByText(/verification token captured/).first()).toBeVisible();
    expect(await page.content()).not.toContain(HANDSHAKE_TOKEN);
    expect(studio.output()).not.toContain(HANDSHAKE_TOKEN);
    expect(reveals).toEqual([]);

    await page.getByRole('tab', { name: 'Requests' }).click();
    await reveal.getByRole('button', { name: 'Reveal token' }).click();
    await expect(reveal.getByLabel('Verification token')).toHaveText(HANDSHAKE_TOKEN);
    await expect(reveal).toContainText('The running connector "notes" checks signatures with it until the integration restarts.');
    expect(reveals).toHaveLength(1);
    await screenshotsAtBothSizes(page, 'webhooks-handshake-revealed');
    await reveal.getByRole('button', { name: 'Hide' }).click();
    await expect(reveal.getByRole('button', { name: 'Reveal token' })).toBeVisible();
    expect(await page.content()).not.toContain(HANDSHAKE_TOKEN);
    health.expectNone();
  });

  test('the signing helper signs any body with HMAC-SHA256 in the header and shape chosen, and mints HS256 JWTs into Authorization', async ({ page, studio }) => {
    const health = collectPageErrors(page);
    writeIntegration(studio.workspaceDir, 'signing-demo', { 'signing.yaml': SIGNING });
    await openStudio(page, studio.url);
    await call(page, studio.origin, 'putSecret', 'github-hook', 'cluster-hook-secret-e2e');
    await startIntegration(page, studio.origin, 'signing-demo');
    await page.getByRole('tab', { name: 'Requests' }).click();
    await page.getByRole('tab', { name: 'Routes' }).click();
    const parts = page.getByRole('tablist', { name: 'Request parts' });
    const helper = page.getByRole('group', { name: 'Signing helper' });
    const body = '{"action": "opened", "number": 7}';

    // GitHub's shape, keyed by a cluster secret from the Secrets panel.
    await page.getByRole('button', { name: 'New request to /echo of signing-demo' }).click();
    await setBody(page, body);
    await parts.getByRole('tab', { name: 'Sign / JWT' }).click();
    await helper.getByRole('combobox', { name: 'Secret source' }).selectOption('secret');
    await expect(helper.getByRole('combobox', { name: 'Cluster secret' })).toHaveValue('github-hook');
    await expect(helper.getByRole('textbox', { name: 'Signature header' })).toHaveValue('X-Hub-Signature-256');
    await helper.getByRole('button', { name: 'Sign body' }).click();
    await expect(page.getByRole('status')).toContainText('X-Hub-Signature-256 set');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(page.getByLabel('Response status')).toHaveText('200');
    await page.getByRole('button', { name: 'Raw' }).click();
    await expect(page.getByLabel('Response body')).toContainText(`"hub":"sha256=${hmac('cluster-hook-secret-e2e', body, 'hex')}"`);
    await screenshotsAtBothSizes(page, 'webhooks-signing-helper');

    // base64, no prefix, a header of our own, a typed secret.
    await helper.getByRole('combobox', { name: 'Secret source' }).selectOption('typed');
    await helper.getByLabel('Signing secret').fill('typed-secret-e2e');
    await helper.getByRole('combobox', { name: 'Signature preset' }).selectOption('base64');
    await helper.getByRole('textbox', { name: 'Signature prefix' }).fill('b64:');
    await helper.getByRole('button', { name: 'Sign body' }).click();
    await parts.getByRole('tab', { name: /^Headers/ }).click();
    await expect(page.getByRole('textbox', { name: 'Headers name 2' })).toHaveValue('X-Signature');
    await expect(page.getByRole('textbox', { name: 'Headers value 2' })).toHaveValue(`b64:${hmac('typed-secret-e2e', body, 'base64')}`);

    // notes' own shape: the flow's notes-verify-request accepts it.
    await page.getByRole('button', { name: 'New request to /webhooks/notes of signing-demo' }).click();
    const event = '{"type": "page.content_updated", "entityId": "p-77"}';
    await parts.getByRole('tab', { name: 'Body' }).click();
    await setBody(page, event);
    await parts.getByRole('tab', { name: 'Sign / JWT' }).click();
    await helper.getByLabel('Signing secret').fill('verification-secret-e2e-42');
    await helper.getByRole('combobox', { name: 'Signature preset' }).selectOption('notes');
    await helper.getByRole('button', { name: 'Sign body' }).click();
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(page.getByLabel('Response status')).toHaveText('200');
    await expect(page.getByLabel('Signature verification')).toHaveText('✓ verification passed: signature valid');

    // An HS256 JWT: claims edited, exp and iat stamped, minted into Authorization, verified by jwt-verify.
    await page.getByRole('button', { name: 'New request to /secure of signing-demo' }).click();
    await parts.getByRole('tab', { name: 'Sign / JWT' }).click();
    await helper.getByRole('textbox', { name: 'JWT claims' }).fill('{"sub": "e2e-user"}');
    await helper.getByRole('button', { name: 'exp = in 1 hour' }).click();
    await helper.getByRole('button', { name: 'iat = now' }).click();
    await expect(helper.getByRole('textbox', { name: 'JWT claims' })).toHaveValue(/"sub": "e2e-user",\n {2}"exp": \d{10},\n {2}"iat": \d{10}/);
    await helper.getByLabel('Signing secret').fill('jwt-secret-e2e-0123456789abcdef');
    await helper.getByRole('button', { name: 'Mint into Authorization' }).click();
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(page.getByLabel('Response status')).toHaveText('200');
    await page.getByRole('button', { name: 'Raw' }).click();
    await expect(page.getByLabel('Response body')).toHaveText('{"sub":"e2e-user","hasExp":true}');
    await parts.getByRole('tab', { name: /^Headers/ }).click();
    await expect(page.getByRole('textbox', { name: 'Headers name 1' })).toHaveValue('Authorization');
    await expect(page.getByRole('textbox', { name: 'Headers value 1' })).toHaveValue(/^Bearer eyJ[\w-]+\.eyJ[\w-]+\.[\w-]+$/);
    await screenshotsAtBothSizes(page, 'webhooks-jwt-minted');
    // Signed with another secret, the same flow refuses it.
    await parts.getByRole('tab', { name: 'Sign / JWT' }).click();
    await helper.getByLabel('Signing secret').fill('not-the-secret');
    await helper.getByRole('button', { name: 'Mint into Authorization' }).click();
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(page.getByLabel('Response status')).toHaveText('401');

    // The secrets went to the backend for one call each and came back nowhere.
    const stored = JSON.stringify([await call(page, studio.origin, 'requestHistory'), await call(page, studio.origin, 'listCaptures', {}), await call(page, studio.origin, 'queryRuns', { offset: 0, limit: 100 })]);
    for (const secret of ['cluster-hook-secret-e2e', 'typed-secret-e2e', 'not-the-secret']) {
      expect(stored).not.toContain(secret);
      expect(studio.output()).not.toContain(secret);
    }
    health.expectNone();
  });

  test('Replay opens the replayed request in the composer with its status, headers, body, timing and run below it', async ({ page, studio }) => {
    const health = collectPageErrors(page);
    writeIntegration(studio.workspaceDir, 'replay-demo', { 'signing.yaml': SIGNING });
    await openStudio(page, studio.url);
    const state = await startIntegration(page, studio.origin, 'replay-demo');
    const echo = state.routes.find((r) => r.path === '/echo')!;
    const sent = await fetch(echo.url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-signature': 'from-curl-1' }, body: '{"replay": "me"}' });
    expect(sent.status).toBe(200);

    await page.getByRole('tab', { name: 'Requests' }).click();
    await page.getByRole('tab', { name: 'Captures' }).click();
    await page.getByRole('searchbox', { name: 'Search captures' }).fill('path:/echo body:replay');
    await page.getByRole('list', { name: 'Captured requests' }).getByRole('button').first().click();
    const view = page.getByRole('region', { name: /^Capture \d+$/ });
    const captureId = Number((await view.getAttribute('aria-label'))!.replace('Capture ', ''));
    await page.setViewportSize({ width: 1024, height: 700 });
    await view.getByRole('button', { name: 'Replay', exact: true }).click();

    // The composer holds the request that was replayed, aimed at its route.
    const composer = page.getByRole('region', { name: 'Request composer' });
    await expect(composer.getByRole('combobox', { name: 'Method' })).toHaveValue('POST');
    await expect(composer.getByRole('textbox', { name: 'URL' })).toHaveValue(echo.url);
    await composer.getByRole('tab', { name: /^Headers \(\d+\)$/ }).click();
    await expect.poll(() => composer.locator('.kv-value').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value))).toContain('from-curl-1');
    await composer.getByRole('tab', { name: 'Body' }).click();
    // And below it, the replay's answer: status, timing, body, headers and the run it started.
    const response = page.getByRole('region', { name: 'Response' });
    await expect(response.getByLabel('Response status')).toHaveText('200');
    await expect(response.getByText(`replay of #${captureId}`)).toBeVisible();
    // On screen below the composer, even at 1024×700.
    await expect(response.getByLabel('Response status')).toBeInViewport();
    await expect(response).toContainText(/headers in \d+ ms · total \d+ ms · \d+ bytes/);
    await response.getByRole('button', { name: 'Raw' }).click();
    await expect(response.getByLabel('Response body')).toHaveText('{"hub":"","plain":"from-curl-1","got":{"replay":"me"}}');
    await response.getByRole('tab', { name: /^Headers \(\d+\)$/ }).click();
    await expect(response.getByRole('cell', { name: 'application/json' }).first()).toBeVisible();
    await screenshotsAtBothSizes(page, 'webhooks-replay-in-composer');
    const runLink = response.getByRole('button', { name: /^Open run / });
    const runId = (await runLink.textContent())!.replace('Open run ', '');
    await runLink.click();
    await expect(page.getByRole('region', { name: `Run ${runId}` })).toBeVisible();
    health.expectNone();
  });
});
