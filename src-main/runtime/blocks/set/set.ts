import { implementBlock } from '../../core/component.ts';
import { activationOf } from '../../core/activation.ts';
import { setDef } from './set.def.ts';

export const set = implementBlock(
  setDef,
  (s) => {
    const varEntries = Object.entries(s.vars ?? {});
    return {
      process(msg) {
        const act = activationOf(msg);
        const body = s.body ? s.body.evaluate(act) : undefined;
        const values = varEntries.map(([k, e]) => [k, e.evaluate(act)] as const);
        if (s.body) msg.body = body;
        for (const [k, v] of values) msg.vars[k] = v;
        for (const k of s.unset ?? []) delete msg.vars[k];
        return msg;
      },
    };
  },
  (s) => (s.body === undefined && s.vars === undefined && s.unset === undefined ? ['set needs body, vars or unset'] : []),
);
