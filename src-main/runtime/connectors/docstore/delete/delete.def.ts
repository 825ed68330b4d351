import { defineBlock } from '../../../core/component.ts';
import { targetSettings } from '../block-target.ts';

export const deleteDef = defineBlock({
  type: 'docstore-delete',
  summary: 'Deletes the first matching document, or every match with many; the result is {deletedCount}.',
  description:
    'An empty filter `{}` with `many: true` would empty the collection and is refused unless `deleteAll: true`. Deleting a single document is not guarded.',
  settings: {
    ...targetSettings,
    filter: { type: 'cel', required: true, description: 'Selects the documents; required even with deleteAll.', example: '{"_id": {"$oid": vars.id}}' },
    many: { type: 'boolean', default: false, description: 'Remove every match.' },
    deleteAll: { type: 'boolean', default: false, description: 'Permit an empty filter with many, deleting every document.' },
  },
  example: `- docstore-delete:
    connector: store
    collection: '"orders"'
    filter: '{"_id": {"$oid": vars.id}}'`,
});
