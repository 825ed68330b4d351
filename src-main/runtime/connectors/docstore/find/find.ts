import type { FindOptions, Sort } from 'mongodb';
import { activationOf } from '../../../core/activation.ts';
import { implementBlock } from '../../../core/component.ts';
import { checkTargetSettings, DocstoreTarget } from '../block-target.ts';
import { sortOrder } from '../sort-order.ts';
import { findDef } from './find.def.ts';

export const docstoreFind = implementBlock(
  findDef,
  (s, ctx) => {
    const target = new DocstoreTarget(s, ctx, findDef.type);
    return {
      async process(msg) {
        const act = activationOf(msg);
        // Everything is checked before the driver is called, so a refusal sends nothing.
        // An optional setting that evaluates to null means its default, so one expression can
        // choose, e.g. 'has(vars.q) ? {"name": vars.q} : null'.
        const filter = s.filter ? (target.optionalDocument(s.filter, act, 'filter') ?? {}) : {};
        const projection = s.projection ? target.optionalDocument(s.projection, act, 'projection') : undefined;
        const sort = s.sort ? sortOrder(s.sort.evaluate(act), 'sort', (r) => target.refuse(r)) : undefined;
        // promoteValues off keeps Int32, Long and Double apart so canonical mode can name them.
        const options: FindOptions = { promoteValues: false, projection, sort: sort as Sort | undefined, skip: s.skip || undefined };
        const limit = s.single ? 1 : s.limit;
        const docs = await target.run(act, (c, signal) => c.find(filter, { ...options, limit, signal }).toArray());
        return target.deliver(msg, s.single ? (docs.length > 0 ? target.output(docs[0]) : null) : target.output(docs));
      },
    };
  },
  checkTargetSettings,
);
