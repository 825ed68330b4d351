import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runFlowTest } from './flow-test-runner.ts';
import { loadTestFile, type FlowTest } from './test-file-loader.ts';

// An integration whose flows wait minutes: a five-minute nack delay, a two-minute http-client
// timeout against a stub that answers after five. Its flow tests pass only because the virtual
// clock moves through those minutes; the real time they take is what a user waits.
const dir = fileURLToPath(new URL('testing/slow-upstream', import.meta.url));
const tests = loadTestFile(join(dir, 'retries.test.yaml'));
const named = (prefix: string): FlowTest => tests.find((t) => t.name.startsWith(prefix))!;

describe('the virtual clock of flow tests', () => {
  it.each([['retries a failed job'], ['fails the request when the upstream']])('runs "%s…" through minutes of timers in seconds', async (prefix) => {
    const result = await runFlowTest(named(prefix), dir);
    expect(result.failures).toEqual([]);
    expect(result.passed).toBe(true);
    expect(result.durationMs).toBeLessThan(30_000);
  });

  it('stops at start + advance: a retry due after it does not happen', async () => {
    const test = named('retries a failed job');
    const result = await runFlowTest({ ...test, clock: { ...test.clock, advance: 4 * 60_000 } }, dir);
    expect(result.passed).toBe(false);
    expect(result.failures.map((f) => f.what)).toEqual(['kv user/jobs/7']);
  });

  it('delivers the job twice: the failed attempt, then the retry the nack delay held back', async () => {
    const result = await runFlowTest(named('retries a failed job'), dir);
    const runs = result.events.filter((e) => e.kind === 'run' && e.flow === 'work');
    expect(runs.map((r) => r.outcome)).toEqual(['failed', 'completed']);
  });
});
