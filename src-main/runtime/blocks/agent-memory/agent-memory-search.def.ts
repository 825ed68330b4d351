import { defineBlock } from '../../core/component.ts';
import { agentSettings } from './agent-settings.ts';

export const agentMemorySearchDef = defineBlock({
  type: 'agent-memory-search',
  summary: 'Searches an agent’s conversations and memories, most relevant first.',
  description:
    'Ranks by meaning when the platform has embeddings (`agentMemory.semantic`), else by text matching. `user` limits the search to one person’s conversations and memories. Refused, naming the flag, when the platform does not implement search (`agentMemory.search`).',
  settings: {
    agent: agentSettings.agent,
    user: agentSettings.user,
    context: agentSettings.context,
    query: { type: 'cel', required: true, description: 'What to look for.', example: 'body.question' },
    limit: { type: 'int', minimum: 1, description: 'Most hits returned; the platform’s default when absent.', example: 5 },
    resultVar: { type: 'string', description: 'Store the hits in `vars.<resultVar>` instead of replacing the body.', example: 'recalled' },
  },
  example: `- agent-memory-search:
    agent: support-bot
    query: body.question
    limit: 5
    resultVar: recalled`,
});
