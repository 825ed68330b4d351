import { defineSource } from '../../core/component.ts';

export const scheduleSourceDef = defineSource({
  type: 'schedule',
  onFailure: 'the run is over, and the next tick runs the flow again',
  summary: 'Runs the flow on a fixed interval or a cron schedule.',
  description: [
    'Give exactly one of `interval` or `cron`. Each run gets `body` (the `body` setting) and `vars.scheduledAt`, the time it was due (ISO 8601).',
    'Every instance of a deployment runs its own schedule; set `leader: true` on the flow so only the elected instance does, with another taking over when it dies.',
    'A tick that comes while the previous run is still going is skipped (unless `overlap: true`), so a slow run never piles up. A failed run is said in a `warn` line of the run’s log (its step, block and error; each distinct failure once a minute, the rest counted in one summary line).',
  ].join('\n\n'),
  settings: {
    interval: { type: 'duration', description: 'Run every this long, the first time one interval after the start.', example: '30s' },
    cron: {
      type: 'string',
      description: 'Cron expression: `minute hour day month weekday`, or six fields with seconds first; `@hourly`, `@daily`, … work too.',
      example: '0 2 * * *',
    },
    timezone: {
      type: 'string',
      default: 'utc',
      description:
        'Clock the cron expression reads: `utc`, `local` (the process’s time zone) or an IANA name such as `Europe/Berlin`. On a daylight-saving change, a time that does not exist that day (02:30 when clocks jump from 02:00 to 03:00) fires at the first instant after the gap; a time that occurs twice fires once, the first time.',
      example: 'America/New_York',
    },
    body: { type: 'any', default: null, description: 'Body of every run’s message.', example: { report: 'daily' } },
    overlap: { type: 'boolean', default: false, description: 'Start a run even while the previous one is still running.' },
  },
  example: `source:
  type: schedule
  cron: "0 2 * * *"`,
});
