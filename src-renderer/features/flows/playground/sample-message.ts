import type { CelSample } from '../../../../shared/flow-design.ts';
import type { CelScope } from '../analysis/cel-scope.ts';
import { statsKey, type FlowRunStats } from '../run-stats.ts';

/** The traced messages that reached a step and entered its flow, when there are any. */
export function tracedInputs(stats: FlowRunStats, integration: string, flow: string | undefined, stepPath: string | undefined) {
  return {
    atStep: stepPath ? stats.lastInput[statsKey(integration, stepPath)] : undefined,
    atFlow: flow ? stats.lastInput[statsKey(integration, flow)] : undefined,
  };
}

/** Where a sample came from, as the playground's caption and the settings form's preview say it. */
export const SAMPLE_ORIGIN: Record<SampleChoice['origin'], string> = {
  trace: 'the last message that reached this step',
  'flow-input': 'the last message that entered this flow',
  'made-up': 'made up from the variables known here (no traced message yet)',
};

export interface SampleChoice {
  sample: CelSample;
  /** Where it came from, for the playground's caption. */
  origin: 'trace' | 'flow-input' | 'made-up';
}

/**
 * The message to try an expression on: the last real message that reached the step (when the
 * traces carried snapshots), else the last one that entered the flow, else one made up from the
 * variables known at the step.
 */
export function sampleFor(traced: { atStep?: CelSample; atFlow?: CelSample }, stepPath: string | undefined, scope: CelScope | undefined): SampleChoice {
  if (traced.atStep) return { sample: traced.atStep, origin: 'trace' };
  if (traced.atFlow) return { sample: traced.atFlow, origin: 'flow-input' };
  const vars: Record<string, unknown> = {};
  for (const v of scope?.vars ?? []) vars[v.name] = v.name === 'query' || v.name === 'headers' ? {} : v.name === 'method' ? 'POST' : v.name === 'error' ? { message: 'example failure', step: stepPath ?? '' } : '';
  const sample: CelSample = { body: {}, vars };
  if (scope?.inErrorChain) sample.error = { message: 'example failure', step: '' };
  return { sample, origin: 'made-up' };
}
