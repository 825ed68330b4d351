import { defineBlock } from '../../../core/component.ts';
import { targetSettings } from '../block-target.ts';

export const aggregateDef = defineBlock({
  type: 'docstore-aggregate',
  summary: 'Runs an aggregation pipeline; the resulting documents become the result.',
  description:
    'The pipeline must evaluate to a list, even for one stage. `limit` is appended as a final `$limit` (a pipeline\'s own `$limit` still applies; the smaller wins) and is refused with a pipeline ending in `$out` or `$merge`. A top-level `$sort` may be a list of single-key objects (rewritten to an ordered document); a multi-key object is refused; a `$sort` nested in `$facet` or a `$lookup` sub-pipeline is passed through untouched. The whole result is held in memory: set `limit` on a collection that can grow. Offset paging is `$skip` and `$limit` inside the pipeline; range paging carries the last `_id` into a `$match` with `$gt` and a stable sort.',
  settings: {
    ...targetSettings,
    pipeline: { type: 'cel', required: true, description: 'List of stages; a bare stage object is refused.', example: '[{"$match": {"status": "open"}}, {"$group": {"_id": "$customer", "n": {"$sum": 1}}}]' },
    limit: { type: 'int', minimum: 1, description: 'Appended as a final $limit; default all.' },
  },
  example: `- docstore-aggregate:
    connector: store
    collection: '"orders"'
    pipeline: '[{"$group": {"_id": "$customer", "total": {"$sum": "$total"}}}, {"$sort": [{"total": -1}, {"_id": 1}]}]'
    limit: 10`,
});
