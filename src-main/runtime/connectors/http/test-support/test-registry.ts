import { defineBlock, implementBlock, type AnyBlockImpl } from '../../../core/component.ts';
import type { ComponentRegistry } from '../../../core/registry-types.ts';
import { registry } from '../../../registry.ts';

const waitDef = defineBlock({
  type: 'wait',
  summary: 'Test only: holds the message for a while, as a slow backend would.',
  settings: { for: { type: 'duration', required: true, description: 'How long to hold the message.' } },
});

/** A block that only tests need: a flow that takes time (timeouts, disconnects, heartbeats). */
const wait = implementBlock(waitDef, (s) => ({
  async process(msg) {
    await new Promise((resolve) => setTimeout(resolve, s.for));
    return msg;
  },
}));

const failDef = defineBlock({
  type: 'fail',
  summary: 'Test only: fails with the given message, as a block whose error quotes a value would.',
  settings: { message: { type: 'string', required: true, description: 'The error message.' } },
});

const fail = implementBlock(failDef, (s) => ({
  process() {
    throw new Error(s.message);
  },
}));

const holdDef = defineBlock({
  type: 'hold',
  summary: 'Test only: holds the message until the test lets it go (heldRuns), as a run paused in the debugger is.',
  settings: {},
});

const waiting: Array<() => void> = [];
const arrivals: Array<() => void> = [];

/** The runs a `hold` step holds: the test waits for one to arrive, then lets them all go. */
export const heldRuns = {
  /** Resolves once a run is held (at once if one is). */
  arrived(): Promise<void> {
    return waiting.length > 0 ? Promise.resolve() : new Promise((resolve) => arrivals.push(resolve));
  },
  releaseAll(): void {
    for (const release of waiting.splice(0)) release();
  },
};

const hold = implementBlock(holdDef, () => ({
  process(msg) {
    return new Promise((resolve) => {
      waiting.push(() => resolve(msg));
      for (const arrived of arrivals.splice(0)) arrived();
    });
  },
}));

/** The runtime's registry plus test-only blocks. */
export const testRegistry: ComponentRegistry = {
  ...registry,
  blocks: new Map<string, AnyBlockImpl>([...registry.blocks, ['wait', wait as unknown as AnyBlockImpl], ['fail', fail as unknown as AnyBlockImpl], ['hold', hold as unknown as AnyBlockImpl]]),
};
