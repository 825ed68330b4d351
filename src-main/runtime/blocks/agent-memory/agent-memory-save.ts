import { implementBlock } from '../../core/component.ts';
import { activationOf } from '../../core/activation.ts';
import { FlowError } from '../../core/errors.ts';
import { VersionConflictError } from '../../services/platform-error.ts';
import { encodeValue } from '../kv/kv-value.ts';
import { agentMemorySaveDef } from './agent-memory-save.def.ts';
import { conversationOf } from './agent-settings.ts';

export const agentMemorySave = implementBlock(agentMemorySaveDef, (s, ctx) => {
  const count = (value: unknown, name: string): number | undefined => {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw new FlowError(`${ctx.path}.${name} must be a whole number >= 0, got ${JSON.stringify(value)}`);
    return value;
  };
  return {
    async process(msg) {
      const { threadKey, call } = await conversationOf(s, msg, ctx.path);
      const act = activationOf(msg);
      const data = encodeValue(await s.state.evaluate(act), s.format);
      const version = count(await s.version.evaluate(act), 'version') ?? 0;
      const iteration = s.iteration ? count(await s.iteration.evaluate(act), 'iteration') : undefined;
      const tokens = s.tokens ? count(await s.tokens.evaluate(act), 'tokens') : undefined;
      let saved: number;
      try {
        saved = await ctx.host.services.agentMemory.saveWorking(s.agent, threadKey, data, { ...call, version, iteration, tokens });
      } catch (err) {
        if (err instanceof VersionConflictError) throw new FlowError(err.message, { status: 409, cause: err });
        throw err;
      }
      const current = msg.vars[s.resultVar];
      msg.vars[s.resultVar] = { ...(current && typeof current === 'object' ? current : {}), version: saved };
      return msg;
    },
  };
});
