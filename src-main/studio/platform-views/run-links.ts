import type { RunLink } from '../../../shared/platform-views.ts';
import { type TraceRecord, type TraceHub } from '../../runtime/index.ts';
import { GroupIndex } from '../../../shared/group-index.ts';

/** A finished run as the links need it. */
export interface RunRef {
  runId: string;
  flow: string;
  integration: string;
  outcome: TraceRecord['outcome'];
  correlationId: string;
  startedAt: number;
  endedAt: number;
}

/** A finished step of a block that talks to the platform (kv, lock). */
interface PlatformStep {
  block: string;
  startedAt: number;
  endedAt: number;
  run: Omit<RunRef, 'outcome' | 'endedAt' | 'startedAt'>;
}

export interface RunLinksOptions {
  /** Finished runs remembered; the oldest are forgotten first. */
  maxRuns?: number;
  /** Platform steps remembered for matching writes to runs. */
  maxSteps?: number;
}

/** Blocks whose platform calls are matched to runs: by the run id they send, else by time. */
const TIMED_BLOCKS = new Set(['kv-put', 'kv-delete', 'lock']);
/**
 * Clock slack between a step's bounds (ms, from Date.now at its start plus a performance.now
 * duration) and a platform event's time. On a loaded machine the two clocks and the event's
 * stamping drift apart by more than a couple of milliseconds; overlapping steps still count as
 * several candidates, so a wider slack never links a write to the wrong run silently.
 */
const SLACK_MS = 2;

/**
 * Which runs produced or consumed what the platform saw. Queue and topic messages carry the
 * publisher's correlation id in a header, and the consuming run takes it over, so a message
 * leads to its runs by correlation id. KV writes and leases name their run (X-Flow-Run-Id, which
 * the platform records); from a client that does not, they are matched to the kv or lock step
 * that was running at that moment, exact unless two such steps overlapped (then the candidates
 * are counted, not guessed).
 */
export class RunLinks {
  private readonly byCorrelation = new GroupIndex<RunRef>();
  private readonly outcomes = new Map<string, RunRef>();
  /** Finished runs oldest first from `head`, so the oldest can be forgotten without a shift. */
  private order: RunRef[] = [];
  private head = 0;
  /**
   * The indexes hold the runs of `order` before this place. A run is indexed when a platform
   * event first asks about runs after it, not when it ends: a studio whose flows call no queue,
   * topic, KV or lock asks nothing, and its runs' indexing was a twentieth of what the studio spent
   * recording each request under load.
   */
  private indexed = 0;
  private steps: PlatformStep[] = [];
  private readonly maxRuns: number;
  private readonly maxSteps: number;

  constructor(options: RunLinksOptions = {}) {
    this.maxRuns = options.maxRuns ?? 100_000;
    this.maxSteps = options.maxSteps ?? 20_000;
  }

  /** Follows a runtime's traces (no snapshots, no spans); returns what stops it. */
  watch(integration: string, traces: TraceHub): () => void {
    return traces.add({ emit: (e) => this.record(integration, e) });
  }

  record(integration: string, e: TraceRecord): void {
    if (e.kind === 'run') {
      const ref: RunRef = {
        runId: e.runId,
        flow: e.flow,
        integration,
        outcome: e.outcome,
        correlationId: e.correlationId,
        startedAt: e.startedAt,
        endedAt: e.startedAt + e.durationMs,
      };
      this.order.push(ref);
      if (this.order.length - this.head > this.maxRuns) this.forgetOldest();
      return;
    }
    if (e.block === undefined || !TIMED_BLOCKS.has(e.block)) return;
    this.steps.push({
      block: e.block,
      startedAt: e.startedAt,
      endedAt: e.startedAt + e.durationMs,
      run: { runId: e.runId, flow: e.flow, integration, correlationId: e.correlationId },
    });
    if (this.steps.length > this.maxSteps * 2) this.steps = this.steps.slice(-this.maxSteps);
  }

  /** Runs with this correlation id, in the order they ended. */
  runs(correlationId: string): readonly RunRef[] {
    this.catchUp();
    return this.byCorrelation.get(correlationId);
  }

  /** Indexes the runs that ended since the last question. */
  private catchUp(): void {
    for (; this.indexed < this.order.length; this.indexed++) {
      const ref = this.order[this.indexed];
      this.byCorrelation.add(ref.correlationId, ref);
      this.outcomes.set(ref.runId, ref);
    }
  }

  /** The oldest finished run leaves both indexes (when it was in them): one map entry and one group place per run, no queue of its own. */
  private forgetOldest(): void {
    const old = this.order[this.head];
    if (this.head < this.indexed) {
      this.byCorrelation.remove(old.correlationId, old);
      if (this.outcomes.get(old.runId) === old) this.outcomes.delete(old.runId);
    }
    this.order[this.head++] = undefined as unknown as RunRef;
    if (this.indexed < this.head) this.indexed = this.head;
    if (this.head > 1_024 && this.head * 2 > this.order.length) {
      this.order = this.order.slice(this.head);
      this.indexed -= this.head;
      this.head = 0;
    }
  }

  /**
   * The run that published at `at`: one of the correlation's runs going on at that moment. It
   * started no later than the publish (both clocks are this process's Date.now), so a consumer
   * that started a moment after is never taken for it; of several, the earliest started.
   */
  producer(correlationId: string | undefined, at: number): RunLink | undefined {
    if (!correlationId) return undefined;
    let best: RunRef | undefined;
    for (const r of this.runs(correlationId)) {
      if (r.startedAt <= at && r.endedAt >= at - SLACK_MS && (!best || r.startedAt < best.startedAt)) best = r;
    }
    return best && link(best, 'producer');
  }

  /**
   * The first run with the correlation id that started at or after a delivery at `at`: the run
   * the delivery started. Runs that started before `publishedAt` (the publisher) never count.
   */
  consumerAfter(correlationId: string | undefined, group: string | undefined, at: number, publishedAt = 0): RunLink | undefined {
    let best: RunRef | undefined;
    for (const r of this.consumers(correlationId, group, publishedAt)) {
      if (r.startedAt >= at && (!best || r.startedAt < best.startedAt)) best = r;
    }
    return best && link(best, 'consumer');
  }

  /** The consuming run that ended last at or before `at`: what an ack, nack or reply settled. */
  consumerBefore(correlationId: string | undefined, group: string | undefined, at: number, publishedAt = 0): RunLink | undefined {
    let best: RunRef | undefined;
    for (const r of this.consumers(correlationId, group, publishedAt)) {
      if (r.endedAt <= at + SLACK_MS && (!best || r.endedAt > best.endedAt)) best = r;
    }
    return best && link(best, 'consumer');
  }

  /**
   * Runs that may have consumed a message: same correlation id, started after it was published,
   * and of the integration named like the consumer group when there is one (a deployment
   * receives as its deployment id).
   */
  private consumers(correlationId: string | undefined, group: string | undefined, publishedAt: number): RunRef[] {
    if (!correlationId) return [];
    const runs = this.runs(correlationId).filter((r) => r.startedAt >= publishedAt);
    const ofGroup = group ? runs.filter((r) => r.integration === group) : [];
    return ofGroup.length > 0 ? ofGroup : runs;
  }

  /**
   * The run a platform event named (its request carried X-Flow-Run-Id): exact, whatever the
   * clocks say. Known once the run, or the platform step that made the call, has finished.
   */
  byRunId(runId: string, role: RunLink['role']): RunLink | undefined {
    this.catchUp();
    const ended = this.outcomes.get(runId);
    if (ended) return link(ended, role);
    for (let i = this.steps.length - 1; i >= 0; i--) {
      const s = this.steps[i];
      if (s.run.runId === runId) return { runId, flow: s.run.flow, integration: s.run.integration, outcome: 'completed', role };
    }
    return undefined;
  }

  /**
   * The run whose `blocks` step was running at `at`: exactly one, or a count of candidates.
   * For events from a runtime that does not name its runs (an older one, another platform client).
   * A step is known once it has finished, so a write by a step still running has none yet.
   */
  stepAt(at: number, blocks: readonly string[], role: RunLink['role']): { run?: RunLink; candidates: number } {
    const ids = new Set<string>();
    let only: PlatformStep | undefined;
    for (let i = this.steps.length - 1; i >= 0; i--) {
      const s = this.steps[i];
      if (!blocks.includes(s.block) || s.startedAt > at + SLACK_MS || s.endedAt < at - SLACK_MS) continue;
      if (!ids.has(s.run.runId)) {
        ids.add(s.run.runId);
        only = s;
      }
    }
    if (ids.size !== 1) return { candidates: ids.size };
    this.catchUp();
    const outcome = this.outcomes.get(only!.run.runId)?.outcome ?? 'completed';
    return { run: { runId: only!.run.runId, flow: only!.run.flow, integration: only!.run.integration, outcome, role }, candidates: 1 };
  }
}

export function link(r: RunRef, role: RunLink['role']): RunLink {
  return { runId: r.runId, flow: r.flow, integration: r.integration, outcome: r.outcome, role };
}
