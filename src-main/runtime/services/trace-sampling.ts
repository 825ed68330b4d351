import type { TraceEntry } from '../../../shared/platform-api/telemetry.ts';
import { BoundedMap } from '../../../shared/bounded-map.ts';

/** Which runs a deployed runtime exports: a fraction, plus every failed one. */
export interface TraceSampling {
  /** Fraction of runs exported, 0..1 (`FLOW_TRACE_SAMPLE_RATIO`, default 1: every run). */
  ratio: number;
  /** Failed runs are exported whatever the ratio (`FLOW_TRACE_KEEP_FAILED`, default true). */
  keepFailed: boolean;
}

export const EVERY_RUN: TraceSampling = { ratio: 1, keepFailed: true };

/** Reads `FLOW_TRACE_SAMPLE_RATIO` and `FLOW_TRACE_KEEP_FAILED`; a bad value is an error naming it. */
export function samplingFromEnv(env: Record<string, string | undefined>): TraceSampling {
  const ratioText = env.FLOW_TRACE_SAMPLE_RATIO?.trim();
  const ratio = ratioText ? Number(ratioText) : 1;
  if (!Number.isFinite(ratio) || ratio < 0 || ratio > 1) {
    throw new Error(`FLOW_TRACE_SAMPLE_RATIO must be a number from 0 to 1 (the fraction of runs traced), got "${env.FLOW_TRACE_SAMPLE_RATIO}"`);
  }
  const keepText = env.FLOW_TRACE_KEEP_FAILED?.trim().toLowerCase();
  if (keepText && keepText !== 'true' && keepText !== 'false') {
    throw new Error(`FLOW_TRACE_KEEP_FAILED must be true or false, got "${env.FLOW_TRACE_KEEP_FAILED}"`);
  }
  return { ratio, keepFailed: keepText !== 'false' };
}

/** Step records of unsampled runs held until their run ends (a failure exports them); the bound on memory. */
const MAX_HELD_RUNS = 10_000;

/**
 * Decides per run, from a hash of its trace id (else its run id), so every record of a run, and
 * every run of one trace, shares one fate. Steps of a
 * run that is not sampled are held until the run record says how it ended: a failed run is then
 * exported whole (when keepFailed), any other is forgotten.
 */
export class TraceSampler {
  private readonly held = new BoundedMap<string, TraceEntry[]>(MAX_HELD_RUNS);
  private readonly threshold: number;
  /** Runs left out by sampling. */
  sampledOut = 0;

  constructor(private readonly sampling: TraceSampling) {
    this.threshold = Math.floor(sampling.ratio * 0x1_0000_0000);
  }

  /**
   * Calls `keep` for each record to export now: none, this one, or a failed run's held steps
   * and calls and its run. A call (a span) shares its run's fate, as its steps do.
   */
  admit(event: TraceEntry, keep: (e: TraceEntry) => void): void {
    // By trace id where there is one: every run of a trace (a caller and its consumers) agrees.
    if (hash32(event.traceId ?? event.runId) < this.threshold) return keep(event);
    if (!this.sampling.keepFailed) {
      if (event.kind === 'run') this.sampledOut++;
      return;
    }
    if (event.kind !== 'run') {
      const steps = this.held.get(event.runId);
      if (steps) steps.push(event);
      else {
        this.held.set(event.runId, [event]);
      }
      return;
    }
    const steps = this.held.get(event.runId);
    this.held.delete(event.runId);
    if (event.outcome !== 'failed') {
      this.sampledOut++;
      return;
    }
    if (steps) for (const s of steps) keep(s);
    keep(event);
  }
}

/** FNV-1a with murmur3's finalizer: cheap, and spreads consecutive run ids evenly over 32 bits. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
