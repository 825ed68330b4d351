import { afterEach, describe, expect, it } from 'vitest';
import type { LogFeedEvent } from '../../../shared/feed-events.ts';
import type { StudioApi } from '../../../shared/studio-api.ts';
import { startStudioHarness, type StudioHarness } from '../testing/studio-harness.ts';

// Both flows fail at a template the integration does not have; a failed job comes back only
// after an hour, so the queue flow runs once in the test.
const jobs = `connectors:
  web: {type: http, port: 0}
flows:
  price:
    source: {type: http, path: /price, methods: [POST]}
    steps:
      - template: {name: missing.txt}
  work:
    source: {type: queue, subject: report-jobs, nackDelay: 1h}
    steps:
      - template: {name: missing.txt}
`;

let harness: StudioHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** Polls `read` until `done` holds of it, for up to 10 s (a loaded machine's worst), and returns what it read last. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  let value = await read();
  for (const deadline = Date.now() + 10_000; !done(value) && Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) value = await read();
  return value;
}

/** The Logs panel's warn and error lines of the integration, oldest first. */
async function problemLines(api: StudioApi): Promise<LogFeedEvent[]> {
  const lines = await api.queryLogs({ limit: 500 });
  return lines.filter((l) => l.integration === 'jobs' && (l.log.level === 'warn' || l.log.level === 'error')).sort((a, b) => a.at - b.at);
}

describe("the studio's Logs panel, a run that fails", () => {
  it('says each failed run once, in the line linked to the run, with its step, block and delivery: an HTTP run and a queue run', async () => {
    harness = await startStudioHarness({ jobs: { 'jobs.yaml': jobs } });
    const api = harness.backend.api;
    const { routes } = await api.startIntegration('jobs');

    // An HTTP run: the runtime logged its own line (if any) before the caller got the answer.
    const answer = await fetch(routes[0].url, { method: 'POST', body: '{}' });
    expect(answer.status).toBe(500);
    const [http] = (await until(() => api.queryRuns({ offset: 0, limit: 10, flow: 'price', outcome: 'failed' }), (p) => p.total === 1)).rows;

    // A queue run: its runtime line (if any) is written before the message is nacked.
    const { messageIds } = await api.publishQueueMessage({ subject: 'report-jobs', body: { report: 'daily' } });
    const nacked = await until(
      () => api.queueMessage('report-jobs', messageIds[0]),
      (m) => m?.events.some((e) => e.action === 'nack') === true,
    );
    expect(nacked?.events.find((e) => e.action === 'nack')).toMatchObject({ delaySeconds: 3600 });
    const [queued] = (await until(() => api.queryRuns({ offset: 0, limit: 10, flow: 'work', outcome: 'failed' }), (p) => p.total === 1)).rows;

    const lines = await until(
      () => problemLines(api),
      (l) => l.filter((x) => x.log.fields.runId !== undefined).length >= 2,
    );
    // One line each, saying what the runtime's own line would have: the step, its block, the delivery.
    expect(lines.map((l) => [l.log.level, l.log.msg, l.log.fields.runId])).toEqual([
      ['error', `run failed: ${http.error} — at flows.price.steps[0] (template)`, http.runId],
      ['error', `run failed: ${queued.error} — at flows.work.steps[0] (template), delivery 1`, queued.runId],
    ]);
    expect(lines[1].log.fields).toMatchObject({ flow: 'work', step: 'flows.work.steps[0]', block: 'template', deliveryCount: 1 });
  });

  it('says a flood of one failure once, and how many more there were when the integration stops, linked to one of them', async () => {
    harness = await startStudioHarness({ jobs: { 'jobs.yaml': jobs } });
    const api = harness.backend.api;
    const { routes } = await api.startIntegration('jobs');
    for (let i = 0; i < 8; i++) expect((await fetch(routes[0].url, { method: 'POST', body: '{}' })).status).toBe(500);
    const failed = await until(() => api.queryRuns({ offset: 0, limit: 10, flow: 'price', outcome: 'failed' }), (p) => p.total === 8);
    expect(failed.total).toBe(8);
    // Well within the minute: the integration stopping ends it.
    await api.stopIntegration('jobs');

    const lines = await until(
      () => problemLines(api),
      (l) => l.length >= 2,
    );
    expect(lines.map((l) => [l.log.level, l.log.msg.replace(/last \d+s/, 'last Ns')])).toEqual([
      ['error', `run failed: ${failed.rows[0].error} — at flows.price.steps[0] (template)`],
      ['error', '7 more failed runs were not logged one by one in the last Ns — see them all in Traces (flow price, outcome failed)'],
    ]);
    expect(lines[1].log.fields).toMatchObject({ flow: 'price', suppressed: 7 });
    // The first run has its own line; the summary links to one of the others (the newest).
    const folded = failed.rows.map((r) => r.runId).filter((id) => id !== lines[0].log.fields.runId);
    expect(folded).toHaveLength(7);
    expect(folded).toContain(lines[1].log.fields.runId);
  });
});
