import { implementBlock } from '../../../core/component.ts';
import type { NotesApiClient } from '../notes-api-client.ts';
import type { NotesConnector } from '../notes-connector.ts';
import { apiStep, idFrom } from '../notes-api-step.ts';
import { notesRetrieveBlocksDef } from './notes-retrieve-blocks.def.ts';
import type { Logger } from '../../../core/logger.ts';

/** Spec 3 §8: 100 blocks per request, at most 100 requests. */
export const BLOCKS_PER_REQUEST = 100;
export const MAX_BLOCK_PAGES = 100;

export const notesRetrieveBlocks = implementBlock(notesRetrieveBlocksDef, (s, ctx) => {
  const { api } = ctx.connector<NotesConnector>(s.connector);
  const resultVar = s.resultVar?.trim() ? s.resultVar : undefined;
  return {
    process(msg) {
      const id = idFrom(s.block, msg, 'block');
      return apiStep(msg, s.failOnError, async () => {
        const result = { results: await allChildren(api, id, ctx.log) };
        return (m) => {
          if (resultVar) m.vars[resultVar] = result;
          else m.body = result;
        };
      });
    },
  };
});

async function allChildren(api: NotesApiClient, id: string, log: Logger): Promise<unknown[]> {
  const path = `/blocks/${encodeURIComponent(id)}/children`;
  const results: unknown[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_BLOCK_PAGES; page++) {
    const list = await api.get(path, { page_size: BLOCKS_PER_REQUEST, start_cursor: cursor });
    if (Array.isArray(list.results)) results.push(...list.results);
    if (list.has_more !== true || typeof list.next_cursor !== 'string') return results;
    cursor = list.next_cursor;
  }
  log.warn('notes-retrieve-blocks stopped at the page limit; later blocks are left out', { block: id, pages: MAX_BLOCK_PAGES, blocks: results.length });
  return results;
}
