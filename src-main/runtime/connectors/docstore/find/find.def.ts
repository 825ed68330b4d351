import { defineBlock } from '../../../core/component.ts';
import { targetSettings } from '../block-target.ts';

export const findDef = defineBlock({
  type: 'docstore-find',
  summary: 'Reads documents matching a filter; the list (or with single the first document or null) becomes the result.',
  description:
    'The result is a list, `[]` when nothing matched, never null; with `single` it is the first document or null (not an error). The whole result is held in memory, so set `limit` on a collection that can grow. There is no built-in paging: page by range, carrying the last `_id` into the filter with `$gt` and a stable sort on `_id`.',
  settings: {
    ...targetSettings,
    filter: { type: 'cel', description: 'Query filter; default: match everything.', example: '{"status": "open", "_id": {"$gt": {"$oid": vars.after}}}' },
    projection: { type: 'cel', description: 'Fields to return; default: whole documents.', example: '{"name": 1, "total": 1}' },
    sort: {
      type: 'cel',
      description: 'One-key object, or a list of single-key objects for several keys in order; a multi-key object is refused at run time. Default: unsorted.',
      example: '[{"createdAt": -1}, {"_id": 1}]',
    },
    limit: { type: 'int', minimum: 1, description: 'Most documents to return (a ceiling, not paging); default all.' },
    skip: { type: 'int', minimum: 0, default: 0, description: 'Documents to skip.' },
    single: { type: 'boolean', default: false, description: 'Return the first match (or null) instead of a list.' },
  },
  example: `- docstore-find:
    connector: store
    collection: '"orders"'
    filter: '{"customer": vars.customer}'
    sort: '{"_id": 1}'
    limit: 50`,
});
