import { Halt, implementBlock } from '../../core/component.ts';
import { FlowError } from '../../core/errors.ts';
import { flowRefDef } from './flow-ref.def.ts';

export const flowRef = implementBlock(flowRefDef, (s, ctx) => ({
  async process(msg, run) {
    const result = await ctx.host.runFlow(s.flow, msg.clone(), run);
    if (result.outcome === 'failed') throw new FlowError(`flow ${s.flow} failed: ${result.error?.message ?? 'unknown error'}`, { status: result.error?.status });
    if (result.outcome === 'dropped') return null;
    if (s.resultVar) msg.vars[s.resultVar] = result.message.body;
    else msg.body = result.message.body;
    // A sub-flow that rejects (e.g. a filter's 401) answers for the caller too.
    if (result.halted) {
      if (result.message.vars.httpStatus !== undefined) msg.vars.httpStatus = result.message.vars.httpStatus;
      return new Halt(msg);
    }
    return msg;
  },
}));
