import { defineBlock } from '../../core/component.ts';

export const setDef = defineBlock({
  type: 'set',
  summary: 'Assigns the body and variables from CEL expressions.',
  description:
    'Every expression sees the message as it arrived at this step, so `vars` may read the old body while `body` replaces it.',
  settings: {
    body: { type: 'cel', description: 'New body.', example: '{"id": vars.id, "total": body.price * body.quantity}' },
    vars: { type: 'map', description: 'Variables to assign, one expression each.', values: { type: 'cel', description: 'Value of the variable.' }, example: { httpStatus: '201' } },
    unset: { type: 'list', description: 'Variables to remove.', items: { type: 'string', description: 'Variable name.' } },
  },
  example: `- set:
    body: '{"received": body, "at": string(now)}'
    vars: {httpStatus: "201"}`,
});
