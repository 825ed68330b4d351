import { activationOf } from '../../../core/activation.ts';
import { implementBlock } from '../../../core/component.ts';
import { checkTargetSettings, DocstoreTarget } from '../block-target.ts';
import { deleteDef } from './delete.def.ts';

export const docstoreDelete = implementBlock(
  deleteDef,
  (s, ctx) => {
    const target = new DocstoreTarget(s, ctx, deleteDef.type);
    return {
      async process(msg) {
        const act = activationOf(msg);
        const filter = target.document(s.filter, act, 'filter');
        if (s.many && !s.deleteAll && Object.keys(filter).length === 0) {
          throw target.refuse('the filter is empty and many is true, which would delete every document; set deleteAll: true if that is meant');
        }
        const result = await target.run(act, (c) => (s.many ? c.deleteMany(filter) : c.deleteOne(filter)));
        return target.deliver(msg, { deletedCount: result.deletedCount });
      },
    };
  },
  checkTargetSettings,
);
