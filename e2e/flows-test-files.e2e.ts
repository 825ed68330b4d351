import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './studio-fixture.ts';
import { cursorToLineEnd, hoverUntilShown, openFile, openStudio, writeIntegration } from './flows-helpers.ts';
import { call, editFile, reloadedAfter, startIntegration, type RunStateLike } from './requests-helpers.ts';

const ROUTER = `connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
flows:
  route:
    source: {type: http, path: /route, methods: [POST]}
    steps:
      - name: answer
        set: {body: '{"total": body.qty * 2}'}
`;

const TESTS = `tests:
  doubles the quantity:
    flow: route
    input: {method: POST, path: /route, body: {qty: 10}}
    expect:
      outcome: completed
`;

const SHOTS = 'test-results/e2e-screenshots';
const problems = (page: Page) => page.getByRole('list', { name: 'Definition problems' });

test.describe('flow test files in the Flows panel', () => {
  test('are listed as tests, open with the flow-test schema and the loader’s problems, and saving one reloads nothing', async ({ page, studio }) => {
    writeIntegration(studio.workspaceDir, 'e2e-tests', { 'router.yaml': ROUTER, 'route.test.yaml': TESTS });
    await openStudio(page, studio.url);
    const started = await startIntegration(page, studio.origin, 'e2e-tests');

    // Beside the definitions, in their own group, marked as tests.
    const card = page.getByRole('listitem', { name: 'e2e-tests' });
    await expect(card.getByRole('list', { name: 'Files of e2e-tests' }).getByRole('button', { name: /^router\.yaml/ })).toBeVisible();
    await expect(card.getByRole('list', { name: 'Tests of e2e-tests' }).getByRole('button', { name: /^route\.test\.yaml \(flow tests\)/ })).toBeVisible();
    await openFile(page, 'e2e-tests', 'route.test.yaml');
    await expect(page.locator('.side-pane')).toContainText('route.test.yaml holds flow tests');
    await expect(page.locator('.save-hint')).toHaveText('Ctrl+S saves');

    // Completion and hover come from shared/flow-test.schema.json.
    await cursorToLineEnd(page, 6);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Control+Space');
    const suggestions = page.locator('.suggest-widget .monaco-list-row');
    await expect(suggestions.filter({ hasText: 'response' })).toBeVisible();
    await expect(suggestions.filter({ hasText: 'leases' })).toBeVisible();
    await page.keyboard.press('Escape');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    await hoverUntilShown(page, 'flow: route', 6, page.locator('.monaco-hover').filter({ hasText: 'The flow under test' }));
    await page.mouse.move(0, 0);

    // The loader's problems, at file:line:col, as markers and in Problems: an unknown key, a flow that is not there.
    await cursorToLineEnd(page, 6);
    await page.keyboard.press('Home');
    await page.keyboard.type('x');
    await expect(problems(page).getByRole('button', { name: /route\.test\.yaml:6:7/ })).toContainText('unknown setting "xoutcome"; did you mean "outcome"?');
    await expect(page.locator('.flow-editor .squiggly-error').first()).toBeVisible();
    await cursorToLineEnd(page, 3);
    await page.keyboard.type('s');
    await expect(problems(page).getByRole('button', { name: /route\.test\.yaml:3:11/ })).toContainText('no flow named "routes"; the flows beside it: route');
    await expect(card.getByRole('button', { name: /^route\.test\.yaml \(flow tests\) \(unsaved\), 2 problems/ })).toBeVisible();
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.screenshot({ path: `${SHOTS}/flows-test-file-1440.png` });
    await page.setViewportSize({ width: 1024, height: 700 });
    await page.screenshot({ path: `${SHOTS}/flows-test-file-1024.png` });

    // Put right and saved: the problems go, and the running integration is not reloaded.
    await page.keyboard.press('Backspace');
    await cursorToLineEnd(page, 6);
    await page.keyboard.press('Home');
    await page.keyboard.press('Delete');
    await expect(problems(page).getByRole('button', { name: /route\.test\.yaml/ })).toHaveCount(0);
    await page.keyboard.press('ControlOrMeta+S');
    await expect(card.getByRole('button', { name: /^route\.test\.yaml \(flow tests\)$/ })).toBeVisible();
    // A test file written after the save appears once the watcher has reported both changes.
    writeFileSync(join(studio.workspaceDir, 'e2e-tests', 'more.test.yaml'), TESTS);
    await expect(card.getByRole('list', { name: 'Tests of e2e-tests' }).getByRole('button', { name: /^more\.test\.yaml/ })).toBeVisible();
    const states = await call<RunStateLike[]>(page, studio.origin, 'runStates');
    expect(states.find((s) => s.integration === 'e2e-tests')).toMatchObject({ status: 'running', generation: started.generation });

    // The saved test runs, and hot reload of the definition still works.
    const run = await call<{ results: Array<{ name: string; passed: boolean }> }>(page, studio.origin, 'runFlowTests', { integration: 'e2e-tests', file: 'route.test.yaml' });
    expect(run.results).toEqual([expect.objectContaining({ name: 'doubles the quantity', passed: true })]);
    editFile(studio.workspaceDir, 'e2e-tests', 'router.yaml', (t) => t.replace('body.qty * 2', 'body.qty * 3'));
    const reloaded = await reloadedAfter(page, studio.origin, 'e2e-tests', started.generation);
    expect(reloaded.generation).toBe(started.generation + 1);
  });
});
