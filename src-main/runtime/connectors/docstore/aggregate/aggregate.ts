import { activationOf } from '../../../core/activation.ts';
import { implementBlock } from '../../../core/component.ts';
import { checkTargetSettings, DocstoreTarget } from '../block-target.ts';
import { aggregateDef } from './aggregate.def.ts';
import { preparePipeline } from './pipeline.ts';

export const docstoreAggregate = implementBlock(
  aggregateDef,
  (s, ctx) => {
    const target = new DocstoreTarget(s, ctx, aggregateDef.type);
    return {
      async process(msg) {
        const act = activationOf(msg);
        const pipeline = preparePipeline(s.pipeline.evaluate(act), s.limit, (r) => target.refuse(r));
        // promoteValues off keeps Int32, Long and Double apart so canonical mode can name them.
        const docs = await target.run(act, (c, signal) => c.aggregate(pipeline, { promoteValues: false, signal }).toArray());
        return target.deliver(msg, target.output(docs));
      },
    };
  },
  checkTargetSettings,
);
