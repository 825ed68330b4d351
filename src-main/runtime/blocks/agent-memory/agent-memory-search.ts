import { implementBlock } from '../../core/component.ts';
import { activationOf } from '../../core/activation.ts';
import { FlowError } from '../../core/errors.ts';
import { agentMemorySearchDef } from './agent-memory-search.def.ts';
import { contextOf } from './agent-settings.ts';

export const agentMemorySearch = implementBlock(agentMemorySearchDef, (s, ctx) => ({
  async process(msg) {
    const act = activationOf(msg);
    const query = await s.query.evaluate(act);
    if (typeof query !== 'string' || query.trim() === '') throw new FlowError(`${ctx.path}.query must be a non-empty string, got ${JSON.stringify(query)}`);
    const user = s.user ? await s.user.evaluate(act) : undefined;
    const context = s.context ? contextOf(await s.context.evaluate(act), ctx.path) : undefined;
    const request: Record<string, unknown> = { query };
    if (typeof user === 'string') request.userId = user;
    if (s.limit !== undefined) request.limit = s.limit;
    const answer = await ctx.host.services.agentMemory.search(s.agent, request, { context });
    // A platform without agent memory (unsupported: noop) finds nothing.
    const hits = (answer as { hits?: unknown } | undefined)?.hits ?? [];
    if (s.resultVar) msg.vars[s.resultVar] = hits;
    else msg.body = hits;
    return msg;
  },
}));
