import { defineBlock } from '../../../core/component.ts';
import { targetSettings } from '../block-target.ts';

export const insertDef = defineBlock({
  type: 'docstore-insert',
  summary: 'Inserts one document or a list of them; the result is {insertedCount, insertedIds}.',
  description:
    '`insertedIds` is always a list, rendered as extended JSON. An empty list inserts nothing and returns count 0 with an empty list. A failing batch may have written part of itself (always with `unordered`, otherwise up to the failing document); the flow fails and the error says how many landed. A duplicate key fails with status 409 in `vars.error.status`.',
  settings: {
    ...targetSettings,
    document: { type: 'cel', required: true, description: 'An object inserts one document; a list of objects inserts all of them.', example: 'body' },
    unordered: { type: 'boolean', default: false, description: 'Keep going after a failed document (lists only).' },
  },
  example: `- docstore-insert:
    connector: store
    collection: '"orders"'
    document: '{"customer": body.customer, "placedAt": {"$date": body.placedAt}}'`,
});
