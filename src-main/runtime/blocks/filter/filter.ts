import { Halt, implementBlock } from '../../core/component.ts';
import { activationOf } from '../../core/activation.ts';
import { isTrue } from '../../core/cel.ts';
import type { Message } from '../../core/message.ts';
import { filterDef } from './filter.def.ts';

export const filter = implementBlock(filterDef, (s) => {
  const reject = (msg: Message, body: unknown): Halt => {
    msg.vars.httpStatus = s.reject!.status;
    msg.body = body;
    return new Halt(msg);
  };
  const decide = (msg: Message, verdict: unknown): Message | null | Halt | Promise<Halt> => {
    if (isTrue(verdict)) return msg;
    if (!s.reject) return null;
    const body = s.reject.body.evaluate(activationOf(msg));
    return body instanceof Promise ? body.then((b) => reject(msg, b)) : reject(msg, body);
  };
  return {
    process(msg) {
      const verdict = s.condition.evaluate(activationOf(msg));
      // Only an expression that waited (e.g. a secret read the first time) makes the step async.
      return verdict instanceof Promise ? verdict.then((v) => decide(msg, v)) : decide(msg, verdict);
    },
  };
});
