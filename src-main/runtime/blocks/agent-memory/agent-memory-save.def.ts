import { defineBlock } from '../../core/component.ts';
import { formatSetting } from '../kv/kv-value.ts';
import { agentSettings } from './agent-settings.ts';

export const agentMemorySaveDef = defineBlock({
  type: 'agent-memory-save',
  summary: 'Saves an agent conversation’s working memory, at the version it was loaded at.',
  description:
    'A save at a stale version fails with status 409 in `vars.error.status` (someone else saved meanwhile); version 0 creates the conversation. The new version is written back to `vars.memory.version` (or `resultVar`), so a later save in the same run succeeds. A platform that answers 404 here does not implement agent memory: it is turned off for the process and the save fails saying so.',
  settings: {
    ...agentSettings,
    state: { type: 'cel', default: 'vars.memory.state', description: 'The working memory to store (opaque to the platform).' },
    version: { type: 'cel', default: 'vars.memory.version', description: 'The version it was loaded at; 0 creates.' },
    iteration: { type: 'cel', description: 'Iterations the agent has run, reported back on load (X-Agent-Iteration).', example: 'vars.memory.iteration + 1' },
    tokens: { type: 'cel', description: 'Tokens the saved context occupies (X-Agent-Tokens).', example: 'body.usage.totalTokens' },
    format: formatSetting,
    resultVar: { type: 'string', default: 'memory', description: 'Variable whose `version` is updated to the new version.' },
  },
  example: `- agent-memory-save:
    agent: support-bot
    thread: vars.sessionId
    state: '{"summary": body.summary}'`,
});
