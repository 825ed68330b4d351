import { defineBlock } from '../../core/component.ts';

export const filterDef = defineBlock({
  type: 'filter',
  summary: 'Keeps a message when a CEL predicate is true; otherwise drops it or rejects it with a status.',
  description:
    'Without `reject`, a false predicate drops the message (an http route answers 204). With `reject`, it ends the flow with that status and body instead, e.g. 400 for bad input or 401 for a missing credential.',
  settings: {
    condition: { type: 'cel', required: true, description: 'Predicate over the message; only `true` keeps it.', example: 'has(vars.query.id)' },
    reject: {
      type: 'object',
      description: 'Answer with this status and body instead of dropping.',
      fields: {
        status: { type: 'int', default: 400, minimum: 100, maximum: 599, description: 'Status set in vars.httpStatus.' },
        body: { type: 'cel', default: '{"error": "rejected"}', description: 'Body of the rejection.', example: '{"error": "id is required"}' },
      },
    },
  },
  example: `- filter:
    condition: has(vars.query.id)
    reject: {status: 400, body: '{"error": "id is required"}'}`,
});
