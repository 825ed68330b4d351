import { SpanKind } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { describe, expect, it } from 'vitest';
import type { TraceSpan } from '../core/trace.ts';
import { spanOfCall } from './otel-spans.ts';

const origin = { resource: resourceFromAttributes({ 'flow.integration': 'greet' }), scope: { name: 'flow-studio' } };

describe('a pause in a debugger exported over OpenTelemetry', () => {
  it('is an internal span under its step, with who let the run go, how, and how many edits — not the edited values', () => {
    const pause: TraceSpan = {
      kind: 'debug',
      flow: 'greet',
      runId: 'r1_5',
      correlationId: 'c-1',
      name: 'paused before flows.greet.steps[1]',
      startedAt: Date.parse('2026-12-06T10:00:00Z'),
      durationMs: 4200,
      traceId: '0af7651916cd43dd8448eb211c80319c',
      spanId: 'b7ad6b7169203331',
      parentSpanId: '00f067aa0ba902b7',
      detail: {
        step: 'flows.greet.steps[1]',
        reason: 'breakpoint',
        breakpoint: 3,
        action: 'continue',
        by: 'studio (ana)',
        edits: [{ path: 'vars.token', before: 's3cr3t', after: 'other', by: 'studio (ana)' }],
      },
    };
    const span = spanOfCall(pause, origin)!;
    expect(span).toMatchObject({ name: 'paused before flows.greet.steps[1]', kind: SpanKind.INTERNAL, parentSpanContext: expect.objectContaining({ spanId: '00f067aa0ba902b7' }) });
    expect(span.spanContext()).toMatchObject({ traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331' });
    expect(span.attributes).toMatchObject({
      'flow.debug.step': 'flows.greet.steps[1]',
      'flow.debug.reason': 'breakpoint',
      'flow.debug.action': 'continue',
      'flow.debug.by': 'studio (ana)',
      'flow.debug.edits': 1,
    });
    // The values edited stay in the studio's trace: a collector gets the count only.
    expect(JSON.stringify(span.attributes)).not.toContain('s3cr3t');
  });
});
