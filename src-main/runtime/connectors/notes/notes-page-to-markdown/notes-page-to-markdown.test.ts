import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../../../core/runtime.ts';
import { startYaml } from '../../../testing/load-yaml.ts';
import { NotesApiDouble } from '../testing/notes-api-double.ts';
import { PAGE_ID, everySupportedBlock } from '../testing/notes-fixtures.ts';
import { startAgainstDouble } from '../testing/notes-runtime.ts';

const golden = readFileSync(new URL('../testing/every-supported-block.md', import.meta.url), 'utf8');
let double: NotesApiDouble;
const running: Runtime[] = [];
beforeAll(async () => {
  double = await NotesApiDouble.start();
  double.children.set(PAGE_ID, everySupportedBlock());
});
afterAll(() => double.close());
afterEach(async () => {
  for (const r of running.splice(0)) await r.stop();
});

describe('notes-page-to-markdown', () => {
  it('turns the blocks fetched by notes-retrieve-blocks into a text/markdown body', async () => {
    const { runtime } = await startAgainstDouble(double, `  render:
    steps:
      - notes-retrieve-blocks: {connector: notes, block: body.entityId}
      - notes-page-to-markdown: {}
`);
    running.push(runtime);
    const result = await runtime.run('render', { entityId: PAGE_ID });
    expect(result.outcome).toBe('completed');
    expect(result.message.body).toEqual({ contentType: 'text/markdown', rawData: golden });
  });

  it('reads the blocks from source and writes the Markdown into resultVar, leaving the body', async () => {
    const { runtime } = await startYaml(`flows:
  render:
    steps:
      - notes-page-to-markdown: {source: vars.content.results, resultVar: markdown}
`);
    running.push(runtime);
    const result = await runtime.run('render', { keep: true }, { content: { results: everySupportedBlock() } });
    expect(result.message.body).toEqual({ keep: true });
    expect(result.message.vars.markdown).toBe(golden);
  });

  it('fails when source does not give a list of blocks', async () => {
    const { runtime } = await startYaml(`flows:
  render:
    steps:
      - notes-page-to-markdown: {source: body.page}
`);
    running.push(runtime);
    const result = await runtime.run('render', { page: { results: [] } });
    expect(result.error?.message).toBe('notes-page-to-markdown: source body.page must give a list of blocks, got object');
  });
});
