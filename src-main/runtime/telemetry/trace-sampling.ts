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
  // The constant samplers decide without the trace id: no call into the SDK per record.
  if (config.sampler === 'always_on') return () => true;
  if (config.sampler === 'always_off') return () => false;
  if (config.sampler === 'parentbased_always_on') return (_traceId, callerSampled) => callerSampled !== false;
  if (config.sampler === 'parentbased_always_off') return (_traceId, callerSampled) => callerSampled === true;
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
