import { implementBlock } from '../../core/component.ts';
import { activationOf } from '../../core/activation.ts';
import { FlowError } from '../../core/errors.ts';
import { agentMemoryAppendDef } from './agent-memory-append.def.ts';
import { conversationOf } from './agent-settings.ts';

export const agentMemoryAppend = implementBlock(agentMemoryAppendDef, (s, ctx) => ({
  async process(msg) {
    const { threadKey, call } = await conversationOf(s, msg, ctx.path);
    const value = await s.turns.evaluate(activationOf(msg));
    const list = Array.isArray(value) ? value : [value];
    const turns = list.map((turn, i) => {
      if (!turn || typeof turn !== 'object' || Array.isArray(turn)) throw new FlowError(`${ctx.path}.turns[${i}] must be an object, e.g. {"role": "user", "content": "…"}`);
      // The platform assigns these; sending them is refused.
      const { seq: _seq, createdAt: _createdAt, ...rest } = turn as Record<string, unknown>;
      return rest;
    });
    if (turns.length === 0) return msg;
    const answer = await ctx.host.services.agentMemory.appendTurns(s.agent, threadKey, turns, call);
    if (s.resultVar) msg.vars[s.resultVar] = answer;
    const version = (answer as { version?: unknown } | null)?.version;
    const memory = msg.vars[s.memoryVar];
    if (typeof version === 'number' && memory && typeof memory === 'object') (memory as Record<string, unknown>).version = version;
    return msg;
  },
}));
