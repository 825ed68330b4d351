import { expect, test } from './studio-fixture.ts';
import { screenshotsAtBothSizes } from './page-health.ts';
import { cursorToLineEnd, openFile, openStudio, writeIntegration } from './flows-helpers.ts';

const ROUTED = `connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
flows:
  route:
    source: {type: http, path: /kinds, methods: [GET]}
    steps:
      - name: by kind
        switch:
          cases:
            - when: vars.query.kind == "a"
              steps:
                - set: {body: '{"kind": "a"}'}
            - when: vars.query.kind == "b"
              steps:
                - set: {body: '{"kind": "b"}'}
                - flow-ref: {flow: stamp}
      - log: {message: '"routed"'}
    onError:
      - set: {vars: {httpStatus: "500"}}
  stamp:
    steps:
      - set: {body: '{"kind": body.kind, "stamped": true}'}
`;

const WORKERS = `flows:
  work:
    source: {type: queue, subject: jobs}
    steps:
      - log: {message: body.job}
  tick:
    source: {type: schedule, interval: 1h}
    steps:
      - queue-publish: {subject: jobs}
`;

test.describe('the flow graph', () => {
  test.beforeAll(({ studio }) => {
    writeIntegration(studio.workspaceDir, 'e2e-graph', { 'route.yaml': ROUTED });
    writeIntegration(studio.workspaceDir, 'e2e-workers-graph', { 'workers.yaml': WORKERS });
  });

  test('says in an empty error chain what becomes of a failed run, as its source does it', async ({ page, studio }) => {
    await openStudio(page, studio.url);
    await openFile(page, 'e2e-workers-graph', 'workers.yaml');
    const chainOf = (flow: string) => page.getByRole('region', { name: `Flow graph of ${flow}` }).getByRole('group', { name: 'Error chain' });
    await expect(chainOf('work')).toContainText('none: the message is handed back and comes again after nackDelay');
    await screenshotsAtBothSizes(page, 'graph-unhandled-failure');
    await page.getByLabel('Flow shown in the graph').selectOption('tick');
    await expect(chainOf('tick')).toContainText('none: the run is over, and the next tick runs the flow again');
    await openFile(page, 'e2e-graph', 'route.yaml');
    await page.getByLabel('Flow shown in the graph').selectOption('stamp');
    await expect(chainOf('stamp')).toContainText('none: the failure goes back to the flow-ref step that called this flow');
  });

  test('shows a switch with two branches and lights the branch the last real request took', async ({ page, studio }) => {
    await openStudio(page, studio.url);
    await openFile(page, 'e2e-graph', 'route.yaml');
    const graph = page.getByRole('region', { name: 'Flow graph of route' });
    await expect(graph.getByRole('button', { name: /^source of route: http GET \/kinds/ })).toBeVisible();
    const branches = graph.getByRole('group', { name: 'Branches of by kind' });
    const caseA = branches.getByRole('group', { name: /^when vars\.query\.kind == "a"/ });
    const caseB = branches.getByRole('group', { name: /^when vars\.query\.kind == "b"/ });
    await expect(caseA).toBeVisible();
    await expect(caseB).toBeVisible();
    await expect(branches.getByRole('group', { name: /^otherwise/ })).toContainText('passes the message on');
    await expect(graph.getByRole('group', { name: 'Error chain' })).toBeVisible();

    const card = page.getByRole('listitem', { name: 'e2e-graph' });
    await card.getByRole('button', { name: 'Run e2e-graph' }).click();
    await expect(card.getByRole('status', { name: 'e2e-graph is running' })).toBeVisible({ timeout: 15_000 });
    const url = (await card.locator('.route-url').first().textContent())!;
    for (const kind of ['a', 'b']) {
      const res = await fetch(`${url}?kind=${kind}`);
      expect(await res.json()).toMatchObject({ kind });
    }
    await expect(caseB).toHaveAttribute('data-taken', 'true');
    await expect(caseA).toHaveAttribute('data-taken', 'false');
    await expect(caseB.getByRole('button', { name: /^flow-ref: 1 passed, 0 failed, 0 dropped; the last message went through/ })).toBeVisible();
    await expect(caseA.getByRole('button', { name: /^set: 1 passed/ })).toHaveAttribute('data-on-path', 'false');
    await expect(graph.getByRole('button', { name: /^by kind \(switch\): 2 passed/ })).toHaveAttribute('data-on-path', 'true');
    await expect(graph.getByRole('button', { name: /^source of route: .*2 passed/ })).toBeVisible();

    // The CEL playground tries an expression on the last real message that reached the step.
    await cursorToLineEnd(page, 13);
    await page.getByRole('tab', { name: 'CEL playground' }).click();
    const playground = page.getByRole('region', { name: 'CEL playground' });
    await expect(playground.getByLabel('CEL expression')).toHaveValue('vars.query.kind == "b"');
    await expect(playground).toContainText('the last message that reached this step');
    await expect(playground.getByLabel('Sample message')).toHaveValue(/"kind": "b"/);
    await expect(playground.getByLabel('Result')).toContainText('true');

    // The called flow is one click away, with its own count.
    await caseB.getByRole('button', { name: 'Show flow stamp' }).click();
    await expect(page.getByRole('region', { name: 'Flow graph of stamp' }).getByRole('button', { name: /^set: 1 passed/ })).toBeVisible();
  });

  test('follows the text as it is typed, selects a node’s YAML on click and goes to it on Enter', async ({ page, studio }) => {
    await openStudio(page, studio.url);
    await openFile(page, 'e2e-graph', 'route.yaml');
    await cursorToLineEnd(page, 16);
    await page.keyboard.press('Enter');
    await page.keyboard.type('- log: {message: body.kind}');
    const graph = page.getByRole('region', { name: 'Flow graph of route' });
    const added = graph.getByRole('group', { name: /^when vars\.query\.kind == "b"/ }).getByRole('button', { name: /^log:/ });
    await expect(added).toBeVisible();
    // A click selects the node and its YAML, the keys staying on the graph; Enter goes to the text.
    await graph.getByRole('button', { name: /^log: / }).last().click();
    await page.keyboard.press('Enter');
    await page.keyboard.type('x');
    await expect(page.locator('.flow-editor .view-lines')).toContainText('x');
    await expect(graph.getByRole('button', { name: /^log: / })).toHaveCount(1);
  });
});

const HALF_TYPED = `flows:
  half:
    source: {type: http, path: /half}
    steps:
      # greet first
      - log:
          message: '"hi"'

      - set: {body: '{"done": true}'}
`;

test.describe('the flow graph of a file that stops parsing while it is typed', () => {
  test.beforeAll(({ studio }) => {
    writeIntegration(studio.workspaceDir, 'e2e-half-typed', { 'half.yaml': HALF_TYPED });
  });

  test('says where the YAML breaks, goes there, refuses graph edits with the place and keeps the text as typed', async ({ page, studio }) => {
    await openStudio(page, studio.url);
    await openFile(page, 'e2e-half-typed', 'half.yaml');
    const graph = page.getByRole('region', { name: 'Flow graph of half' });
    await expect(graph.getByRole('button', { name: /^set:/ })).toBeVisible();
    await expect(graph.getByRole('alert')).toHaveCount(0);

    // Half-way through typing an inline map on line 7.
    await cursorToLineEnd(page, 7);
    await page.keyboard.type(' {oops: ');
    const notice = graph.getByRole('alert');
    await expect(notice).toContainText(/^half\.yaml:7:\d+ does not parse as YAML \(.+\): the graph shows only what reads before it/);
    await screenshotsAtBothSizes(page, 'graph-half-typed');

    // A graph edit is refused with the same place; the text stays as typed.
    await graph.getByRole('button', { name: 'Add block log', exact: true }).click();
    await expect(page.locator('.notice')).toContainText(/does not parse as YAML at line 7, column \d+/);
    await expect(page.locator('.flow-editor .view-lines')).toContainText(`message: '"hi"' {oops:`);

    // The notice leads to the line in the text.
    await cursorToLineEnd(page, 1);
    await notice.getByRole('button', { name: 'Go to line 7' }).click();
    await expect(page.locator('.flow-editor .line-numbers.active-line-number')).toHaveText('7');

    // Fixed text: the notice goes and the graph is whole again.
    await cursorToLineEnd(page, 7);
    await page.keyboard.press('Home');
    await page.keyboard.press('Shift+End');
    await page.keyboard.insertText(`message: '"hi!"'`);
    await expect(notice).toHaveCount(0);
    await expect(graph.getByRole('button', { name: /^set:/ })).toBeVisible();
    await expect(graph.getByRole('button', { name: /^log:/ })).toContainText('hi!');
  });
});
