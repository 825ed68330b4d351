import { implementBlock } from '../../core/component.ts';
import { activationOf } from '../../core/activation.ts';
import { kvDeleteDef } from './kv-delete.def.ts';
import { asFlowError, keyOf, versionOf } from './kv-errors.ts';
import { platformCall } from '../platform-call.ts';

export const kvDelete = implementBlock(kvDeleteDef, (s, ctx) => ({
  async process(msg, run) {
    const act = activationOf(msg);
    const key = keyOf(await s.key.evaluate(act), ctx.path);
    const expectedVersion = s.expectedVersion ? versionOf(await s.expectedVersion.evaluate(act), ctx.path) : undefined;
    try {
      await platformCall(run, msg.correlationId, 'kv.delete', { namespace: s.namespace }, () =>
        ctx.host.services.kv.delete(s.namespace, key, { expectedVersion, runId: run.runId }),
      );
    } catch (err) {
      throw asFlowError(err);
    }
    return msg;
  },
}));
