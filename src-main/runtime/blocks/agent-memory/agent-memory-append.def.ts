import { defineBlock } from '../../core/component.ts';
import { agentSettings } from './agent-settings.ts';

export const agentMemoryAppendDef = defineBlock({
  type: 'agent-memory-append',
  summary: 'Appends turns to an agent conversation’s permanent record.',
  description:
    'The record is append-only; the platform numbers the turns (`seq`) and stamps them (`createdAt`), so two writers interleave rather than conflict. The message passes on; the conversation’s new version goes to `vars.memory.version`, and `resultVar` receives the platform’s whole answer.',
  settings: {
    ...agentSettings,
    turns: {
      type: 'cel',
      required: true,
      description: 'A turn object or a list of them, e.g. `{"role": "user", "content": …}`.',
      example: '[{"role": "user", "content": body.question}, {"role": "assistant", "content": vars.answer}]',
    },
    resultVar: { type: 'string', description: 'Store the platform’s answer (`{version, turns: [{seq, createdAt}]}`) in `vars.<resultVar>`.' },
    memoryVar: {
      type: 'string',
      default: 'memory',
      description:
        'An append gives the conversation a new version; it is written to `vars.<memoryVar>.version` (when that was loaded) so a later `agent-memory-save` in the same run does not conflict.',
    },
  },
  example: `- agent-memory-append:
    agent: support-bot
    thread: vars.sessionId
    turns: '{"role": "user", "content": body.question}'`,
});
