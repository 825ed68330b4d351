import { describe, expect, it } from 'vitest';
import type { TraceEntry } from '../../../shared/platform-api/telemetry.ts';
import { TraceSampler } from './trace-sampling.ts';

const step = (runId: string): TraceEntry => ({ kind: 'step', flow: 'f', correlationId: 'c', runId, step: 'flows.f.steps[0]', startedAt: 1, durationMs: 1, outcome: 'completed' });
const call = (runId: string): TraceEntry => ({ kind: 'http', flow: 'f', correlationId: 'c', runId, name: 'GET https://example.com/', startedAt: 1, durationMs: 1, status: 200 });
const run = (runId: string, outcome: 'completed' | 'failed'): TraceEntry => ({ kind: 'run', flow: 'f', correlationId: 'c', runId, startedAt: 1, durationMs: 2, outcome });

describe('trace sampling', () => {
  it('exports the calls of a run left out by sampling only when the run fails, with its steps and in their order', () => {
    const sampler = new TraceSampler({ ratio: 0, keepFailed: true });
    const kept: TraceEntry[] = [];
    for (const e of [step('ok'), call('ok'), run('ok', 'completed'), step('bad'), call('bad'), run('bad', 'failed')]) sampler.admit(e, (x) => kept.push(x));
    expect(kept).toEqual([step('bad'), call('bad'), run('bad', 'failed')]);
    expect(sampler.sampledOut).toBe(1);
  });

  it('exports every call of a sampled run as it comes', () => {
    const sampler = new TraceSampler({ ratio: 1, keepFailed: true });
    const kept: TraceEntry[] = [];
    sampler.admit(call('r'), (x) => kept.push(x));
    expect(kept).toEqual([call('r')]);
  });
});
