import { AlwaysOffSampler, AlwaysOnSampler, SamplingDecision, TraceIdRatioBasedSampler, type Sampler } from '@opentelemetry/sdk-trace';
import { ROOT_CONTEXT, SpanKind } from '@opentelemetry/api';
import type { OtelConfig } from './otel-config.ts';

/**
 * Whether a trace is exported. Runs are recorded after the fact, so the decision is made per
 * span from what every span of a run shares — its trace id and the caller's sampled flag — and
 * therefore agrees across the run, its steps and its calls. The ratio itself is the SDK's.
 */
export function traceSampler(config: Pick<OtelConfig, 'sampler' | 'ratio'>): (traceId: string, callerSampled: boolean | undefined) => boolean {
  const root = rootSampler(config);
  const parentBased = config.sampler.startsWith('parentbased_');
  return (traceId, callerSampled) => {
    if (parentBased && callerSampled !== undefined) return callerSampled;
    return root.shouldSample(ROOT_CONTEXT, traceId, '', SpanKind.INTERNAL, {}, []).decision === SamplingDecision.RECORD_AND_SAMPLED;
  };
}

function rootSampler(config: Pick<OtelConfig, 'sampler' | 'ratio'>): Sampler {
  switch (config.sampler) {
    case 'always_off':
    case 'parentbased_always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
    case 'parentbased_traceidratio':
      return new TraceIdRatioBasedSampler(config.ratio);
    default:
      return new AlwaysOnSampler();
  }
}
