import { defineBlock } from '../../core/component.ts';

export const lockDef = defineBlock({
  type: 'lock',
  summary: 'Runs steps while holding a platform lease on a name, so no two instances run them at once.',
  description: [
    'The lease is renewed while the steps run and released when they end. When another holder has the name, the block keeps trying for `wait`, then fails the message with status 409 in `vars.error.status` (or drops it, with `onBusy: drop`).',
    'If the lease is lost while the steps run (the platform refused a renewal or could not be reached for a whole TTL), the message fails afterwards, saying so: another instance may have run the same steps meanwhile.',
    'Needs the platform’s leases. With leases unsupported and the default policy (`unsupported: error`) the definition does not load; a single-instance deployment declares `unsupported: noop` and locks are then held in process.',
  ].join('\n\n'),
  settings: {
    name: { type: 'cel', required: true, description: 'The lease name.', example: '"invoice-" + string(body.invoiceId)' },
    ttl: {
      type: 'duration',
      default: '30s',
      description: 'Lease time to live, renewed about three times per TTL; a crashed holder blocks the name at most this long.',
    },
    wait: { type: 'duration', default: 0, description: 'How long to keep trying when the name is held; 0 tries once.' },
    onBusy: {
      type: 'string',
      enum: ['fail', 'drop'],
      default: 'fail',
      description: 'When the name stays held: `fail` fails the message with status 409 in `vars.error.status`, `drop` drops it.',
    },
    steps: { type: 'steps', required: true, description: 'The steps run while holding the lease.' },
  },
  example: `- lock:
    name: '"nightly-report"'
    ttl: 1m
    steps:
      - flow-ref: {flow: build-report}`,
});
