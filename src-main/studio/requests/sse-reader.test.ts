import { describe, expect, it } from 'vitest';
import { parseCaptureSearch } from './capture-search.ts';
import { markFinal, parseSseFrame, SseReader } from './sse-reader.ts';
import { paramsOf } from './capture-replay.ts';

describe('reading an event stream', () => {
  it('assembles frames split anywhere, joins data lines, and tells heartbeats and errors apart', () => {
    const text = 'event: progress\ndata: {"a":\ndata: 1}\nid: 7\n\n: ping\n\nevent: error\r\ndata: {"error":"x"}\r\n\r\ndata: plain\n\n';
    const reader = new SseReader(0);
    const frames = [];
    for (let i = 0; i < text.length; i += 3) frames.push(...reader.push(text.slice(i, i + 3), 5));
    expect(frames).toEqual([
      { atMs: 5, event: 'progress', data: '{"a":\n1}', id: '7' },
      { atMs: 5, data: 'ping', heartbeat: true },
      { atMs: 5, event: 'error', data: '{"error":"x"}', mark: 'error' },
      { atMs: 5, data: 'plain' },
    ]);
    markFinal(frames);
    expect(frames[3].mark).toBe('final');
  });
});

describe('searching captures', () => {
  const c = { path: '/webhooks/billing?x=1', status: 403, headers: 'x-event-type: invoice.paid', body: '{"invoice":"inv-7"}' };
  it('narrows by path, status class, header and body, and free words match anywhere', () => {
    expect(parseCaptureSearch('path:/webhooks status:4xx header:invoice.paid body:inv-7')(c)).toBe(true);
    expect(parseCaptureSearch('status:5xx')(c)).toBe(false);
    expect(parseCaptureSearch('INV-7')(c)).toBe(true);
    expect(parseCaptureSearch('403 billing')(c)).toBe(true);
    expect(parseCaptureSearch('body:billing')(c)).toBe(false);
  });
});

describe('a captured path read back against its route', () => {
  it('recovers path parameters, decoded', () => {
    expect(paramsOf('/jobs/{job}/progress', '/jobs/report%207/progress')).toEqual({ job: 'report 7' });
    expect(paramsOf('/jobs/{job}/progress', '/jobs/x')).toBeUndefined();
  });
});

describe('reading one frame a runtime wrote, for the live feed', () => {
  it('gives its event name and joined data, and a heartbeat comment as the event ":"', () => {
    expect(parseSseFrame('event: progress\ndata: {"a":\ndata: 1}\n\n')).toEqual({ event: 'progress', data: '{"a":\n1}' });
    expect(parseSseFrame('data: plain\n')).toEqual({ data: 'plain' });
    expect(parseSseFrame(': ping\n\n')).toEqual({ event: ':', data: 'ping' });
  });
});
