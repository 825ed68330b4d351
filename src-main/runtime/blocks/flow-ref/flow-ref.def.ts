import { defineBlock } from '../../core/component.ts';

export const flowRefDef = defineBlock({
  type: 'flow-ref',
  summary: 'Runs another flow of the same definition with a copy of the message and takes its result.',
  description:
    'The called flow gets a copy of the body and variables. Its final body replaces this body, or lands in `resultVar`. A drop or failure there drops or fails this message.',
  settings: {
    flow: { type: 'string', required: true, flowRef: true, description: 'Name of the flow to run.', example: 'lookup-customer' },
    resultVar: { type: 'string', description: 'Store the result body in this variable instead of replacing the body.' },
  },
  example: `- flow-ref: {flow: lookup-customer, resultVar: customer}`,
});
