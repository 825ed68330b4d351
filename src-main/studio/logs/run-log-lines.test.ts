import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../shared/clock.ts';
import type { LogFeedEvent } from '../../../shared/feed-events.ts';
import type { RunSummary } from '../../../shared/trace-types.ts';
import { RunEndLines } from './run-log-lines.ts';

const START = Date.parse('2026-12-07T09:00:00Z');
const atTemplate = { step: 'flows.work.steps[0]', block: 'template' };
let next = 0;

/** A run of `flow` in the `jobs` integration that failed with `error` now. */
function failed(clock: ManualClock, error = 'template resource "missing.txt" does not exist', flow = 'work', integration = 'jobs'): RunSummary {
  return { runId: `run-${++next}`, integration, flow, correlationId: 'c', startedAt: clock.now() - 5, durationMs: 5, outcome: 'failed', error, steps: 1 };
}

function rejected(clock: ManualClock, reason = 'invalid token: "iss" claim check failed'): RunSummary {
  return {
    runId: `run-${++next}`,
    integration: 'jobs',
    flow: 'price',
    correlationId: 'c',
    startedAt: clock.now() - 5,
    durationMs: 5,
    outcome: 'rejected',
    rejection: { step: 'flows.price.steps[0]', block: 'jwt-verify', reason },
    status: 401,
    steps: 1,
  };
}

function setup(): { clock: ManualClock; lines: LogFeedEvent[]; ends: RunEndLines } {
  const clock = new ManualClock(START);
  const lines: LogFeedEvent[] = [];
  return { clock, lines, ends: new RunEndLines({ clock, write: (l) => lines.push(l) }) };
}

describe("the studio's Logs lines of failed runs, under a flood", () => {
  it('writes one line for a minute of the same failure of a flow, and one summary of the rest when the minute ends, linked to the newest', async () => {
    const { clock, lines, ends } = setup();
    const runs = Array.from({ length: 500 }, () => failed(clock));
    for (const run of runs) ends.report(run, atTemplate);
    expect(lines.map((l) => l.log.fields.runId)).toEqual([runs[0].runId]);
    expect(lines[0].log.msg).toBe('run failed: template resource "missing.txt" does not exist — at flows.work.steps[0] (template)');

    await clock.advance(59_999);
    expect(lines).toHaveLength(1);
    await clock.advance(1);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatchObject({
      integration: 'jobs',
      at: START + 60_000,
      log: {
        level: 'error',
        msg: '499 more failed runs were not logged one by one in the last 60s — see them all in Traces (flow work, outcome failed)',
        fields: {
          flow: 'work',
          runId: runs[499].runId,
          suppressed: 499,
          seconds: 60,
          failures: [{ step: 'flows.work.steps[0]', error: 'template resource "missing.txt" does not exist', count: 499 }],
        },
      },
    });
  });

  it('gives each distinct failure (its error, or its step) and each flow its own line', () => {
    const { clock, lines, ends } = setup();
    for (let i = 0; i < 3; i++) {
      ends.report(failed(clock), atTemplate);
      ends.report(failed(clock), { step: 'flows.work.steps[1]', block: 'template' });
      ends.report(failed(clock, 'connection refused'), atTemplate);
      ends.report(failed(clock, 'connection refused', 'other-flow'), atTemplate);
      ends.report(failed(clock, 'connection refused', 'work', 'other-integration'), atTemplate);
    }
    expect(lines.map((l) => [l.integration, l.log.fields.flow, l.log.fields.step, l.log.msg.slice(0, 30)])).toEqual([
      ['jobs', 'work', 'flows.work.steps[0]', 'run failed: template resource '],
      ['jobs', 'work', 'flows.work.steps[1]', 'run failed: template resource '],
      ['jobs', 'work', 'flows.work.steps[0]', 'run failed: connection refused'],
      ['jobs', 'other-flow', 'flows.work.steps[0]', 'run failed: connection refused'],
      ['other-integration', 'work', 'flows.work.steps[0]', 'run failed: connection refused'],
    ]);
  });

  it('writes a failure again in the next minute, and no summary for a minute that held nothing back', async () => {
    const { clock, lines, ends } = setup();
    ends.report(failed(clock), atTemplate);
    await clock.advance(60_000);
    expect(lines).toHaveLength(1);
    ends.report(failed(clock), atTemplate);
    ends.report(failed(clock), atTemplate);
    expect(lines.map((l) => l.log.level)).toEqual(['error', 'error']);
    expect(lines[1].at).toBe(START + 60_000);
  });

  it('writes the summary when the integration stops, for its flows only, covering the time it ran', async () => {
    const { clock, lines, ends } = setup();
    for (let i = 0; i < 4; i++) ends.report(failed(clock), atTemplate);
    for (let i = 0; i < 4; i++) ends.report(failed(clock, 'boom', 'work', 'other-integration'), atTemplate);
    await clock.advance(12_000);
    ends.flush('jobs');
    expect(lines.map((l) => [l.integration, l.log.msg])).toEqual([
      ['jobs', expect.stringMatching(/^run failed/)],
      ['other-integration', 'run failed: boom — at flows.work.steps[0] (template)'],
      ['jobs', '3 more failed runs were not logged one by one in the last 12s — see them all in Traces (flow work, outcome failed)'],
    ]);
    // The stopped integration's minute is over: no second summary when it would have ended; the other's runs on.
    await clock.advance(60_000);
    expect(lines.filter((l) => l.integration === 'jobs')).toHaveLength(2);
    expect(lines.at(-1)).toMatchObject({ integration: 'other-integration', log: { fields: { suppressed: 3, seconds: 60 } } });
    // The studio closing says the rest, and leaves no timer.
    ends.report(failed(clock, 'boom', 'work', 'other-integration'), atTemplate);
    ends.report(failed(clock, 'boom', 'work', 'other-integration'), atTemplate);
    ends.flush();
    expect(lines.at(-1)?.log.msg).toBe('1 more failed run was not logged one by one in the last 1s — see them all in Traces (flow work, outcome failed)');
    expect(clock.pending).toBe(0);
  });

  it('bounds rejected requests the same way, as a warning', async () => {
    const { clock, lines, ends } = setup();
    const runs = Array.from({ length: 50 }, () => rejected(clock));
    for (const run of runs) ends.report(run);
    ends.report(rejected(clock, 'missing bearer token'));
    await clock.advance(60_000);
    expect(lines.map((l) => [l.log.level, l.log.msg])).toEqual([
      ['warn', 'request rejected by jwt-verify: invalid token: "iss" claim check failed'],
      ['warn', 'request rejected by jwt-verify: missing bearer token'],
      ['warn', '49 more rejected runs were not logged one by one in the last 60s — see them all in Traces (flow price, outcome rejected)'],
    ]);
    expect(lines[2].log.fields.runId).toBe(runs[49].runId);
  });
});
