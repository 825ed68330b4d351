import { activationOf } from '../../../core/activation.ts';
import { implementBlock } from '../../../core/component.ts';
import { FlowError } from '../../../core/errors.ts';
import { bsonOf, checkTargetSettings, DocstoreTarget, isPlainObject, kindOf } from '../block-target.ts';
import { insertedBeforeFailure } from '../driver-errors.ts';
import { insertDef } from './insert.def.ts';

export const docstoreInsert = implementBlock(
  insertDef,
  (s, ctx) => {
    const target = new DocstoreTarget(s, ctx, insertDef.type);
    return {
      async process(msg) {
        const act = activationOf(msg);
        const value = s.document.evaluate(act);
        const many = Array.isArray(value);
        const items: unknown[] = many ? value : [value];
        items.forEach((item, i) => {
          if (!isPlainObject(item)) throw target.refuse(`${many ? `document[${i}]` : 'document'} must be an object, got ${kindOf(item)}`);
        });
        if (items.length === 0) return target.deliver(msg, { insertedCount: 0, insertedIds: [] });
        const docs = items.map((item, i) => bsonOf(item, many ? `document[${i}]` : 'document', (r) => target.refuse(r)) as Record<string, unknown>);
        let ids: unknown[];
        try {
          ids = await target.run(act, async (c) => {
            if (!many) return [(await c.insertOne(docs[0])).insertedId];
            const result = await c.insertMany(docs, { ordered: !s.unordered });
            return docs.map((_, i) => result.insertedIds[i]);
          });
        } catch (err) {
          throw partialInsertError(err, docs.length);
        }
        return target.deliver(msg, { insertedCount: ids.length, insertedIds: ids.map((id) => target.output(id)) });
      },
    };
  },
  checkTargetSettings,
);

/** Says how many documents of the batch landed, as the spec asks of a failed insert. */
function partialInsertError(err: unknown, total: number): unknown {
  // Without a driver cause nothing was sent (a refusal, a collection that did not evaluate).
  if (!(err instanceof FlowError) || err.cause === undefined) return err;
  const landed = insertedBeforeFailure(err.cause);
  const of = `${total} document${total === 1 ? '' : 's'}`;
  const summary = landed === undefined ? `it is not known how many of the ${of} were inserted` : `${landed} of ${of} inserted`;
  return new FlowError(`${summary}; ${err.message}`, { status: err.status, cause: err.cause });
}
