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
      const values = fieldEntries.map(([, e]) => e.evaluate(act));
      const write = (t: unknown, vs: unknown[]): typeof msg => {
        const fields: Record<string, unknown> = { correlationId: msg.correlationId, step: ctx.path, runId: run.runId };
        fieldEntries.forEach(([k], i) => (fields[k] = toSnapshot(vs[i])));
        ctx.log[s.level](typeof t === 'string' ? t : JSON.stringify(toSnapshot(t)), fields);
        return msg;
      };
      // Only an expression that waited (e.g. a secret read the first time) makes the step async.
      if (text instanceof Promise || values.some((v) => v instanceof Promise)) {
        return Promise.all([text, ...values]).then(([t, ...vs]) => write(t, vs));
      }
      return write(text, values);
    },
  };
});
