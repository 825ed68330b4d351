import { activationOf } from '../../core/activation.ts';
import type { CompiledCel } from '../../core/cel.ts';
import { FlowError } from '../../core/errors.ts';
import type { Message } from '../../core/message.ts';
import type { AgentCallOptions } from '../../services/platform-services.ts';

/** Settings every agent-memory block shares: which agent, which conversation, whose, and the agent context. */
export const agentSettings = {
  agent: { type: 'string', required: true, description: 'The logical agent (agentId).', example: 'support-bot' },
  thread: { type: 'cel', required: true, description: 'The conversation key; it alone addresses the conversation.', example: 'vars.sessionId' },
  user: {
    type: 'cel',
    description: 'The person the conversation is with (userId); recorded on the first write that names one. Absent for an agent serving no particular person.',
    example: 'vars.userId',
  },
  context: {
    type: 'cel',
    description:
      'A map of strings forwarded to the platform as X-Flow-Agent-Context (e.g. a per-tenant encryption key); treated as a credential, never logged or kept.',
    example: '{"tenantKey": vars.tenantKey}',
  },
} as const;

interface AgentExprs {
  thread: CompiledCel;
  user?: CompiledCel;
  context?: CompiledCel;
}

/** The conversation a message addresses, evaluated from the shared settings. */
export async function conversationOf(s: AgentExprs, msg: Message, path: string): Promise<{ threadKey: string; call: AgentCallOptions }> {
  const act = activationOf(msg);
  const threadKey = await s.thread.evaluate(act);
  if (typeof threadKey !== 'string' || threadKey === '') throw new FlowError(`${path}.thread must be a non-empty string, got ${JSON.stringify(threadKey)}`);
  const user = s.user ? await s.user.evaluate(act) : undefined;
  if (user !== undefined && user !== null && typeof user !== 'string') throw new FlowError(`${path}.user must be a string, got ${JSON.stringify(user)}`);
  const context = s.context ? await s.context.evaluate(act) : undefined;
  return { threadKey, call: { userId: user ?? undefined, context: contextOf(context, path) } };
}

export function contextOf(value: unknown, path: string): Record<string, string> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value) || Object.values(value).some((v) => typeof v !== 'string')) {
    // Never quote the value: it is a credential.
    throw new FlowError(`${path}.context must be a map of strings`);
  }
  return value as Record<string, string>;
}
