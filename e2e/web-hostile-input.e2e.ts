import { expect, test } from './studio-fixture.ts';

/** Issue 18 item 9: web mode answers hostile call names and bodies with 400, never 500, in a real browser session. */
test.describe('web mode refuses hostile calls with 400', () => {
  test('a malformed call name, a deeply nested body and an unknown call answer 400 with the reason; a real call still works', async ({ page, studio }) => {
    await page.goto(studio.url);
    await expect(page.getByRole('tab', { name: 'Secrets' })).toBeVisible();

    // From the page itself, with its session cookie, exactly as the renderer calls.
    const answers = await page.evaluate(async () => {
      const post = async (path: string, body: string): Promise<{ status: number; body: { ok: boolean; error?: string; value?: unknown } }> => {
        const res = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        return { status: res.status, body: (await res.json()) as { ok: boolean; error?: string } };
      };
      return {
        malformed: await post('/api/call/%E0%A4%A', '{"args":[]}'),
        loneByte: await post('/api/call/list%FFIntegrations', '{"args":[]}'),
        deep: await post('/api/call/listIntegrations', `{"args":${'['.repeat(5000)}${']'.repeat(5000)}}`),
        unknown: await post('/api/call/noSuchCall', '{"args":[]}'),
        real: await post('/api/call/listIntegrations', '{"args":[]}'),
      };
    });

    expect(answers.malformed.status).toBe(400);
    expect(answers.malformed.body.ok).toBe(false);
    expect(answers.malformed.body.error).toContain('not valid percent-encoding');
    expect(answers.loneByte.status).toBe(400);
    expect(answers.deep.status).toBe(400);
    expect(answers.deep.body.error).toContain('deeper than 128 levels');
    expect(answers.unknown.status).toBe(400);
    expect(answers.real.status).toBe(200);
    expect(answers.real.body.ok).toBe(true);
    // Nothing crashed: the studio still answers and printed no internal error.
    expect(studio.output()).not.toContain('internal error');
  });
});
