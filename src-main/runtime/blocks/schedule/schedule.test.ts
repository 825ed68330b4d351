import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../../../shared/clock.ts';
import { startPlatformServer, type PlatformServer } from '../../../platform/index.ts';
import { problemsOf, startYaml } from '../../testing/load-yaml.ts';
import { apiEnv, runtimeOn, until, type RuntimeOnPlatform } from '../../services/testing/runtime-on-platform.ts';

let dir: string;
let platform: PlatformServer;

// Short leadership numbers so takeover is quick: TTL 3 s, renew every second, observe every second.
const TTL_MS = 3000;
const OBSERVE_MS = 1000;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'flow-schedule-'));
  platform = await startPlatformServer({
    dataDir: join(dir, 'data'),
    features: { leaderElection: { leaseTtlSeconds: TTL_MS / 1000, renewIntervalSeconds: 1, observeIntervalSeconds: OBSERVE_MS / 1000 } },
  });
});
afterAll(async () => {
  await platform.close();
  rmSync(dir, { recursive: true, force: true });
});

const leaderSchedule = `flows:
  tick:
    leader: true
    source: {type: schedule, interval: 200ms}
    steps:
      - log: {message: '"tick"'}
`;

const ticks = (r: RuntimeOnPlatform): number => r.logs.filter((l) => l.msg === 'tick').length;

describe('the schedule source', () => {
  it('runs the flow every interval with the due time in vars.scheduledAt, and checks its settings', async () => {
    // On a clock the test moves: three intervals, three runs, each with its due time.
    const clock = new ManualClock(Date.parse('2026-01-05T09:00:00Z'));
    const { runtime, logs } = await startYaml(`flows:\n  t:\n    source: {type: schedule, interval: 100ms, body: {job: x}}\n    steps:\n      - log: {message: 'body.job + " " + vars.scheduledAt'}\n`, {}, clock);
    try {
      await clock.advance(299);
      await until(() => logs.filter((l) => l.msg.startsWith('x ')).length >= 2, 10_000, 'two runs');
      await clock.advance(1);
      await until(() => logs.filter((l) => l.msg.startsWith('x ')).length >= 3, 10_000, 'three runs');
      expect(logs.filter((l) => l.msg.startsWith('x ')).map((l) => l.msg)).toEqual(['x 2026-01-05T09:00:00.100Z', 'x 2026-01-05T09:00:00.200Z', 'x 2026-01-05T09:00:00.300Z']);
    } finally {
      await runtime.stop();
    }
    expect(problemsOf(`flows:\n  t:\n    source: {type: schedule}\n`)).toEqual(['flows.yaml:3:13 flows.t.source: a schedule needs exactly one of interval or cron']);
    expect(problemsOf(`flows:\n  t:\n    source: {type: schedule, cron: "0 25 * * *"}\n`)[0]).toMatch(/cron hour: "25" is not between 0 and 23/);
  });

  it('fires 30 2 * * * in America/New_York on the spring-forward day at 03:00 local, on a clock the test moves', async () => {
    // Fake timers move Date.now() and setTimeout together: two days of schedule in no real time.
    vi.useFakeTimers({ now: new Date('2025-03-08T12:00:00Z'), toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    try {
      const { runtime, logs } = await startYaml(
        `flows:\n  t:\n    source: {type: schedule, cron: "30 2 * * *", timezone: America/New_York}\n    steps:\n      - log: {message: 'vars.scheduledAt'}\n`,
      );
      try {
        await vi.advanceTimersByTimeAsync(2 * 24 * 3600_000);
        // 2025-03-09 has no 02:30 in New York (02:00 EST jumps to 03:00 EDT); 2025-03-10 does, in EDT.
        expect(logs.map((l) => l.msg).filter((m) => m.startsWith('2025-'))).toEqual(['2025-03-09T07:00:00.000Z', '2025-03-10T06:30:00.000Z']);
      } finally {
        await runtime.stop();
      }
      expect(problemsOf(`flows:\n  t:\n    source: {type: schedule, cron: "0 2 * * *", timezone: Mars/Base}\n`)[0]).toMatch(/timezone "Mars\/Base" is not utc, local or an IANA time zone name/);
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses leader: true on a flow without a source', () => {
    expect(problemsOf(`flows:\n  t:\n    leader: true\n`)).toEqual([
      'flows.yaml:2:3 flows.t.leader: leader: true elects the instance that runs the source, and this flow has no source',
    ]);
  });

  it('runs on the leader only; when the leader stops cleanly the other takes over at its next look', async () => {
    // Its own platform and both instances on one clock that moves itself whenever they are quiet:
    // the seconds below are the clock's, passing as fast as the campaigns over loopback allow.
    const clock = new ManualClock();
    const own = await startPlatformServer({
      dataDir: join(dir, 'clean-handover'),
      clock,
      features: { leaderElection: { leaseTtlSeconds: TTL_MS / 1000, renewIntervalSeconds: 1, observeIntervalSeconds: OBSERVE_MS / 1000 } },
    });
    const driving = clock.drive(clock.now() + 60_000);
    const a = await runtimeOn(own, leaderSchedule, { instanceId: 'a', deploymentId: 'clean', clock });
    let b: RuntimeOnPlatform | undefined;
    try {
      await until(() => ticks(a) > 0, 10_000, 'a to lead');
      b = await runtimeOn(own, leaderSchedule, { instanceId: 'b', deploymentId: 'clean', clock });
      const joined = clock.now();
      await until(() => clock.now() >= joined + 1200, 10_000, '1.2 s of the clock');
      expect(ticks(b)).toBe(0);
      expect(ticks(a)).toBeGreaterThan(3);
      const stopped = clock.now();
      await a.stop();
      const follower = b;
      await until(() => ticks(follower) > 0, 10_000, 'b to take over');
      // Resigning frees the key at once: no need to wait out the TTL.
      expect(clock.now() - stopped).toBeLessThan(OBSERVE_MS + 1000);
    } finally {
      await a.stop().catch(() => {});
      await b?.stop();
      await driving.stop();
      await own.close();
    }
  });

  it('lets the other instance take over within the lease TTL when the leader is killed', async () => {
    const definition = join(dir, 'integration');
    await import('node:fs').then((fs) => fs.mkdirSync(definition, { recursive: true }));
    writeFileSync(join(definition, 'tick.yaml'), leaderSchedule);
    const child: ChildProcess = spawn(process.execPath, ['bin/flow-studio.js', 'run', definition], {
      cwd: process.cwd(),
      env: { ...process.env, ...apiEnv(platform, { instanceId: 'killed', deploymentId: 'crash' }), LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let childTicks = 0;
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      childTicks = (output.match(/"msg":"tick"/g) ?? []).length;
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    let b: RuntimeOnPlatform | undefined;
    try {
      // A cold start of the CLI (TypeScript loader) can take long on a busy machine.
      await until(() => childTicks > 0, 45_000, 'the child to lead').catch((err: Error) => {
        throw new Error(`${err.message}; the child printed:\n${output.slice(-2000)}`);
      });
      b = await runtimeOn(platform, leaderSchedule, { instanceId: 'survivor', deploymentId: 'crash' });
      // While the child keeps ticking, b (looking every observe interval) must stay a follower.
      const childAtJoin = childTicks;
      await until(() => childTicks >= childAtJoin + 6, 20_000, 'six more ticks of the leader');
      expect(ticks(b)).toBe(0);
      child.kill('SIGKILL');
      const killed = Date.now();
      const survivor = b;
      await until(() => ticks(survivor) > 0, TTL_MS + OBSERVE_MS + 2000, 'the survivor to take over');
      const takeover = Date.now() - killed;
      // The claim outlives its holder by at most one TTL; the survivor looks every observe interval.
      // Real time (a killed process cannot share a test clock): the slack absorbs a loaded machine
      // and stays well under a second TTL, which is what a missed expiry would cost.
      expect(takeover).toBeLessThanOrEqual(TTL_MS + OBSERVE_MS + 1500);
    } finally {
      child.kill('SIGKILL');
      await b?.stop();
    }
  }, 70_000);
});
