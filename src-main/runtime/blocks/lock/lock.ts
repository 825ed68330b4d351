import type { Clock } from '../../../../shared/clock.ts';
import { Halt, implementBlock, type StepResult } from '../../core/component.ts';
import type { ChainRest, RunContext } from '../../core/engine/chain.ts';
import type { Message } from '../../core/message.ts';
import { activationOf } from '../../core/activation.ts';
import { FlowError } from '../../core/errors.ts';
import { sleep } from '../../services/deliveries.ts';
import type { HeldLease, LeaseService } from '../../services/platform-services.ts';
import { lockDef } from './lock.def.ts';

export const lock = implementBlock(lockDef, (s, ctx) => {
  const refusal = ctx.host.services.refusalAtLoad('leases', 'a lock');
  if (refusal) throw new Error(refusal);
  /** Runs `steps` while holding the lease the message names; `steps` is the lock's chain, or its rest on a re-run. */
  const holding = async (msg: Message, run: RunContext, steps: ChainRest): Promise<StepResult> => {
    const name = await s.name.evaluate(activationOf(msg));
    if (typeof name !== 'string' || name === '') throw new FlowError(`${ctx.path}.lock.name must be a non-empty string, got ${JSON.stringify(name)}`);
    const lease = await acquire(ctx.host.services.leases, name, s.ttl, s.wait, run.runId, ctx.host.clock);
    if (!lease) {
      if (s.onBusy === 'drop') return null;
      throw new FlowError(`lock "${name}" is held by another holder${s.wait > 0 ? ` and was not released within ${s.wait} ms` : ''}`, { status: 409 });
    }
    try {
      const result = await steps(msg, run);
      if (lease.lost.aborted) {
        throw new FlowError(`${(lease.lost.reason as Error).message}; the steps ran partly without the lock, another holder may have run them too`);
      }
      if (result.outcome === 'failed') throw new FlowError(result.error?.message ?? 'a step inside the lock failed', { status: result.error?.status });
      if (result.outcome === 'dropped') return null;
      return result.halted ? new Halt(result.message) : result.message;
    } finally {
      await lease.release();
    }
  };
  const whole: ChainRest = (m, r) => s.steps.run(m, r);
  return {
    process: (msg, run) => holding(msg, run, whole),
    // A re-run from a step inside the lock takes the lease again: the rest of its steps run under it.
    resume: holding,
  };
});

/**
 * Tries at once, then again after a growing, jittered pause until `waitMs` has passed. Acquire
 * never blocks on the platform, so waiting is polling; the jitter keeps contenders from
 * retrying in lockstep.
 */
async function acquire(leases: LeaseService, name: string, ttlMs: number, waitMs: number, runId: string, clock: Clock): Promise<HeldLease | undefined> {
  const deadline = clock.now() + waitMs;
  let pause = 20;
  for (;;) {
    const lease = await leases.acquire(name, ttlMs, { runId });
    if (lease) return lease;
    const left = deadline - clock.now();
    if (left <= 0) return undefined;
    await sleep(Math.min(pause * (0.5 + Math.random()), left), undefined, clock);
    pause = Math.min(pause * 2, 250);
  }
}
