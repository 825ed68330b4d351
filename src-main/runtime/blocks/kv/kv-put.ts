import { implementBlock } from '../../core/component.ts';
import { activationOf } from '../../core/activation.ts';
import { kvPutDef } from './kv-put.def.ts';
import { asFlowError, keyOf, versionOf } from './kv-errors.ts';
import { encodeValue } from './kv-value.ts';
import { platformCall } from '../platform-call.ts';

export const kvPut = implementBlock(kvPutDef, (s, ctx) => ({
  async process(msg, run) {
    const act = activationOf(msg);
    const key = keyOf(await s.key.evaluate(act), ctx.path);
    const value = encodeValue(await s.value.evaluate(act), s.format);
    const expectedVersion = s.expectedVersion ? versionOf(await s.expectedVersion.evaluate(act), ctx.path) : undefined;
    try {
      const version = await platformCall(run, msg.correlationId, 'kv.put', { namespace: s.namespace }, () =>
        ctx.host.services.kv.put(s.namespace, key, value, { expectedVersion, runId: run.runId }),
      );
      if (s.versionVar) msg.vars[s.versionVar] = version;
    } catch (err) {
      throw asFlowError(err);
    }
    return msg;
  },
}));
