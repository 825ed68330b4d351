import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../shared/clock.ts';
import { createLogger, SecretRedactor, type LogRecord } from './logger.ts';
import { RunFailureLog, type FailedRunSource } from './run-failure-log.ts';

const fromQueue: FailedRunSource = {
  source: { source: 'queue', subject: 'jobs' },
  next: 'redelivered',
  deliveryCount: 1,
  retryInMs: 5000,
};
const atTemplate = {
  message: 'template not found: mail/report.txt',
  step: 'flows.work.steps[2]',
  block: 'template',
};

function setup(redactor?: SecretRedactor): {
  clock: ManualClock;
  lines: LogRecord[];
  failures: RunFailureLog;
} {
  const clock = new ManualClock(Date.parse('2026-01-05T09:00:00Z'));
  const lines: LogRecord[] = [];
  const log = createLogger({
    level: 'debug',
    sinks: [(r) => lines.push(r)],
    redactor,
    fields: { flow: 'work' },
  });
  return {
    clock,
    lines,
    failures: new RunFailureLog({ log, clock, intervalMs: 60_000 }),
  };
}

describe('RunFailureLog', () => {
  it('logs a failure in full as a warn naming the step, block, error, delivery and what comes next', () => {
    const { lines, failures } = setup();
    failures.report(atTemplate, fromQueue);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 'warn',
      msg: 'run failed at flows.work.steps[2] (template) (delivery 1): template not found: mail/report.txt; the message was nacked and is redelivered in 5s',
      flow: 'work',
      source: 'queue',
      subject: 'jobs',
      step: 'flows.work.steps[2]',
      block: 'template',
      error: 'template not found: mail/report.txt',
      deliveryCount: 1,
      next: 'redelivered',
      retryInSeconds: 5,
    });
  });

  it('logs each (step, error) once per window and the rest as one summary line when the window ends', async () => {
    const { clock, lines, failures } = setup();
    for (let i = 0; i < 1000; i++) failures.report(atTemplate, { ...fromQueue, deliveryCount: i + 1 });
    failures.report({ ...atTemplate, message: 'other' }, fromQueue);
    expect(lines.map((l) => l.error)).toEqual(['template not found: mail/report.txt', 'other']);

    await clock.advance(59_999);
    expect(lines).toHaveLength(2);
    await clock.advance(1);
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatchObject({
      level: 'warn',
      msg: '999 more failed runs were not logged one by one in the last 60s',
      suppressed: 999,
      failures: [
        {
          step: 'flows.work.steps[2]',
          block: 'template',
          error: 'template not found: mail/report.txt',
          count: 999,
        },
      ],
    });

    // A new window logs the failure in full again, so a worker that keeps failing keeps saying why.
    failures.report(atTemplate, { ...fromQueue, deliveryCount: 1001 });
    expect(lines).toHaveLength(4);
    expect(lines[3]).toMatchObject({
      deliveryCount: 1001,
      step: 'flows.work.steps[2]',
    });
    // A window with nothing held back ends without a summary.
    await clock.advance(60_000);
    expect(lines).toHaveLength(4);
  });

  it('bounds the lines of a flood of distinct errors (an id in each) to the distinct limit plus one summary', async () => {
    const { clock, lines, failures } = setup();
    for (let i = 0; i < 500; i++) failures.report({ ...atTemplate, message: `job ${i} failed` }, fromQueue);
    expect(lines).toHaveLength(20);
    await clock.advance(60_000);
    expect(lines).toHaveLength(21);
    expect(lines[20]).toMatchObject({ suppressed: 480, failures: [] });
  });

  it('says what it held back when flushed (a source stopping) and leaves no timer set', async () => {
    const { clock, lines, failures } = setup();
    failures.report(atTemplate, fromQueue);
    await clock.advance(3_000);
    failures.report(atTemplate, fromQueue);
    failures.flush();
    expect(lines.map((l) => l.suppressed)).toEqual([undefined, 1]);
    expect(lines[1]).toMatchObject({ msg: '1 more failed run was not logged one by one in the last 3s', seconds: 3 });
    expect(clock.pending).toBe(0);
  });

  it('masks a secret value in the error, the message and the summary', async () => {
    const redactor = new SecretRedactor();
    redactor.add('s3cr3t-token-value');
    const { clock, lines, failures } = setup(redactor);
    const leaky = {
      ...atTemplate,
      message: 'upstream refused Bearer s3cr3t-token-value',
    };
    failures.report(leaky, fromQueue);
    failures.report(leaky, fromQueue);
    await clock.advance(60_000);
    expect(lines).toHaveLength(2);
    expect(JSON.stringify(lines)).not.toContain('s3cr3t-token-value');
    expect(lines[0].error).toBe('upstream refused Bearer [redacted]');
    expect(lines[1]).toMatchObject({
      failures: [{ error: 'upstream refused Bearer [redacted]' }],
    });
  });

  it('says a schedule tick is dropped and a topic delivery is not redelivered', () => {
    const { lines, failures } = setup();
    failures.report(atTemplate, {
      source: { source: 'schedule', schedule: 'every 5000 ms' },
      next: 'dropped',
    });
    failures.report(
      { ...atTemplate, message: 'x' },
      {
        source: { source: 'topic', subject: 't' },
        next: 'dropped',
        deliveryCount: 1,
      },
    );
    expect(lines[0].msg).toMatch(/; the tick is dropped; the next one runs as usual$/);
    expect(lines[1].msg).toMatch(/; the message is dropped \(acknowledged, not redelivered\)$/);
    failures.report({ ...atTemplate, message: 'y' }, { source: { source: 'http', route: 'GET /report' }, next: 'answered', status: 502 });
    expect(lines[2]).toMatchObject({ msg: 'run failed at flows.work.steps[2] (template): y; the caller was answered 502', route: 'GET /report', status: 502 });
  });
});
