import type { SettingsSpec } from '../setting-spec.ts';

/** The parts of a definition file that are not components: declared variables and flow options. */

export const envEntrySpec = {
  description: { type: 'string', description: 'What the variable is for, shown in the deploy dialog.' },
  required: {
    type: 'boolean',
    default: false,
    description: 'The run fails to start when no value is bound (a default does not satisfy it).',
  },
  default: { type: 'string', description: 'Value used when nothing else provides one.', example: '8080' },
  secret: {
    type: 'boolean',
    default: false,
    description: 'The value is a credential: it is bound from a secret and redacted from logs, traces and errors.',
  },
} as const satisfies SettingsSpec;

export const flowSpec = {
  description: { type: 'string', description: 'What the flow does, for people reading it.' },
  workers: { type: 'int', default: 32, minimum: 1, description: 'Messages processed in parallel.' },
  buffer: {
    type: 'int',
    default: 0,
    minimum: 0,
    description: 'Messages queued beyond the busy workers before the source is held back.',
  },
  steps: { type: 'steps', default: [], description: 'The blocks each message runs through, top to bottom.' },
  leader: {
    type: 'boolean',
    default: false,
    description:
      "Only the elected instance of the deployment runs this flow's source (a schedule, a queue); when it dies another takes over within the leader TTL. Needs the platform's leader election.",
  },
  leaderKey: {
    type: 'string',
    description: 'Election key shared by the flows that must have one leader between them; defaults to `<deployment id>/<flow name>`.',
  },
  onError: {
    type: 'steps',
    description:
      'Runs when a step fails, with the failure in vars.error ({message, step, status}). It may shape the answer (body, vars.httpStatus, an SSE frame); only what it sets replaces the 500 {error} answer, and the message stays failed.',
  },
} as const satisfies SettingsSpec;

/** Keys of a flow handled by the loader itself rather than the flow spec. */
export const FLOW_SOURCE_KEY = 'source';
/** A step is `- <block>: {settings}` with an optional `name:` label beside it. */
export const STEP_NAME_KEY = 'name';
export const TOP_LEVEL_KEYS = ['env', 'connectors', 'flows'] as const;
