import { defineBlock } from '../../core/component.ts';
import { formatSetting } from '../kv/kv-value.ts';
import { agentSettings } from './agent-settings.ts';

export const agentMemoryLoadDef = defineBlock({
  type: 'agent-memory-load',
  summary: 'Loads an agent conversation’s working memory into `vars.memory` (or `resultVar`).',
  description:
    'The result is `{state, version, iteration, tokens}`; a conversation with nothing saved yet resumes from nothing: `{state: null, version: 0, iteration: 0, tokens: 0}`, and a later `agent-memory-save` with version 0 creates it.',
  settings: {
    ...agentSettings,
    format: { ...formatSetting, description: 'How the saved bytes are read: `json` (default), `text` or `raw`.' },
    resultVar: { type: 'string', default: 'memory', description: 'Variable that receives `{state, version, iteration, tokens}`.' },
  },
  example: `- agent-memory-load:
    agent: support-bot
    thread: vars.sessionId`,
});
