import { implementBlock } from '../../../core/component.ts';
import type { NotesConnector } from '../notes-connector.ts';
import { apiStep, idFrom } from '../notes-api-step.ts';
import { notesRetrievePageDef } from './notes-retrieve-page.def.ts';

export const notesRetrievePage = implementBlock(
  notesRetrievePageDef,
  (s, ctx) => {
    const { api } = ctx.connector<NotesConnector>(s.connector);
    return {
      process(msg) {
        const id = idFrom(s.page, msg, 'page');
        return apiStep(msg, s.failOnError, async () => {
          const page = await api.get(`/pages/${encodeURIComponent(id)}`);
          return (m) => (m.vars[s.resultVar] = page);
        });
      },
    };
  },
  (s) => (s.resultVar?.trim() === '' ? ['resultVar must name a variable'] : []),
);
