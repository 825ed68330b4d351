import { implementBlock } from '../../core/component.ts';
import { activationOf } from '../../core/activation.ts';
import type { Message } from '../../core/message.ts';
import { setDef } from './set.def.ts';

export const set = implementBlock(
  setDef,
  (s) => {
    const varEntries = Object.entries(s.vars ?? {});
    const apply = (msg: Message, body: unknown, values: unknown[]): Message => {
      if (s.body) msg.body = body;
      varEntries.forEach(([k], i) => (msg.vars[k] = values[i]));
      for (const k of s.unset ?? []) delete msg.vars[k];
      return msg;
    };
    return {
      process(msg) {
        const act = activationOf(msg);
        const body = s.body ? s.body.evaluate(act) : undefined;
        const values = varEntries.map(([, e]) => e.evaluate(act));
        // An expression that waited (a secret read the first time) makes this step async; others stay sync.
        if (body instanceof Promise || values.some((v) => v instanceof Promise)) {
          return Promise.all([body, ...values]).then(([b, ...vs]) => apply(msg, b, vs));
        }
        return apply(msg, body, values);
      },
    };
  },
  (s) => (s.body === undefined && s.vars === undefined && s.unset === undefined ? ['set needs body, vars or unset'] : []),
);
