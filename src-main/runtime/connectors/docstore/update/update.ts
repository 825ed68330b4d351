import type { UpdateResult } from 'mongodb';
import { activationOf } from '../../../core/activation.ts';
import { implementBlock } from '../../../core/component.ts';
import { checkTargetSettings, DocstoreTarget } from '../block-target.ts';
import { updateDef } from './update.def.ts';
import { replacementDocument, updateDocument } from './update-document.ts';

export const docstoreUpdate = implementBlock(
  updateDef,
  (s, ctx) => {
    const target = new DocstoreTarget(s, ctx, updateDef.type);
    const refuse = (reason: string) => target.refuse(reason);
    return {
      async process(msg) {
        const act = activationOf(msg);
        // Refused here rather than at load because the spec lists it among the run-time refusals.
        if (s.many && s.replacement) throw refuse('many: true is not available with replacement (a replacement swaps one document); use update: with operators to change every match');
        const filter = target.document(s.filter, act, 'filter');
        const upsert = s.upsert;
        let result: UpdateResult;
        if (s.replacement) {
          const replacement = replacementDocument(s.replacement.evaluate(act), refuse);
          result = await target.run(act, (c) => c.replaceOne(filter, replacement, { upsert }));
        } else {
          const update = updateDocument(s.update!.evaluate(act), refuse);
          result = await target.run(act, (c) => (s.many ? c.updateMany(filter, update, { upsert }) : c.updateOne(filter, update, { upsert })));
        }
        return target.deliver(msg, {
          matchedCount: result.matchedCount,
          modifiedCount: result.modifiedCount,
          upsertedCount: result.upsertedCount,
          upsertedId: result.upsertedId === null || result.upsertedId === undefined ? null : target.output(result.upsertedId),
        });
      },
    };
  },
  (s) => [
    ...checkTargetSettings(s),
    ...(s.update && s.replacement ? ['give either update (operators or a pipeline) or replacement (a whole document), not both'] : []),
    ...(!s.update && !s.replacement ? ['needs update (operators or a pipeline) or replacement (a whole document)'] : []),
  ],
);
