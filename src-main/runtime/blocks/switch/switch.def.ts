import { defineBlock } from '../../core/component.ts';

export const switchDef = defineBlock({
  type: 'switch',
  summary: 'Runs the steps of the first case whose condition is true, else the default steps.',
  description:
    'The flow continues after the switch with whatever the chosen steps left. A case that drops or fails drops or fails the message.',
  settings: {
    cases: {
      type: 'list',
      required: true,
      description: 'Checked in order; the first true `when` wins.',
      items: {
        type: 'object',
        description: 'One case.',
        fields: {
          when: { type: 'cel', required: true, description: 'Predicate choosing this case.', example: 'vars.method == "GET"' },
          steps: { type: 'steps', required: true, description: 'Steps run for this case.' },
        },
      },
    },
    default: { type: 'steps', description: 'Steps run when no case matches; without it the message passes unchanged.' },
  },
  example: `- switch:
    cases:
      - when: vars.method == "GET"
        steps:
          - set: {body: '{"order": vars.id}'}
    default:
      - set: {vars: {httpStatus: "405"}}`,
});
