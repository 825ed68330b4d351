import type { RunContext } from '../core/engine/chain.ts';
import { errorMessage } from '../core/errors.ts';
import { newSpanId } from '../core/trace-context.ts';

/**
 * Runs one delegation API call of a step and, while someone takes spans, reports it into the
 * run's trace as a child of the step (`kv.get`, `queue.publish`…): the studio draws it under
 * the step and OpenTelemetry exports it as a client span.
 */
export async function platformCall<T>(
  run: RunContext,
  correlationId: string,
  name: string,
  detail: Record<string, unknown>,
  /** Makes the call; `spanId` is the call's own span while it is reported (a publish sends it on as the consumer's parent). */
  call: (spanId: string | undefined) => Promise<T>,
): Promise<T> {
  const hub = run.trace;
  if (!hub?.spans) return call(undefined);
  const spanId = run.traceId !== undefined ? newSpanId() : undefined;
  const startedAt = Date.now();
  const t0 = performance.now();
  const report = (error: string | undefined): void => {
    hub.span({
      kind: 'platform',
      flow: run.flowName,
      runId: run.runId,
      correlationId,
      name,
      startedAt,
      durationMs: performance.now() - t0,
      error,
      detail,
      deployment: run.deployment,
      instance: run.instance,
      traceId: run.traceId,
      spanId,
      parentSpanId: run.stepSpanId ?? run.spanId,
      sampled: run.sampled,
    });
  };
  try {
    const value = await call(spanId);
    report(undefined);
    return value;
  } catch (err) {
    report(errorMessage(err));
    throw err;
  }
}
