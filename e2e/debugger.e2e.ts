import { expect, test } from './studio-fixture.ts';
import { openFile, openStudio, writeIntegration } from './flows-helpers.ts';
import { clickGutter, GREET } from './debugger-helpers.ts';
import { collectPageErrors, screenshotsAtBothSizes } from './page-health.ts';

const greet = (url: string, customer: string) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ customer }) }).then((r) => r.json() as Promise<unknown>);

test.describe('the debugger in the studio', () => {
  // The second test uses the integration the first started and the breakpoints it left (kept in studio.db).
  test.describe.configure({ mode: 'serial' });
  test.beforeAll(({ studio }) => writeIntegration(studio.workspaceDir, 'e2e-debug', { 'greet.yaml': GREET }));

  test('a conditional breakpoint set in the gutter pauses only the matching request while others are answered; a logpoint set on the graph writes to the debug console; evaluate, edit, continue; the trace shows the pause and the edit; replayed from Traces under the debugger', async ({ page, studio }) => {
    const health = collectPageErrors(page);
    await openStudio(page, studio.url);
    const card = page.getByRole('listitem', { name: 'e2e-debug' });
    await card.getByRole('button', { name: 'Run e2e-debug' }).click();
    await expect(card.getByRole('status', { name: 'e2e-debug is running' })).toBeVisible({ timeout: 15_000 });
    const url = (await card.locator('.route-url').first().textContent())!;

    await openFile(page, 'e2e-debug', 'greet.yaml');
    // A click on the settings line of the step sets the breakpoint on the step's first line.
    await clickGutter(page, 9);
    await expect(page.locator('.flow-editor .flow-bp-glyph')).toHaveCount(1);
    // The other way in: the first step's node on the graph.
    const graphToggle = page.getByRole('region', { name: 'Flow graph of greet' }).getByRole('button', { name: 'Breakpoint on set' });
    await expect(page.getByRole('region', { name: 'Flow graph of greet' }).getByRole('button', { name: 'Breakpoint on answer' })).toHaveAttribute('aria-pressed', 'true');
    await graphToggle.click();
    await expect(graphToggle).toHaveAttribute('aria-pressed', 'true');
    await expect(page.locator('.flow-editor .flow-bp-glyph')).toHaveCount(2);
    await page.getByRole('tab', { name: 'Debugger' }).click();
    const bps = page.getByRole('list', { name: 'Breakpoints' }).getByRole('listitem');
    await expect(bps).toHaveCount(2);
    const bp = bps.filter({ hasText: 'e2e-debug/greet.yaml:8' });
    await expect(bp).toContainText('flows.greet.steps[1]');
    await bp.getByPlaceholder('body.customer == "bob"').fill('body.customer == "bob"');
    await bp.getByPlaceholder('body.customer == "bob"').press('Enter');
    await expect(bp).toHaveAttribute('data-condition', 'body.customer == "bob"');
    // The first step's breakpoint becomes a logpoint: it writes a line and never pauses.
    const logpoint = bps.filter({ hasText: 'e2e-debug/greet.yaml:7' });
    await expect(logpoint).toContainText('flows.greet.steps[0]');
    await logpoint.getByLabel('Log message').fill('customer={body.customer}');
    await logpoint.getByLabel('Log message').press('Enter');
    await expect(logpoint.locator('.debug-bp-glyph.log')).toBeVisible();

    const bob = greet(url, 'bob');
    const paused = page.getByRole('list', { name: 'Paused runs' }).getByRole('listitem');
    await expect(paused).toHaveCount(1, { timeout: 15_000 });
    await expect(paused).toContainText('greet');
    await expect(paused).toContainText(/waited \d+ s/);
    // The others are answered meanwhile.
    expect(await greet(url, 'alice')).toEqual({ greeting: 'hello alice' });
    await expect(paused).toHaveCount(1);
    const debugConsole = page.getByRole('region', { name: 'Debug console' });
    await expect(debugConsole).toContainText('customer=bob');
    await expect(debugConsole).toContainText('customer=alice');
    const runId = (await paused.locator('.debug-run-title .muted').textContent())!.trim();

    await expect(page.getByRole('list', { name: 'Stack' }).or(page.locator('.debug-stack'))).toContainText('flows.greet.steps[1]');
    await page.getByLabel('CEL expression to evaluate').fill('body.customer');
    await page.getByRole('button', { name: 'Evaluate' }).click();
    await expect(page.getByRole('tree', { name: 'value of body.customer' })).toContainText('"bob"');

    await page.getByRole('button', { name: 'Edit vars.greeting' }).click();
    const input = page.getByLabel('New value of vars.greeting');
    await input.fill('hi bob');
    await expect(page.locator('.debug-edit .error')).toContainText('not JSON');
    await expect(page.getByRole('button', { name: 'Set', exact: true })).toBeDisabled();
    await input.fill('"hi bob"');
    await input.press('Enter');
    await expect(page.getByRole('list', { name: 'Edits' }).or(page.locator('.debug-edits'))).toContainText('vars.greeting');
    await screenshotsAtBothSizes(page, 'debugger-paused');

    await page.getByRole('tab', { name: 'Flows' }).click();
    await expect(page.locator('.flow-editor .flow-paused-line')).toHaveCount(1);
    await screenshotsAtBothSizes(page, 'debugger-editor-gutter');
    await page.getByRole('tab', { name: 'Debugger' }).click();

    await page.getByRole('button', { name: 'Continue' }).click();
    expect(await bob).toEqual({ greeting: 'hi bob' });
    await expect(paused).toHaveCount(0);

    // The run's trace shows the pause under its step: how it went on, by whom, and the edit before → after.
    await page.getByRole('tab', { name: 'Traces' }).click();
    await page.getByRole('searchbox', { name: 'Search runs' }).fill(runId);
    const row = page.locator('.trace-row[data-flow="greet"][data-kind="run"]');
    await expect(row).toHaveCount(1);
    await row.click();
    const steps = page.getByRole('list', { name: 'Steps' });
    await steps.locator('[data-block="set"]').filter({ hasText: 'answer' }).click();
    const record = page.getByTestId('pause-record');
    await expect(record).toContainText(/continue by studio/);
    await expect(record.getByRole('list', { name: 'Edits made while paused' })).toContainText('vars.greeting: "hello bob" → "hi bob"');
    await screenshotsAtBothSizes(page, 'debugger-trace-pause');

    // Replayed under the debugger from its trace: the recorded request stops at the same breakpoint.
    await page.getByRole('button', { name: 'Replay in debugger' }).click();
    await expect(page.getByRole('tab', { name: 'Debugger' })).toHaveAttribute('aria-selected', 'true');
    await expect(paused).toHaveCount(1, { timeout: 15_000 });
    await expect(paused).toContainText(`replay of ${runId}`);
    await page.getByLabel('CEL expression to evaluate').fill('body.customer');
    await page.getByRole('button', { name: 'Evaluate' }).click();
    await expect(page.getByRole('tree', { name: 'value of body.customer' }).first()).toContainText('"bob"');
    // The whole body as JSON, checked as it is typed.
    await page.getByRole('button', { name: 'Edit body as JSON' }).click();
    const whole = page.getByLabel('The whole body as JSON');
    await whole.fill('{"customer": }');
    await expect(page.getByRole('button', { name: 'Set body' })).toBeDisabled();
    await expect(whole).toHaveAttribute('aria-invalid', 'true');
    await screenshotsAtBothSizes(page, 'debugger-replay-json');
    await whole.fill('{"customer": "zoe"}');
    await page.getByRole('button', { name: 'Set body' }).click();
    await expect(page.getByRole('tree', { name: 'body', exact: true })).toContainText('"zoe"');
    await expect(page.getByRole('list', { name: 'Edits' }).or(page.locator('.debug-edits'))).toContainText('body');
    // The debuggers' keys: F5 continues.
    await page.keyboard.press('F5');
    await expect(paused).toHaveCount(0);
    health.expectNone();
  });

  test('Abort fails the paused run with an error saying where and by whom', async ({ page, studio }) => {
    const health = collectPageErrors(page);
    await openStudio(page, studio.url);
    const card = page.getByRole('listitem', { name: 'e2e-debug' });
    await expect(card.getByRole('status', { name: 'e2e-debug is running' })).toBeVisible({ timeout: 15_000 });
    const url = (await card.locator('.route-url').first().textContent())!;
    await page.getByRole('tab', { name: 'Debugger' }).click();
    // The breakpoints set before are still there (kept in studio.db): bob pauses before the answer.
    await expect(page.getByRole('list', { name: 'Breakpoints' }).getByRole('listitem')).toHaveCount(2);
    const bob = fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ customer: 'bob' }) });
    const paused = page.getByRole('list', { name: 'Paused runs' }).getByRole('listitem');
    await expect(paused).toHaveCount(1, { timeout: 15_000 });
    await page.getByRole('button', { name: 'Abort' }).click();
    const answered = await bob;
    expect(answered.status).toBe(500);
    expect(await answered.json()).toEqual({ error: expect.stringMatching(/^aborted in the debugger before flows\.greet\.steps\[1\] by studio/) });
    await expect(paused).toHaveCount(0);
    health.expectNone();
  });
});
