import { Halt, implementBlock } from '../../core/component.ts';
import { activationOf } from '../../core/activation.ts';
import { isTrue } from '../../core/cel.ts';
import { filterDef } from './filter.def.ts';

export const filter = implementBlock(filterDef, (s) => ({
  process(msg) {
    if (isTrue(s.condition.evaluate(activationOf(msg)))) return msg;
    if (!s.reject) return null;
    const body = s.reject.body.evaluate(activationOf(msg));
    msg.vars.httpStatus = s.reject.status;
    msg.body = body;
    return new Halt(msg);
  },
}));
