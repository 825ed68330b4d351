import { defineBlock } from '../../../core/component.ts';
import { connectorSetting, failOnErrorSetting } from '../notes-api-step.ts';

export const notesRetrievePageDef = defineBlock({
  type: 'notes-retrieve-page',
  summary: 'Retrieves a page\'s properties (GET /pages/{id}) into a variable.',
  description: 'Returns the page object with its properties only, not its content; use `notes-retrieve-blocks` for the content.',
  settings: {
    connector: connectorSetting,
    page: { type: 'cel', required: true, description: 'Page id.', example: 'body.entityId' },
    resultVar: { type: 'string', default: 'notesPage', description: 'Variable receiving the page object; the body is left alone.' },
    failOnError: failOnErrorSetting,
  },
  example: `- notes-retrieve-page:
    connector: notes
    page: body.entityId`,
});
