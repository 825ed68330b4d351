import type { Document } from 'mongodb';
import { bsonOf, isPlainObject, kindOf } from '../block-target.ts';
import { sortOrder } from '../sort-order.ts';

const WRITING_STAGES = ['$out', '$merge'];

/**
 * A pipeline value as the driver takes it (spec 3 §2.5): a list even for one stage; `limit` is
 * appended as a final `$limit` (a pipeline's own `$limit` still applies, the smaller wins) and is
 * refused after `$out`/`$merge`; a top-level `$sort` may be a list of single-key objects and is
 * rewritten to an ordered document. A `$sort` nested in `$facet` or a `$lookup` sub-pipeline is
 * passed through untouched.
 */
export function preparePipeline(value: unknown, limit: number | undefined, refuse: (reason: string) => Error): Document[] {
  if (!Array.isArray(value)) {
    throw refuse(
      isPlainObject(value)
        ? 'pipeline must be a list of stages, even for one stage; write [{"$match": …}] instead of {"$match": …}'
        : `pipeline must be a list of stages, got ${kindOf(value)}`,
    );
  }
  value.forEach((stage, i) => {
    if (!isPlainObject(stage)) throw refuse(`pipeline[${i}] must be a stage object such as {"$match": {…}}, got ${kindOf(stage)}`);
  });
  const last = value.length > 0 ? Object.keys(value[value.length - 1] as object)[0] : undefined;
  if (limit !== undefined && last !== undefined && WRITING_STAGES.includes(last)) {
    throw refuse(`limit cannot be combined with a pipeline ending in ${last} (nothing may follow ${last}); put a {"$limit": …} stage before ${last} instead`);
  }
  const stages = value.map((stage: Record<string, unknown>, i): Document => {
    const keys = Object.keys(stage);
    if (keys.length === 1 && keys[0] === '$sort') {
      const order = sortOrder(stage.$sort, `pipeline[${i}].$sort`, refuse);
      // An empty sort goes to the server as written, which names the problem itself.
      if (order) return { $sort: order };
    }
    return bsonOf(stage, `pipeline[${i}]`, refuse) as Document;
  });
  if (limit !== undefined) stages.push({ $limit: limit });
  return stages;
}
