import { expect, test } from './studio-fixture.ts';
import { columnX, openFile, openStudio, writeIntegration } from './flows-helpers.ts';
import { screenshotsAtBothSizes } from './page-health.ts';

/** A step of one line far wider than the editor is at 1024×700. */
const LONG_LINE = `connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
flows:
  summary:
    source: {type: http, path: /summary, methods: [POST]}
    steps:
      - name: require items
        filter: {condition: has(body.items) && size(body.items) > 0}
      - set: {body: '{"customer": body.customer, "items": size(body.items), "total": body.items.map(i, i.price * i.quantity), "currency": "EUR"}'}
      - log: {message: '"summed"'}
`;

/** A flow past the minimap's 30 steps, with names longer than a narrow graph has room for. */
function longFlow(steps: number): string {
  const out = ['connectors:', '  web: {type: http, host: 127.0.0.1, port: 0}', 'flows:', '  pipeline:', '    source: {type: http, path: /pipeline, methods: [POST]}', '    steps:'];
  for (let i = 0; i < steps; i++) out.push(`      - name: stamp step number ${i} with a rather long name`, `        set: {vars: {s${i}: '"value of step ${i} for the message"'}}`);
  return `${out.join('\n')}\n`;
}

test.describe('the graph beside the text at 1024×700', () => {
  test.use({ viewport: { width: 1024, height: 700 } });
  test.beforeAll(({ studio }) => {
    writeIntegration(studio.workspaceDir, 'e2e-narrow-text', { 'api.yaml': LONG_LINE });
    writeIntegration(studio.workspaceDir, 'e2e-narrow-graph', { 'api.yaml': longFlow(36) });
  });

  test('selecting a step with a long line shows its line from the start, not scrolled to the line’s end', async ({ page, studio }) => {
    await openStudio(page, studio.url);
    await openFile(page, 'e2e-narrow-text', 'api.yaml');
    // A window this narrow starts with the graph folded away.
    await page.getByRole('button', { name: 'Show graph and blocks' }).click();
    const graph = page.getByRole('region', { name: 'Flow graph of summary' });
    await graph.getByRole('button', { name: /^set: / }).click();
    await expect(graph.getByRole('button', { name: /^set: / })).toHaveAttribute('aria-pressed', 'true');
    // The caret is on the step's line: the editor has drawn the selection and whatever scrolling it made.
    await expect(page.locator('.flow-editor .line-numbers.active-line-number')).toHaveText('9');
    await expect(page.locator('.flow-editor .lines-content')).toHaveCSS('left', '0px');
    // The line's first column sits right of the line numbers, where a person reads it.
    const gutter = (await page.locator('.flow-editor .margin').boundingBox())!;
    const lineStart = await columnX(page, "- set: {body: '{", 1);
    expect(lineStart.x).toBeGreaterThanOrEqual(gutter.x + gutter.width);
    // Enter goes to the text at the step's start, still not scrolled sideways.
    await page.keyboard.press('Enter');
    await expect(page.locator('.flow-editor .monaco-editor')).toHaveClass(/\bfocused\b/);
    await expect(page.locator('.flow-editor .lines-content')).toHaveCSS('left', '0px');
    await screenshotsAtBothSizes(page, 'graph-narrow-long-line-selected');
  });

  test('every node box of a long flow fits beside the minimap, none cut at the pane’s edge', async ({ page, studio }) => {
    await openStudio(page, studio.url);
    await openFile(page, 'e2e-narrow-graph', 'api.yaml');
    await page.getByRole('button', { name: 'Show graph and blocks' }).click();
    const graph = page.getByRole('region', { name: 'Flow graph of pipeline' });
    await expect(graph.getByRole('img', { name: 'Minimap of pipeline: 36 steps' })).toBeVisible();
    const canvas = graph.getByTestId('graph-canvas');
    await expect(graph.locator('.graph-node').first()).toBeVisible();
    const fit = await canvas.evaluate((el) => {
      const edge = el.getBoundingClientRect().left + el.clientLeft + el.clientWidth;
      const rights = [...el.querySelectorAll('.graph-node')].map((n) => n.getBoundingClientRect().right);
      return { overflow: el.scrollWidth - el.clientWidth, nodes: rights.length, beyond: rights.filter((r) => r > edge + 0.5).length };
    });
    expect(fit.nodes).toBeGreaterThan(3);
    expect(fit, 'node boxes past the graph pane’s right edge, and the pane’s sideways overflow').toMatchObject({ beyond: 0, overflow: 0 });
    await screenshotsAtBothSizes(page, 'graph-narrow-long-flow');
  });
});
