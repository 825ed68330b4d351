import { defineBlock } from '../../../core/component.ts';
import { targetSettings } from '../block-target.ts';

export const updateDef = defineBlock({
  type: 'docstore-update',
  summary: 'Updates or replaces matching documents; the result is {matchedCount, modifiedCount, upsertedCount, upsertedId}.',
  description:
    'Give exactly one of `update` (an operator object such as `{"$set": {…}}`, or an aggregation pipeline as a list of stages) and `replacement` (a whole document replacing the match, keeping only `_id`). A plain object without operators as `update` is refused, naming the fix. `many` is not available with `replacement`. `upsertedId` is present and null when no upsert happened, otherwise the new id as extended JSON (`{"$oid": …}`).',
  settings: {
    ...targetSettings,
    filter: { type: 'cel', required: true, description: 'Selects the documents.', example: '{"_id": {"$oid": vars.id}}' },
    update: { type: 'cel', description: 'Operator object or aggregation pipeline (list of stages); one of update / replacement.', example: '{"$set": {"status": body.status}}' },
    replacement: { type: 'cel', description: 'Whole document replacing the match, keeping only _id; one of update / replacement.', example: 'body' },
    upsert: { type: 'boolean', default: false, description: 'Insert when the filter matches nothing.' },
    many: { type: 'boolean', default: false, description: 'Modify every match; not available with replacement.' },
  },
  example: `- docstore-update:
    connector: store
    collection: '"orders"'
    filter: '{"_id": {"$oid": vars.id}}'
    update: '{"$set": {"status": body.status}}'`,
});
