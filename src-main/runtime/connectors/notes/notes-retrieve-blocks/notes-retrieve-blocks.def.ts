import { defineBlock } from '../../../core/component.ts';
import { connectorSetting, failOnErrorSetting } from '../notes-api-step.ts';

export const notesRetrieveBlocksDef = defineBlock({
  type: 'notes-retrieve-blocks',
  summary: 'Retrieves the child blocks of a page or block (GET /blocks/{id}/children), following pagination.',
  description:
    'Requests 100 blocks at a time and follows `has_more`/`next_cursor` for up to 100 pages (10,000 blocks). The result is `{results: [...]}`. ' +
    'Nested children are not fetched. Feed it to `notes-page-to-markdown` to render the page.',
  settings: {
    connector: connectorSetting,
    block: { type: 'cel', required: true, description: 'Block or page id.', example: 'body.entityId' },
    resultVar: {
      type: 'string',
      description: 'When set, the `{results: [...]}` object is stored in this variable and the body is left alone; when empty it replaces the body.',
    },
    failOnError: failOnErrorSetting,
  },
  example: `- notes-retrieve-blocks:
    connector: notes
    block: body.entityId`,
});
