import { describe, expect, it } from 'vitest';
import { newSpanId, newTraceId, parseTraceparent } from './trace-context.ts';

describe('trace and span ids', () => {
  it('are lowercase hex of W3C length, never all zero, and distinct across many (pool refills included)', () => {
    const traces = new Set<string>();
    const spans = new Set<string>();
    for (let i = 0; i < 10_000; i++) {
      traces.add(newTraceId());
      spans.add(newSpanId());
    }
    expect(traces.size).toBe(10_000);
    expect(spans.size).toBe(10_000);
    for (const id of traces) expect(id).toMatch(/^(?!0{32})[0-9a-f]{32}$/);
    for (const id of spans) expect(id).toMatch(/^(?!0{16})[0-9a-f]{16}$/);
  });

  it('make a traceparent another hop accepts', () => {
    const traceId = newTraceId();
    const spanId = newSpanId();
    expect(parseTraceparent(`00-${traceId}-${spanId}-01`)).toEqual({ traceId, spanId, sampled: true });
  });
});
