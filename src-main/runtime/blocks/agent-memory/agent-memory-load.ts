import { implementBlock } from '../../core/component.ts';
import { decodeValue } from '../kv/kv-value.ts';
import { agentMemoryLoadDef } from './agent-memory-load.def.ts';
import { conversationOf } from './agent-settings.ts';

export const agentMemoryLoad = implementBlock(agentMemoryLoadDef, (s, ctx) => ({
  async process(msg) {
    const { threadKey, call } = await conversationOf(s, msg, ctx.path);
    const saved = await ctx.host.services.agentMemory.loadWorking(s.agent, threadKey, call);
    msg.vars[s.resultVar] = saved
      ? { state: decodeValue(saved.data, s.format, `working memory of ${threadKey}`), version: saved.version, iteration: saved.iteration, tokens: saved.tokens }
      : { state: null, version: 0, iteration: 0, tokens: 0 };
    return msg;
  },
}));
