import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { CapturePage, HistoryEntry, JwtMintResult } from '../../shared/request-types.ts';
import type { RunState } from '../../shared/studio-api.ts';
import type { SavedTestView } from '../../shared/flow-test-types.ts';
import type { RunDetail, RunPage } from '../../shared/trace-types.ts';
import { newcomerEnv, startStudioSession, type StudioSession } from './studio-session.ts';
import { BAD_TOKEN, FIXTURE, RIGHT_SECRET, SAMPLE_TOKEN, TEST_NAME, WEBHOOK_BODY } from './tutorial-webhook.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const tutorial = readFileSync(join(root, 'docs/tutorial.md'), 'utf8');
const run = promisify(execFile);

interface Block {
  code: string;
  /** The ```text block right after it: lines its output must show. */
  expected?: string[];
}

/** The tutorial's ```sh blocks in order, each with the ```text block that follows it, if any. */
function shellBlocks(markdown: string): Block[] {
  const fences = [...markdown.matchAll(/^```(\w*)\n([\s\S]*?)^```\s*$/gm)].map((m) => ({ lang: m[1], body: m[2].trimEnd(), end: m.index + m[0].length, start: m.index }));
  const blocks: Block[] = [];
  fences.forEach((f, i) => {
    if (f.lang !== 'sh') return;
    const next = fences[i + 1];
    const adjacent = next?.lang === 'text' && markdown.slice(f.end, next.start).trim() === '';
    blocks.push({ code: f.body, expected: adjacent ? next.body.split('\n') : undefined });
  });
  return blocks;
}

/** Runs a block as a reader's shell would, from the checkout, with HOOK set as the tutorial asks. */
async function runBlock(block: Block, env: NodeJS.ProcessEnv): Promise<string> {
  const { stdout, stderr } = await run('bash', ['-ec', block.code], { cwd: root, env, timeout: 180_000 }).catch((err: { stdout?: string; stderr?: string; message: string }) => {
    throw new Error(`the tutorial's block failed:\n${block.code}\n${err.message}\n${err.stdout ?? ''}${err.stderr ?? ''}`);
  });
  const output = `${stdout}\n${stderr}`;
  // Each expected line shows within a line of the output, where … stands for anything (a path, more
  // lines) and a number of milliseconds for any number of them.
  const lines = output.split(/\r?\n/);
  for (const line of block.expected ?? []) {
    const pattern = new RegExp(line.split('…').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\d+ ms/g, '\\d+ ms')).join('.*'));
    expect(lines.some((l) => pattern.test(l)), `"${line}" in the output of\n${block.code}\n---\n${output}`).toBe(true);
  }
  return output;
}

let session: StudioSession | undefined;
afterAll(async () => {
  await session?.stop();
});

describe('docs/tutorial.md, followed as written', () => {
  const blocks = shellBlocks(tutorial);

  it('has the four commands a reader types: start, curl, give the test its token, run the tests', () => {
    expect(blocks.map((b) => b.code.split(/\s+/).slice(0, 3).join(' '))).toEqual(['npx flow-studio serve', 'curl -si -X', 'perl -pi -e', 'npx flow-studio test']);
    expect(blocks[1].code).toContain(BAD_TOKEN);
    expect(blocks[2].code).toContain(`Bearer ${SAMPLE_TOKEN}`);
    expect(blocks[2].code).toContain(`~/FlowStudio/webhook-receiver/${FIXTURE}`);
    expect(tutorial).toContain(RIGHT_SECRET);
    expect(tutorial).toContain(`name it \`${TEST_NAME}\``);
  });

  it('starts the studio, rejects the badly signed webhook for the reason it gives, accepts it signed again, and the saved test passes with `flow-studio test`', async () => {
    // 1. `npx flow-studio serve --open`: the same command in a fresh home, on a free port, no browser.
    expect(blocks[0].code).toBe('npx flow-studio serve --open');
    session = await startStudioSession();
    expect(existsSync(join(session.workspace, 'webhook-receiver', 'webhook.yaml'))).toBe(true);

    // 2. Run webhook-receiver (the Run button's call); HOOK is its address.
    const state = await session.call<RunState>('startIntegration', 'webhook-receiver');
    expect(state.status).toBe('running');
    const route = state.routes.find((r) => r.path === '/webhooks/{sender}')!;
    const env = { ...newcomerEnv(session.home), HOOK: new URL(route.url).origin };

    // 3. The curl, as written.
    await runBlock(blocks[1], env);

    // 4. Traces lists it rejected, for the reason the tutorial names.
    const runs = await session.call<RunPage>('queryRuns', { offset: 0, limit: 10 });
    const rejected = runs.rows.find((r) => r.flow === 'receive-webhook' && r.outcome === 'rejected');
    expect(rejected?.rejection).toMatchObject({ block: 'jwt-verify', step: 'flows.receive-webhook.steps[0]' });
    expect(tutorial).toContain(`**${rejected!.rejection!.reason}**`);
    const detail = await session.call<RunDetail>('runDetail', rejected!.runId);
    expect(detail.verification?.expected).toContain('a valid signature');

    // 5–6. Edit and replay the capture, signed with the flow's secret by the composer's minting.
    const captures = await session.call<CapturePage>('listCaptures', { search: 'path:/webhooks/billing' });
    const captured = captures.rows.find((c) => c.runId === rejected!.runId)!;
    const composer = await session.call<{ headers: Array<{ name: string; value: string; enabled?: boolean }> }>('captureAsRequest', captured.id);
    const minted = await session.call<JwtMintResult>('mintJwt', {
      header: '{"alg": "HS256", "typ": "JWT"}',
      claims: tutorial.match(/```json\n(.*)\n```/)![1],
      secret: { kind: 'typed', value: RIGHT_SECRET },
    });
    if (!minted.ok) throw new Error(minted.reason);
    const headers = composer.headers.filter((h) => h.name.toLowerCase() !== 'authorization').map((h): [string, string] => [h.name, h.value]);
    const replayed = await session.call<HistoryEntry>('sendRequest', {
      id: 'tutorial-replay',
      method: 'POST',
      url: route.url.replace('{sender}', 'billing'),
      headers: [...headers, ['Authorization', `Bearer ${minted.token}`]],
      body: { kind: 'json', text: WEBHOOK_BODY },
      target: { integration: 'webhook-receiver', flow: 'receive-webhook', route: '/webhooks/{sender}' },
    });
    expect(replayed.response.status).toBe(202);

    // 7. Save it as a test; the fixture's credential is redacted, as the tutorial warns.
    const saved = await session.call<SavedTestView>('saveRunAsTest', { runId: replayed.runId, name: TEST_NAME, keep: ['status', 'body'] });
    expect(saved.file).toBe('receive-webhook.test.yaml');
    expect(tutorial).toContain(`It goes to \`${saved.file}\``);
    const fixture = join(session.workspace, 'webhook-receiver', FIXTURE);
    expect(readFileSync(fixture, 'utf8')).toContain('<redacted>');
    await runBlock(blocks[2], env);
    expect(readFileSync(fixture, 'utf8')).not.toContain('<redacted>');

    // 8. `npx flow-studio test ~/FlowStudio/webhook-receiver`: five tests, all passed.
    await runBlock(blocks[3], env);
  }, 420_000);
});
