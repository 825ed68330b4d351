import { defineBlock } from '../../core/component.ts';

export const logDef = defineBlock({
  type: 'log',
  summary: 'Writes a structured log record and passes the message on unchanged.',
  settings: {
    message: { type: 'cel', required: true, description: 'The log line; a non-string result is written as JSON.', example: '"order " + vars.id + " received"' },
    level: { type: 'string', default: 'info', enum: ['debug', 'info', 'warn', 'error'], description: 'Severity.' },
    fields: { type: 'map', description: 'Extra structured fields.', values: { type: 'cel', description: 'Field value.' } },
  },
  example: `- log:
    message: '"order " + vars.id'
    fields: {total: body.total}`,
});
