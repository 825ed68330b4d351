import { implementBlock } from '../../core/component.ts';
import { activationOf } from '../../core/activation.ts';
import { toSnapshot } from '../../core/message.ts';
import { logDef } from './log.def.ts';

export const log = implementBlock(logDef, (s, ctx) => {
  const fieldEntries = Object.entries(s.fields ?? {});
  return {
    process(msg, run) {
      const act = activationOf(msg);
      const text = s.message.evaluate(act);
      const fields: Record<string, unknown> = { correlationId: msg.correlationId, step: ctx.path, runId: run.runId };
      for (const [k, e] of fieldEntries) fields[k] = toSnapshot(e.evaluate(act));
      ctx.log[s.level](typeof text === 'string' ? text : JSON.stringify(toSnapshot(text)), fields);
      return msg;
    },
  };
});
